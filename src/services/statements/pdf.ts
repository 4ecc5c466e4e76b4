import type { Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import { present } from '../../platform/invariant';
import { fonts, runs, type FontName } from './fonts';
import { kind, Totals, type Cell, type Column, type Statement } from './render';

/** Display formats from the investor's language and currency; values arrive as exact decimal strings. */
class Formats {
  private readonly locale: string;
  private readonly money: Intl.NumberFormat;
  private readonly numbers = new Map<number, Intl.NumberFormat>();

  private readonly dateTime: Intl.DateTimeFormat;

  constructor(language: string, currency: string, timeZone: string) {
    this.locale = Intl.NumberFormat.supportedLocalesOf(language)[0] ?? 'en';
    this.money = Formats.currency(this.locale, currency) ?? present(Formats.currency(this.locale, 'USD'), 'USD format');
    this.dateTime = Formats.dateTime(this.locale, timeZone) ?? present(Formats.dateTime(this.locale, 'UTC'), 'UTC format');
  }

  private static dateTime(locale: string, timeZone: string): Intl.DateTimeFormat | undefined {
    const options = { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' } as const;
    try {
      return new Intl.DateTimeFormat(locale, options);
    } catch {
      return undefined; // a zone this Node's ICU does not know
    }
  }

  /** A moment in the investor's time zone, e.g. "26.11.2026, 13:05 CET (Europe/Warsaw)". */
  moment(at: Date): string {
    return `${this.dateTime.format(at)} (${this.dateTime.resolvedOptions().timeZone})`;
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

type RowStyle = 'header' | 'row' | 'totals';

const MARGIN = 40;
/** The footer's fixed part: the rule above it, the account and page line below the disclaimer. */
const FOOTER = 30;
const PAD = 3;
const MIN_ROW = 14;
const CELL_SIZE = 8;
const FOOTER_SIZE = 6.5;
/**
 * The disclaimer is printed whole in every footer when it takes at most this many points (about ten
 * lines); a longer one would crowd out the tables, so it closes the document and each footer points to it.
 */
const DISCLAIMER_MAX_HEIGHT = 80;

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
  // Pages after the first take their margins from this object (the bottom one is set once the footer is measured).
  const margins = { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + FOOTER };
  const doc = new PDFDocument({
    size: 'A4',
    margins,
    bufferPages: true,
    info: { Title: statement.title, Author: statement.platform },
  });
  for (const [name, font] of Object.entries(fonts())) doc.registerFont(name, font as unknown as Buffer);
  const t = statement.texts;
  const fmt = new Formats(statement.language, statement.currency, statement.timeZone);
  const left = MARGIN;
  const width = doc.page.width - 2 * MARGIN;
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

  /**
   * Where each cell goes: a totals row's label spans the empty columns before the first total. An
   * amount or number is never wrapped (a currency code split over two lines misreads): it gets the
   * font size that fits its column on one line.
   */
  const boxes = (columns: Column[], cells: string[], style: RowStyle) => {
    const span =
      style === 'totals'
        ? Math.max(
            1,
            columns.findIndex((c) => c.total),
          )
        : 1;
    const bold = style !== 'row';
    let x = left;
    return columns.flatMap((c, i) => {
      const width = (i === 0 ? columns.slice(0, span).reduce((w, k) => w + k.width, 0) : c.width) - 2 * PAD;
      const fit = style !== 'header' && kind(c) !== 'text';
      const box = {
        x: x + PAD,
        width,
        text: cells[i],
        bold,
        align: kind(c) === 'text' ? 'left' : 'right',
        size: fit ? fitted(cells[i], width, bold) : CELL_SIZE,
      } as const;
      x += c.width;
      return i > 0 && i < span ? [] : [box];
    });
  };
  const fitted = (text: string, width: number, bold: boolean) => {
    const natural = doc
      .font(bold ? 'sans-bold' : 'sans')
      .fontSize(CELL_SIZE)
      .widthOfString(text);
    return natural <= width ? CELL_SIZE : (CELL_SIZE * width) / natural;
  };
  const rowHeight = (columns: Column[], cells: string[], style: RowStyle) =>
    Math.max(MIN_ROW, ...boxes(columns, cells, style).map((b) => heightOf(b.text, b.width, b.size, b.bold) + 2 * PAD));
  const drawCells = (columns: Column[], cells: string[], y: number, style: RowStyle) => {
    for (const b of boxes(columns, cells, style)) if (b.text !== '') write(b.text, b.x, y + PAD, b.size, b.bold, { width: b.width, align: b.align });
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

  // The disclaimer whole, never cut: in every footer when it fits the footer's room, else once at the end.
  const disclaimer = statement.disclaimer?.replace(/\s+/g, ' ').trim() || null;
  const disclaimerHeight = disclaimer ? heightOf(disclaimer, width, FOOTER_SIZE, false) : 0;
  const disclaimerInFooter = disclaimerHeight <= DISCLAIMER_MAX_HEIGHT;
  const footerHeight = FOOTER + (disclaimer ? (disclaimerInFooter ? disclaimerHeight : doc.currentLineHeight(true)) + 4 : 0);
  doc.page.margins.bottom = margins.bottom = MARGIN + footerHeight;
  let disclaimerPage = 0;

  const footers = () => {
    const { start, count } = doc.bufferedPageRange();
    const note = disclaimer && (disclaimerInFooter ? disclaimer : t.disclaimerOnPage(disclaimerPage));
    for (let i = start; i < start + count; i++) {
      doc.switchToPage(i);
      // Writing below the bottom margin would make pdfkit open a new page.
      doc.page.margins.bottom = 0;
      const y = doc.page.height - MARGIN - footerHeight + 10;
      doc
        .moveTo(left, y - 4)
        .lineTo(left + width, y - 4)
        .lineWidth(0.5)
        .strokeColor('#999999')
        .stroke();
      if (note) write(note, left, y, FOOTER_SIZE, false, { width });
      const line = doc.page.height - MARGIN - 10;
      write(`${t.account}: ${statement.account}, ${statement.investorName}`, left, line, FOOTER_SIZE + 0.5, false, { width: width - 80, lineBreak: false });
      write(t.page(i - start + 1, count), left + width - 80, line, FOOTER_SIZE + 0.5, false, { width: 80, align: 'right', lineBreak: false });
    }
  };

  const render = async () => {
    write(statement.platform, left, MARGIN, 16, true);
    write(statement.title, left, doc.y, 13, true);
    write(`${t.investor}: ${statement.investorName}`, left, doc.y + 5, 10, false);
    write(`${t.period}: ${statement.period}`, left, doc.y, 10, false);
    write(`${t.currency}: ${statement.currency}`, left, doc.y, 10, false);
    write(`${t.generated}: ${fmt.moment(statement.generatedAt)}`, left, doc.y, 10, false);
    let y = doc.y + 12;

    for (const section of statement.sections) {
      const headers = section.columns.map((c) => c.header);
      const header = () => {
        const h = rowHeight(section.columns, headers, 'header');
        drawCells(section.columns, headers, y, 'header');
        y += h;
        rule(section.columns, y);
      };
      const newPage = () => {
        doc.addPage();
        y = doc.page.margins.top;
        header();
      };
      const row = (cells: string[], style: RowStyle) => {
        const h = rowHeight(section.columns, cells, style);
        if (y + h > bottom()) newPage();
        drawCells(section.columns, cells, y, style);
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
      // One row held back: the last one goes to the next page with the totals rather than leave them
      // alone under a repeated header.
      let held: string[] | undefined;
      for await (const cells of section.rows) {
        if (doc.destroyed) return; // the client went away: stop reading
        totals.add(cells);
        if (held) row(held, 'row');
        held = cells.map((v, i) => fmt.cell(section.columns[i], v));
      }
      const totalRows = totals.cells().map((cells) => cells.map((v, i) => fmt.cell(section.columns[i], v)));
      const closing =
        (held ? rowHeight(section.columns, held, 'row') : MIN_ROW) + totalRows.reduce((h, cells) => h + rowHeight(section.columns, cells, 'totals'), 0);
      if (y + closing > bottom()) newPage();
      if (held) row(held, 'row');
      else {
        write(section.empty, left + PAD, y + PAD, CELL_SIZE, false);
        y += MIN_ROW;
      }
      rule(section.columns, y);
      for (const cells of totalRows) row(cells, 'totals');
      y += 16;
    }
    if (disclaimer && !disclaimerInFooter) {
      if (y + 4 * MIN_ROW > bottom()) {
        doc.addPage();
        y = doc.page.margins.top;
      }
      disclaimerPage = doc.bufferedPageRange().start + doc.bufferedPageRange().count;
      write(t.disclaimer, left, y, 11, true);
      write(disclaimer, left, doc.y + 4, CELL_SIZE, false, { width });
    }
    footers();
    doc.end();
  };
  render().catch((err: unknown) => doc.destroy(err as Error));
  return doc as unknown as Readable;
}
