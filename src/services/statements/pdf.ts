import type { Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import { present } from '../../invariant';
import { fonts, runs, type FontName } from './fonts';
import { kind, Totals, type Cell, type Column, type Statement } from './render';

/** Display formats from the investor's language and currency; values arrive as exact decimal strings. */
class Formats {
  private readonly locale: string;
  private readonly money: Intl.NumberFormat;
  private readonly numbers = new Map<number, Intl.NumberFormat>();

  constructor(language: string, currency: string) {
    this.locale = Intl.NumberFormat.supportedLocalesOf(language)[0] ?? 'en';
    this.money = Formats.currency(this.locale, currency) ?? present(Formats.currency(this.locale, 'USD'), 'USD format');
  }

  private static currency(locale: string, currency: string): Intl.NumberFormat | undefined {
    try {
      return new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 });
    } catch {
      return undefined; // not a currency code Intl knows
    }
  }

  /** Intl formats a decimal string exactly (no float on the way), whatever its size. */
  cell(c: Column, v: Cell): string {
    if (typeof v !== 'string') return this.money.format(v.toFixed(2) as Intl.StringNumericLiteral);
    if (kind(c) !== 'number' || v === '') return v;
    const digits = v.split('.')[1]?.length ?? 0;
    let f = this.numbers.get(digits);
    if (!f) this.numbers.set(digits, (f = new Intl.NumberFormat(this.locale, { minimumFractionDigits: digits, maximumFractionDigits: digits })));
    return f.format(v as Intl.StringNumericLiteral);
  }
}

const MARGIN = 40;
/** Room under the tables for the footer (disclaimer, account, page number). */
const FOOTER = 62;
const PAD = 3;
const MIN_ROW = 14;
const CELL_SIZE = 8;
const FOOTER_SIZE = 6.5;
/** The disclaimer is cut (at a word) to what three footer lines hold, with an ellipsis. */
const DISCLAIMER_CHARS = 420;

