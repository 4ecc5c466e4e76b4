import type { Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import { fonts, runs, type FontName } from './fonts';
import { Formats } from './formats';
import {
  CELL_SIZE,
  FOOTER,
  FOOTER_SIZE,
  MARGIN,
  MIN_ROW,
  PAD,
  cellBoxes,
  closingHeight,
  fittedSize,
  footerLayout,
  footerNote,
  standIn,
  tableWidth,
  type FooterLayout,
  type RowStyle,
} from './pdf-layout';
import { Totals, type Column, type Section, type Statement } from './render';

interface Margins {
  top: number;
  left: number;
  right: number;
  bottom: number;
}

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
  new StatementPdf(doc, margins, statement).render().catch((err: unknown) => doc.destroy(err as Error));
  return doc as unknown as Readable;
}

/** One statement drawn onto its document; `y` is where the next thing goes on the current page. */
class StatementPdf {
  private readonly fmt: Formats;
  private readonly width: number;
  /** The disclaimer whole, never cut: in every footer when it fits the footer's room, else once at the end. */
  private readonly disclaimer: string | null;
  private readonly footer: FooterLayout;
  private disclaimerPage = 0;
  private y = 0;

  constructor(
    private readonly doc: PDFKit.PDFDocument,
    margins: Margins,
    private readonly statement: Statement,
  ) {
    this.fmt = new Formats(statement.language, statement.currency, statement.timeZone);
    this.width = doc.page.width - 2 * MARGIN;
    this.disclaimer = statement.disclaimer?.replace(/\s+/g, ' ').trim() || null;
    this.footer = footerLayout(
      this.disclaimer
        ? {
            height: this.heightOf(this.disclaimer, this.width, FOOTER_SIZE, false),
            lineHeight: doc.font('sans').fontSize(FOOTER_SIZE).currentLineHeight(true),
          }
        : null,
    );
    doc.page.margins.bottom = margins.bottom = MARGIN + this.footer.height;
  }

  async render(): Promise<void> {
    this.heading();
    for (const section of this.statement.sections) if (!(await this.section(section))) return;
    this.closingDisclaimer();
    this.footers();
    this.doc.end();
  }

  /** Text in runs of the font that has their glyphs; wraps at `width`. */
  private write(text: string, x: number, y: number, size: number, bold: boolean, options: PDFKit.Mixins.TextOptions = {}): void {
    const parts = runs(text, bold ? 'sans-bold' : 'sans');
    this.doc.fontSize(size);
    parts.forEach((run, i) => {
      this.doc.font(run.font);
      const opts = { ...options, continued: i < parts.length - 1 };
      if (i === 0) this.doc.text(run.text, x, y, opts);
      else this.doc.text(run.text, opts);
    });
  }

  /** Height of `text` wrapped at `width`; mixed-font text is measured with a 1em stand-in per CJK glyph, at the taller line height. */
  private heightOf(text: string, width: number, size: number, bold: boolean): number {
    const doc = this.doc;
    const primary: FontName = bold ? 'sans-bold' : 'sans';
    const parts = runs(text, primary);
    doc.font(primary).fontSize(size);
    if (parts.length === 1 && parts[0].font === primary)
      return doc.widthOfString(text) <= width ? doc.currentLineHeight(true) : doc.heightOfString(text, { width });
    const primaryLine = doc.currentLineHeight(true);
    const cjkLine = doc.font('cjk').currentLineHeight(true);
    doc.font(primary);
    return (doc.heightOfString(standIn(parts, primary), { width }) * Math.max(primaryLine, cjkLine)) / primaryLine;
  }

  private boxes(columns: Column[], cells: string[], style: RowStyle) {
    return cellBoxes(columns, cells, style, MARGIN, (text, width, bold) =>
      fittedSize(
        this.doc
          .font(bold ? 'sans-bold' : 'sans')
          .fontSize(CELL_SIZE)
          .widthOfString(text),
        width,
      ),
    );
  }

  private rowHeight(columns: Column[], cells: string[], style: RowStyle): number {
    return Math.max(MIN_ROW, ...this.boxes(columns, cells, style).map((b) => this.heightOf(b.text, b.width, b.size, b.bold) + 2 * PAD));
  }

  private drawCells(columns: Column[], cells: string[], style: RowStyle): void {
    for (const b of this.boxes(columns, cells, style))
      if (b.text !== '') this.write(b.text, b.x, this.y + PAD, b.size, b.bold, { width: b.width, align: b.align });
  }

  /** A thin grey line `width` long from the left margin. */
  private rule(width: number, y: number): void {
    this.doc
      .moveTo(MARGIN, y)
      .lineTo(MARGIN + width, y)
      .lineWidth(0.5)
      .strokeColor('#999999')
      .stroke();
  }

  private bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  private startPage(): void {
    this.doc.addPage();
    this.y = this.doc.page.margins.top;
  }

  /** A new page, its table's header repeated. */
  private newTablePage(columns: Column[]): void {
    this.startPage();
    this.tableHeader(columns);
  }

