import type { Readable } from 'node:stream';
import { NumericCell, csvStream as writeCsv, type CsvCell } from '../csv';
import { ZERO, type Decimal } from '../../domain/money';
import type { StatementLanguage, StatementTexts } from './texts';

/** `money`: a Decimal cell, summed exactly; `number`: a decimal string (percentages); `text`: anything else. */
export type ColumnKind = 'text' | 'number' | 'money';
export type Cell = string | Decimal;

export interface Column {
  header: string;
  /** The CSV's header where it is not `header`: the name scripts already read the column by, kept when the printed one changed. */
  csvHeader?: string;
  /** PDF points; the columns of a section fill the 515pt of an A4 page between margins. */
  width: number;
  kind?: ColumnKind;
  /** 'sum': money added up (exactly) into the totals rows; a function: a number derived from the sums. */
  total?: 'sum' | ((sums: Decimal[]) => string);
}

/** A totals row over the rows `when` accepts (all rows without it). */
export interface TotalRow {
  label: string;
  when?: (cells: Cell[]) => boolean;
}

/** One table: its rows are produced while rendering (batched DB reads), never held whole. */
export interface Section {
  title: string;
  columns: Column[];
  rows: AsyncIterable<Cell[]>;
  totals: TotalRow[];
  /** Printed (PDF) in place of the rows when there are none, e.g. "No holdings." */
  empty: string;
}

export interface Statement {
  platform: string;
  title: string;
  investorName: string;
  /** Printed in every page's footer, e.g. "Investor #12". */
  account: string;
  period: string;
  generatedAt: Date;
  /** What the statement is written in (texts and number formats alike), and its words. */
  language: StatementLanguage;
  texts: StatementTexts;
  /** The investor's settings: display only; amounts are not converted. */
  currency: string;
  /** IANA zone the generation time is printed in. */
  timeZone: string;
  /** The investment disclaimer's text, printed whole. */
  disclaimer: string | null;
  sections: Section[];
}

/** Both renderers total through this, so the PDF and the CSV of one statement agree. */
export class Totals {
  private readonly sums: Decimal[][];

  constructor(
    private readonly columns: Column[],
    private readonly rows: TotalRow[],
  ) {
    this.sums = rows.map(() => columns.map(() => ZERO));
  }

  add(cells: Cell[]): void {
    this.rows.forEach((row, r) => {
      if (row.when && !row.when(cells)) return;
      this.columns.forEach((c, i) => {
        if (c.total === 'sum') this.sums[r][i] = this.sums[r][i].plus(cells[i] as Decimal);
      });
    });
  }

  /** The totals rows: the label in the first cell, sums under their columns. */
  cells(): Cell[][] {
    return this.rows.map((row, r) =>
      this.columns.map((c, i) => (i === 0 ? row.label : c.total === 'sum' ? this.sums[r][i] : c.total ? c.total(this.sums[r]) : '')),
    );
  }
}

export const kind = (c: Column): ColumnKind => c.kind ?? 'text';

/** Text cells are neutralised by the CSV writer; number and money columns are written as plain decimals. */
const csvCell = (c: Column, v: Cell): CsvCell => (typeof v !== 'string' ? new NumericCell(v.toFixed(2)) : kind(c) === 'text' ? v : new NumericCell(v));

async function* csvRecords(statement: Statement): AsyncGenerator<CsvCell[]> {
  for (const [i, section] of statement.sections.entries()) {
    if (i > 0) yield [''];
    // A section with amounts ends with their ISO 4217 code, on every row, totals included.
    const currency = section.columns.some((c) => kind(c) === 'money') ? [statement.currency] : [];
    yield [...section.columns.map((c) => c.csvHeader ?? c.header), ...(currency.length ? [statement.texts.columns.currency] : [])];
    const totals = new Totals(section.columns, section.totals);
    for await (const cells of section.rows) {
      totals.add(cells);
      yield [...cells.map((v, j) => csvCell(section.columns[j], v)), ...currency];
    }
    for (const row of totals.cells()) yield [...row.map((v, j) => csvCell(section.columns[j], v)), ...currency];
  }
}

/**
 * The statement as CSV (src/services/csv.ts): per section a header row, one row per line item and
 * the totals rows, a Currency column last where there are amounts; sections apart by an empty line.
 * Streamed: the writer's backpressure pauses the row reader.
 */
export function csvStream(statement: Statement): Readable {
  return writeCsv(csvRecords(statement));
}