const shorten = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2)).trimEnd()}…`;
};

/**
 * A4 PDF in embedded Unicode fonts: a heading (platform, title, investor, period, generation time), then
 * each section as a table whose header repeats on every page, closed by bold totals rows. Cells wrap
 * within their column; a row is as tall as its tallest cell. Every page has a footer with the account,
 * the disclaimer and "Page x of y".
 *
 * "of y" needs the page count, so pages are buffered (pdfkit bufferPages) and the footers written at the
 * end: rows are still read in batches, but the bytes of the pages go out once the last row is laid out.
 */
export function pdfStream(statement: Statement): Readable {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + FOOTER },
    bufferPages: true,
    info: { Title: statement.title, Author: statement.platform },
  });
  for (const [name, font] of Object.entries(fonts())) doc.registerFont(name, font as unknown as Buffer);
  const fmt = new Formats(statement.language, statement.currency);
  const left = MARGIN;
  const bottom = () => doc.page.height - doc.page.margins.bottom;

  /** Text in runs of the font that has their glyphs; wraps at `width`. */
  const write = (text: string, x: number, y: number, size: number, bold: boolean, options: PDFKit.Mixins.TextOptions = {}) => {
    const parts = runs(text, bold ? 'sans-bold' : 'sans');
    doc.fontSize(size);
    parts.forEach((run, i) => {
      doc.font(run.font);
      const opts = { ...options, continued: i < parts.length - 1 };
      if (i === 0) doc.text(run.text, x, y, opts);
      else doc.text(run.text, opts);
    });
  };
  /** Height of `text` wrapped at `width`; mixed-font text is measured with a 1em stand-in per CJK glyph, at the taller line height. */
  const heightOf = (text: string, width: number, size: number, bold: boolean) => {
    const primary: FontName = bold ? 'sans-bold' : 'sans';
    const parts = runs(text, primary);
    doc.font(primary).fontSize(size);
    if (parts.length === 1 && parts[0].font === primary)
      return doc.widthOfString(text) <= width ? doc.currentLineHeight(true) : doc.heightOfString(text, { width });
    const standIn = parts.map((p) => (p.font === primary ? p.text : '\u2014'.repeat([...p.text].length))).join('');
    const primaryLine = doc.currentLineHeight(true);
    const cjkLine = doc.font('cjk').currentLineHeight(true);
    doc.font(primary);
    return (doc.heightOfString(standIn, { width }) * Math.max(primaryLine, cjkLine)) / primaryLine;
  };

  /** Where each cell goes: a totals row's label spans the empty columns before the first total. */
  const boxes = (columns: Column[], cells: string[], spanLabel: boolean) => {
    const span = spanLabel
      ? Math.max(
          1,
          columns.findIndex((c) => c.total),
        )
      : 1;
    let x = left;
    return columns.flatMap((c, i) => {
      const box = {
        x,
        width: i === 0 ? columns.slice(0, span).reduce((w, k) => w + k.width, 0) : c.width,
        text: cells[i],
        align: kind(c) === 'text' ? 'left' : 'right',
      } as const;
      x += c.width;
      return i > 0 && i < span ? [] : [box];
    });
  };
  const rowHeight = (columns: Column[], cells: string[], bold: boolean, spanLabel = false) =>
    Math.max(MIN_ROW, ...boxes(columns, cells, spanLabel).map((b) => heightOf(b.text, b.width - 2 * PAD, CELL_SIZE, bold) + 2 * PAD));
  const drawCells = (columns: Column[], cells: string[], y: number, bold: boolean, spanLabel = false) => {
    for (const b of boxes(columns, cells, spanLabel))
      if (b.text !== '') write(b.text, b.x + PAD, y + PAD, CELL_SIZE, bold, { width: b.width - 2 * PAD, align: b.align });
  };
  const rule = (columns: Column[], y: number) => {
    const width = columns.reduce((w, c) => w + c.width, 0);
    doc
      .moveTo(left, y)
      .lineTo(left + width, y)
      .lineWidth(0.5)
      .strokeColor('#999999')
      .stroke();
  };

  const footers = () => {
    const { start, count } = doc.bufferedPageRange();
    const disclaimer = statement.disclaimer ? shorten(statement.disclaimer, DISCLAIMER_CHARS) : null;
    for (let i = start; i < start + count; i++) {
      doc.switchToPage(i);
      // Writing below the bottom margin would make pdfkit open a new page.
      doc.page.margins.bottom = 0;
      const width = doc.page.width - 2 * MARGIN;
      let y = doc.page.height - MARGIN - FOOTER + 10;
      doc
        .moveTo(left, y - 4)
        .lineTo(left + width, y - 4)
        .lineWidth(0.5)
        .strokeColor('#999999')
        .stroke();
      if (disclaimer) write(disclaimer, left, y, FOOTER_SIZE, false, { width, height: 3 * doc.fontSize(FOOTER_SIZE).currentLineHeight(true), ellipsis: true });
      y = doc.page.height - MARGIN - 10;
      write(`Account: ${statement.account}, ${statement.investorName}`, left, y, FOOTER_SIZE + 0.5, false, { width: width - 80, lineBreak: false });
      write(`Page ${i - start + 1} of ${count}`, left + width - 80, y, FOOTER_SIZE + 0.5, false, { width: 80, align: 'right', lineBreak: false });
    }
  };

  const render = async () => {
    write(statement.platform, left, MARGIN, 16, true);
    write(statement.title, left, doc.y, 13, true);
    write(`Investor: ${statement.investorName}`, left, doc.y + 5, 10, false);
    write(`Period: ${statement.period}`, left, doc.y, 10, false);
    write(`Generated: ${statement.generatedAt.toISOString().replace('T', ' ').slice(0, 19)} UTC`, left, doc.y, 10, false);
    let y = doc.y + 12;

    for (const section of statement.sections) {
      const headers = section.columns.map((c) => c.header);
      const header = () => {
        const h = rowHeight(section.columns, headers, true);
        drawCells(section.columns, headers, y, true);
        y += h;
        rule(section.columns, y);
      };
      const row = (cells: string[], totalsRow: boolean) => {
        const h = rowHeight(section.columns, cells, totalsRow, totalsRow);
        if (y + h > bottom()) {
          doc.addPage();
          y = doc.page.margins.top;
          header();
        }
        drawCells(section.columns, cells, y, totalsRow, totalsRow);
        y += h;
      };
      if (y + 4 * MIN_ROW > bottom()) {
        doc.addPage();
        y = doc.page.margins.top;
      }
      write(section.title, left, y, 11, true);
      y += MIN_ROW + 4;
      header();

      const totals = new Totals(section.columns, section.totals);
      for await (const cells of section.rows) {
        if (doc.destroyed) return; // the client went away: stop reading
        totals.add(cells);
        row(
          cells.map((v, i) => fmt.cell(section.columns[i], v)),
          false,
        );
      }
      rule(section.columns, y);
      for (const cells of totals.cells())
        row(
          cells.map((v, i) => fmt.cell(section.columns[i], v)),
          true,
        );
      y += 16;
    }
    footers();
    doc.end();
  };
  render().catch((err: unknown) => doc.destroy(err as Error));
  return doc as unknown as Readable;
}
