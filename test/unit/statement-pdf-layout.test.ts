import { Decimal } from '../../src/domain/money';
import { Formats } from '../../src/services/statements/formats';
import {
  CELL_SIZE,
  DISCLAIMER_MAX_HEIGHT,
  FOOTER,
  MIN_ROW,
  PAD,
  cellBoxes,
  closingHeight,
  firstCellSpan,
  fittedSize,
  footerLayout,
  footerNote,
  standIn,
  tableWidth,
} from '../../src/services/statements/pdf-layout';
import type { Column } from '../../src/services/statements/render';
import { STATEMENT_TEXTS } from '../../src/services/statements/texts';

const columns: Column[] = [
  { header: 'Reference', width: 200 },
  { header: 'Source', width: 100 },
  { header: 'Return %', width: 90, kind: 'number', total: () => '1.5' },
  { header: 'Amount', width: 125, kind: 'money', total: 'sum' },
];
/** A font size per call that tells which cells were fitted. */
const fitted = jest.fn((_text: string, width: number) => width / 100);

beforeEach(() => fitted.mockClear());

describe('statement PDF cell boxes', () => {
  it('puts each cell in its column, inside the padding, text left and numbers right', () => {
    const boxes = cellBoxes(columns, ['PO-1', 'Payout', '2.50', '$1.00'], 'row', 40, fitted);
    expect(boxes.map((b) => [b.x, b.width, b.text, b.align])).toEqual([
      [40 + PAD, 200 - 2 * PAD, 'PO-1', 'left'],
      [240 + PAD, 100 - 2 * PAD, 'Payout', 'left'],
      [340 + PAD, 90 - 2 * PAD, '2.50', 'right'],
      [430 + PAD, 125 - 2 * PAD, '$1.00', 'right'],
    ]);
    expect(boxes.map((b) => b.bold)).toEqual([false, false, false, false]);
  });

  it('fits numbers and amounts to their column on one line, never text', () => {
    const boxes = cellBoxes(columns, ['PO-1', 'Payout', '2.50', '$1.00'], 'row', 40, fitted);
    expect(fitted.mock.calls).toEqual([
      ['2.50', 90 - 2 * PAD, false],
      ['$1.00', 125 - 2 * PAD, false],
    ]);
    expect(boxes.map((b) => b.size)).toEqual([CELL_SIZE, CELL_SIZE, (90 - 2 * PAD) / 100, (125 - 2 * PAD) / 100]);
  });

  it('sets headers bold at the cell size, unfitted, each in its own column', () => {
    const boxes = cellBoxes(columns, ['Reference', 'Source', 'Return %', 'Amount'], 'header', 0, fitted);
    expect(fitted).not.toHaveBeenCalled();
    expect(boxes.map((b) => [b.text, b.size, b.bold])).toEqual([
      ['Reference', CELL_SIZE, true],
      ['Source', CELL_SIZE, true],
      ['Return %', CELL_SIZE, true],
      ['Amount', CELL_SIZE, true],
    ]);
  });

  it('lets a totals label span the empty columns before the first total', () => {
    expect(firstCellSpan(columns, 'totals')).toBe(2);
    expect(firstCellSpan(columns, 'row')).toBe(1);
    expect(firstCellSpan(columns, 'header')).toBe(1);
    const boxes = cellBoxes(columns, ['Total profit paid', '', '1.5', '$9.00'], 'totals', 40, fitted);
    expect(boxes.map((b) => [b.x, b.width, b.text, b.bold])).toEqual([
      [40 + PAD, 300 - 2 * PAD, 'Total profit paid', true],
      [340 + PAD, 90 - 2 * PAD, '1.5', true],
      [430 + PAD, 125 - 2 * PAD, '$9.00', true],
    ]);
  });

  it('gives a totals label its own column when the first column is already a total', () => {
    const first: Column[] = [{ header: 'Amount', width: 100, kind: 'money', total: 'sum' }, ...columns];
    expect(firstCellSpan(first, 'totals')).toBe(1);
    expect(firstCellSpan([{ header: 'A', width: 100 }], 'totals')).toBe(1);
  });

  it('keeps the cell size while the text fits, else shrinks it in proportion', () => {
    expect(fittedSize(50, 60)).toBe(CELL_SIZE);
    expect(fittedSize(60, 60)).toBe(CELL_SIZE);
    expect(fittedSize(120, 60)).toBe(CELL_SIZE / 2);
  });

  it('measures a table as its columns side by side', () => {
    expect(tableWidth(columns)).toBe(515);
    expect(tableWidth([])).toBe(0);
  });
});