  /** A new page unless `height` fits below `y` on this one. */
  private makeRoom(height: number): void {
    if (this.y + height > this.bottom()) this.startPage();
  }

  private heading(): void {
    const { statement, doc } = this;
    const t = statement.texts;
    this.write(statement.platform, MARGIN, MARGIN, 16, true);
    this.write(statement.title, MARGIN, doc.y, 13, true);
    this.write(`${t.investor}: ${statement.investorName}`, MARGIN, doc.y + 5, 10, false);
    this.write(`${t.period}: ${statement.period}`, MARGIN, doc.y, 10, false);
    this.write(`${t.currency}: ${statement.currency}`, MARGIN, doc.y, 10, false);
    this.write(`${t.generated}: ${this.fmt.moment(statement.generatedAt)}`, MARGIN, doc.y, 10, false);
    this.y = doc.y + 12;
  }

  /** The table's header row and the rule under it. */
  private tableHeader(columns: Column[]): void {
    const headers = columns.map((c) => c.header);
    const h = this.rowHeight(columns, headers, 'header');
    this.drawCells(columns, headers, 'header');
    this.y += h;
    this.rule(tableWidth(columns), this.y);
  }

  /** A row of the table, on a new page under a repeated header when it does not fit. */
  private row(columns: Column[], cells: string[], style: RowStyle): void {
    const h = this.rowHeight(columns, cells, style);
    if (this.y + h > this.bottom()) this.newTablePage(columns);
    this.drawCells(columns, cells, style);
    this.y += h;
  }

  /** One section's table, its rows read as they come; false when the client went away (nothing more is read). */
  private async section(section: Section): Promise<boolean> {
    const { columns } = section;
    // The title with room for the header and a few rows, else on a new page.
    this.makeRoom(4 * MIN_ROW);
    this.write(section.title, MARGIN, this.y, 11, true);
    this.y += MIN_ROW + 4;
    this.tableHeader(columns);

    const totals = new Totals(columns, section.totals);
    // One row held back: the last one goes to the next page with the totals rather than leave them
    // alone under a repeated header.
    let held: string[] | undefined;
    for await (const cells of section.rows) {
      if (this.doc.destroyed) return false; // the client went away: stop reading
      totals.add(cells);
      if (held) this.row(columns, held, 'row');
      held = this.fmt.row(columns, cells);
    }
    this.closeTable(section, held, totals);
    return true;
  }

  /** The last row (or the section's empty line) and the totals rows, together on one page. */
  private closeTable(section: Section, last: string[] | undefined, totals: Totals): void {
    const { columns } = section;
    const totalRows = totals.cells().map((cells) => this.fmt.row(columns, cells));
    const closing = closingHeight(
      last && this.rowHeight(columns, last, 'row'),
      totalRows.map((cells) => this.rowHeight(columns, cells, 'totals')),
    );
    if (this.y + closing > this.bottom()) this.newTablePage(columns);
    if (last) this.row(columns, last, 'row');
    else {
      this.write(section.empty, MARGIN + PAD, this.y + PAD, CELL_SIZE, false);
      this.y += MIN_ROW;
    }
    this.rule(tableWidth(columns), this.y);
    for (const cells of totalRows) this.row(columns, cells, 'totals');
    this.y += 16;
  }

  /** A disclaimer too long for the footers, once after the last table. */
  private closingDisclaimer(): void {
    if (!this.disclaimer || this.footer.disclaimerInFooter) return;
    this.makeRoom(4 * MIN_ROW);
    const pages = this.doc.bufferedPageRange();
    this.disclaimerPage = pages.start + pages.count;
    this.write(this.statement.texts.disclaimer, MARGIN, this.y, 11, true);
    this.write(this.disclaimer, MARGIN, this.doc.y + 4, CELL_SIZE, false, { width: this.width });
  }

  /** Every page's footer: a rule, the disclaimer or where it is, the account and "Page x of y". */
  private footers(): void {
    const { doc, statement, width } = this;
    const t = statement.texts;
    const { start, count } = doc.bufferedPageRange();
    const note = footerNote(this.disclaimer, this.footer, t, this.disclaimerPage);
    for (let i = start; i < start + count; i++) {
      doc.switchToPage(i);
      // Writing below the bottom margin would make pdfkit open a new page.
      doc.page.margins.bottom = 0;
      const y = doc.page.height - MARGIN - this.footer.height + 10;
      this.rule(width, y - 4);
      if (note) this.write(note, MARGIN, y, FOOTER_SIZE, false, { width });
      const line = doc.page.height - MARGIN - 10;
      this.write(`${t.account}: ${statement.account}, ${statement.investorName}`, MARGIN, line, FOOTER_SIZE + 0.5, false, {
        width: width - 80,
        lineBreak: false,
      });
      this.write(t.page(i - start + 1, count), MARGIN + width - 80, line, FOOTER_SIZE + 0.5, false, { width: 80, align: 'right', lineBreak: false });
    }
  }
}
