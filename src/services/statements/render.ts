import { Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import { ZERO, dec, type Decimal } from '../money';

export interface Column {
  header: string;
  /** PDF points; the columns of a section fill the 515pt of an A4 page between margins. */
  width: number;
  align?: 'left' | 'right';
  /** 'sum': added up (exactly) into the totals row; a function: derived from the summed columns. */
  total?: 'sum' | ((sums: Decimal[]) => string);
}

/** One table: its rows are produced while rendering (batched DB reads), never held whole. */
export interface Section {
  title: string;
  columns: Column[];
  rows: AsyncIterable<string[]>;
  totalLabel: string;
}

export interface Statement {
  platform: string;
  title: string;
  investorName: string;
  period: string;
  generatedAt: Date;
  sections: Section[];
}

/** Both renderers total through this, so the PDF and the CSV of one statement agree. */
class Totals {
  private readonly sums: Decimal[];

  constructor(private readonly columns: Column[]) {
    this.sums = columns.map(() => ZERO);
  }

  add(cells: string[]): void {
    this.columns.forEach((c, i) => {
      if (c.total === 'sum') this.sums[i] = this.sums[i].plus(dec(cells[i]));
    });
  }

  row(label: string): string[] {
    return this.columns.map((c, i) => (i === 0 ? label : c.total === 'sum' ? this.sums[i].toFixed(2) : c.total ? c.total(this.sums) : ''));
  }
}

const csvCell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const csvLine = (cells: string[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** RFC 4180 CSV: per section a header row, one row per line item and a totals row; sections apart by an empty line. */
export function csvStream(statement: Statement): Readable {
  return Readable.from(
    (async function* () {
      for (const [i, section] of statement.sections.entries()) {
        if (i > 0) yield '\r\n';
        yield csvLine(section.columns.map((c) => c.header));
        const totals = new Totals(section.columns);
        for await (const cells of section.rows) {
          totals.add(cells);
          yield csvLine(cells);
        }
        yield csvLine(totals.row(section.totalLabel));
      }
    })(),
  );
}

const ROW_HEIGHT = 14;
/** Bytes the PDF may run ahead of a slow reader before rendering (and so DB reading) waits. */
const MAX_AHEAD = 1 << 20;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';

/**
 * A4 PDF: a heading (platform, title, investor, period, generation time), then each section as a
 * table whose header repeats on every page, closed by a bold totals row. The document is a stream:
 * pages go out while later rows are still being read.
 */
export function pdfStream(statement: Statement): Readable {
  const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: statement.title, Author: statement.platform } });
  const left = doc.page.margins.left;
  const bottom = () => doc.page.height - doc.page.margins.bottom;

  const drawCells = (columns: Column[], cells: string[], y: number, font: string, from = 0) => {
    doc.font(font).fontSize(8);
    let x = left + columns.slice(0, from).reduce((w, c) => w + c.width, 0);
    for (let i = from; i < columns.length; i++) {
      doc.text(cells[i], x + 2, y + 3, { width: columns[i].width - 4, height: ROW_HEIGHT - 3, align: columns[i].align ?? 'left', ellipsis: true });
      x += columns[i].width;
    }
  };
  // Backpressure: pdfkit pushes without waiting, so wait for the reader (or a hang-up) ourselves.
  const caughtUp = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        doc.off('data', done);
        doc.off('close', done);
        resolve();
      };
      doc.on('data', done);
      doc.on('close', done);
    });
  const rule = (columns: Column[], y: number) => {
    const width = columns.reduce((w, c) => w + c.width, 0);
    doc.moveTo(left, y).lineTo(left + width, y).lineWidth(0.5).strokeColor('#999999').stroke();
  };

  const render = async () => {
    doc.font(BOLD).fontSize(16).text(statement.platform);
    doc.fontSize(13).text(statement.title);
    doc.moveDown(0.4).font(FONT).fontSize(10);
    doc.text(`Investor: ${statement.investorName}`);
    doc.text(`Period: ${statement.period}`);
    doc.text(`Generated: ${statement.generatedAt.toISOString().replace('T', ' ').slice(0, 19)} UTC`);
    let y = doc.y + 12;

    for (const section of statement.sections) {
      const header = () => {
        drawCells(section.columns, section.columns.map((c) => c.header), y, BOLD);
        y += ROW_HEIGHT;
        rule(section.columns, y);
      };
      const room = () => {
        if (y + ROW_HEIGHT <= bottom()) return;
        doc.addPage();
        y = doc.page.margins.top;
        header();
      };
      if (y + 4 * ROW_HEIGHT > bottom()) {
        doc.addPage();
        y = doc.page.margins.top;
      }
      doc.font(BOLD).fontSize(11).text(section.title, left, y);
      y += ROW_HEIGHT + 4;
      header();

      const totals = new Totals(section.columns);
      for await (const cells of section.rows) {
        // readableFlowing false: piped and paused by the reader (listening for 'data' then does not resume it).
        while (doc.readableLength > MAX_AHEAD && doc.readableFlowing === false && !doc.destroyed) await caughtUp();
        if (doc.destroyed) return; // the client went away: stop reading
        room();
        totals.add(cells);
        drawCells(section.columns, cells, y, FONT);
        y += ROW_HEIGHT;
      }
      room();
      rule(section.columns, y);
      // The label spans the columns before the first total, which the totals row leaves empty.
      const firstTotal = Math.max(1, section.columns.findIndex((c) => c.total));
      const labelWidth = section.columns.slice(0, firstTotal).reduce((w, c) => w + c.width, 0);
      const row = totals.row(section.totalLabel);
      doc.font(BOLD).fontSize(8).text(row[0], left + 2, y + 3, { width: labelWidth - 4, height: ROW_HEIGHT - 3, ellipsis: true });
      drawCells(section.columns, row, y, BOLD, firstTotal);
      y += ROW_HEIGHT + 16;
    }
    doc.end();
  };
  render().catch((err: unknown) => doc.destroy(err as Error));
  return doc as unknown as Readable;
}