describe('statement PDF table end', () => {
  it('keeps the last row with every totals row', () => {
    expect(closingHeight(20, [14, 16])).toBe(50);
  });

  it('without rows, keeps the empty line (one minimal row) with the totals', () => {
    expect(closingHeight(undefined, [14])).toBe(MIN_ROW + 14);
    expect(closingHeight(undefined, [])).toBe(MIN_ROW);
  });
});

describe('statement PDF footer', () => {
  const texts = STATEMENT_TEXTS.de;

  it('without a disclaimer has its fixed part alone and no note', () => {
    const layout = footerLayout(null);
    expect(layout.height).toBe(FOOTER);
    expect(footerNote(null, layout, texts, 0)).toBeNull();
  });

  it('prints a disclaimer that fits whole on every page', () => {
    const layout = footerLayout({ height: DISCLAIMER_MAX_HEIGHT, lineHeight: 7 });
    expect(layout).toEqual({ height: FOOTER + DISCLAIMER_MAX_HEIGHT + 4, disclaimerInFooter: true });
    expect(footerNote('Risk.', layout, texts, 0)).toBe('Risk.');
  });

  it('points to the page of a disclaimer too long for it, in one line', () => {
    const layout = footerLayout({ height: DISCLAIMER_MAX_HEIGHT + 1, lineHeight: 7 });
    expect(layout).toEqual({ height: FOOTER + 7 + 4, disclaimerInFooter: false });
    expect(footerNote('Risk.', layout, texts, 3)).toBe(texts.disclaimerOnPage(3));
  });
});

describe('statement PDF mixed-font measure', () => {
  it('stands in a 1em dash per glyph of the fallback face, counting code points', () => {
    const parts = [
      { font: 'sans' as const, text: 'Łukasz ' },
      { font: 'cjk' as const, text: '王小明' },
      { font: 'sans' as const, text: ' 𝔸' },
    ];
    expect(standIn(parts, 'sans')).toBe('Łukasz \u2014\u2014\u2014 𝔸');
    expect(standIn([{ font: 'cjk', text: '𠀀王' }], 'sans-bold')).toBe('\u2014\u2014');
  });
});

describe('statement formats', () => {
  const money: Column = { header: 'Amount', width: 100, kind: 'money' };
  const percent: Column = { header: '%', width: 100, kind: 'number' };
  const text: Column = { header: 'Text', width: 100 };
  // Intl separates with no-break spaces, narrow ones in some ICU versions.
  const spaced = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

  it('prints amounts in the language and currency, to the cent, exactly whatever their size', () => {
    const f = new Formats('pl', 'PLN', 'UTC');
    expect(spaced(f.cell(money, new Decimal('1234567.5')))).toBe('1 234 567,50 zł');
    expect(spaced(f.cell(money, new Decimal('-98765432109876543.21')))).toBe('-98 765 432 109 876 543,21 zł');
  });

  it('keeps the digits a number was given with, and leaves text and empty numbers as they are', () => {
    const f = new Formats('de', 'EUR', 'UTC');
    expect(f.cell(percent, '12.5')).toBe('12,5');
    expect(f.cell(percent, '12.500')).toBe('12,500');
    expect(f.cell(percent, '1234')).toBe('1.234');
    expect(f.cell(percent, '')).toBe('');
    expect(f.cell(text, '12.5')).toBe('12.5');
    expect(f.row([text, percent, money], ['a', '1.25', new Decimal('2')]).map(spaced)).toEqual(['a', '1,25', '2,00 €']);
  });

  it('falls back to USD for a currency Intl does not know, and to UTC for an unknown zone', () => {
    const f = new Formats('en', 'not a currency', 'Nowhere/Atlantis');
    expect(f.cell(money, new Decimal('1'))).toBe('$1.00');
    expect(spaced(f.moment(new Date('2026-11-26T12:05:00Z')))).toBe('11/26/2026, 12:05 PM UTC (UTC)');
  });

  it('prints a moment in the investor’s zone, naming it', () => {
    const f = new Formats('pl', 'PLN', 'Europe/Warsaw');
    expect(spaced(f.moment(new Date('2026-11-26T12:05:00Z')))).toBe('26.11.2026, 13:05 CET (Europe/Warsaw)');
  });
});
