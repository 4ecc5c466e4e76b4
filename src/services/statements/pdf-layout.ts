import type { FontName, Run } from './fonts';
import { kind, type Column } from './render';
import type { StatementTexts } from './texts';

/**
 * The statement PDF's layout decisions that need no document: where cells go, how big a footer is,
 * when the end of a table must move to a new page. `pdf.ts` measures the text and draws.
 */

export type RowStyle = 'header' | 'row' | 'totals';

export const MARGIN = 40;
/** The footer's fixed part: the rule above it, the account and page line below the disclaimer. */
export const FOOTER = 30;
export const PAD = 3;
export const MIN_ROW = 14;
export const CELL_SIZE = 8;
export const FOOTER_SIZE = 6.5;
/**
 * The disclaimer is printed whole in every footer when it takes at most this many points (about ten
 * lines); a longer one would crowd out the tables, so it closes the document and each footer points to it.
 */
export const DISCLAIMER_MAX_HEIGHT = 80;

export interface CellBox {
  x: number;
  width: number;
  text: string;
  bold: boolean;
  align: 'left' | 'right';
  size: number;
}

/** How many columns a row's first cell spans: a totals row's label takes the empty columns before the first total. */
export function firstCellSpan(columns: Column[], style: RowStyle): number {
  return style === 'totals'
    ? Math.max(
        1,
        columns.findIndex((c) => c.total),
      )
    : 1;
}

/**
 * Where each cell of a row starting at `left` goes. An amount or number is never wrapped (a currency
 * code split over two lines misreads): it gets the font size `fitted` finds for its column's width.
 */
export function cellBoxes(
  columns: Column[],
  cells: string[],
  style: RowStyle,
  left: number,
  fitted: (text: string, width: number, bold: boolean) => number,
): CellBox[] {
  const span = firstCellSpan(columns, style);
  const bold = style !== 'row';
  let x = left;
  return columns.flatMap((c, i) => {
    const width = (i === 0 ? columns.slice(0, span).reduce((w, k) => w + k.width, 0) : c.width) - 2 * PAD;
    const fit = style !== 'header' && kind(c) !== 'text';
    const box: CellBox = {
      x: x + PAD,
      width,
      text: cells[i],
      bold,
      align: kind(c) === 'text' ? 'left' : 'right',
      size: fit ? fitted(cells[i], width, bold) : CELL_SIZE,
    };
    x += c.width;
    return i > 0 && i < span ? [] : [box];
  });
}

/** The cell font size that puts text `natural` points wide at CELL_SIZE on one line of `width`. */
export function fittedSize(natural: number, width: number): number {
  return natural <= width ? CELL_SIZE : (CELL_SIZE * width) / natural;
}

/** The table's width: its columns side by side. */
export function tableWidth(columns: Column[]): number {
  return columns.reduce((w, c) => w + c.width, 0);
}

/**
 * The height the end of a table needs on one page: its last row (or the empty line in place of rows)
 * with the totals rows, so the totals never stand alone under a repeated header.
 */
export function closingHeight(lastRow: number | undefined, totalRows: number[]): number {
  return (lastRow ?? MIN_ROW) + totalRows.reduce((h, t) => h + t, 0);
}

export interface FooterLayout {
  /** The footer's height above the bottom margin: the bottom margin of every page is MARGIN plus this. */
  height: number;
  /** False: the disclaimer closes the document and each footer points to its page. */
  disclaimerInFooter: boolean;
}

/**
 * The footer's room: the disclaimer whole when it takes at most DISCLAIMER_MAX_HEIGHT (`height`, set
 * in FOOTER_SIZE at the page's width), else one line (`lineHeight`) pointing to it.
 */
export function footerLayout(disclaimer: { height: number; lineHeight: number } | null): FooterLayout {
  if (!disclaimer) return { height: FOOTER, disclaimerInFooter: true };
  const inFooter = disclaimer.height <= DISCLAIMER_MAX_HEIGHT;
  return { height: FOOTER + ((inFooter ? disclaimer.height : disclaimer.lineHeight) + 4), disclaimerInFooter: inFooter };
}

/** The footer's note: the disclaimer itself, or where it is printed (`page`), or nothing without one. */
export function footerNote(disclaimer: string | null, layout: FooterLayout, texts: StatementTexts, page: number): string | null {
  return disclaimer && (layout.disclaimerInFooter ? disclaimer : texts.disclaimerOnPage(page));
}

/**
 * Mixed-font text as the primary face alone can measure it: each glyph of another face stands in as a
 * 1em dash, so wrapping breaks where the real runs would.
 */
export function standIn(parts: Run[], primary: FontName): string {
  return parts.map((p) => (p.font === primary ? p.text : '\u2014'.repeat([...p.text].length))).join('');
}
