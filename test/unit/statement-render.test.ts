import { PDFParse } from 'pdf-parse';
import { Decimal } from '../../src/domain/money';
import { DistributionCadence, DistributionType } from '../../src/generated/prisma/enums';
import { distributionColumns } from '../../src/services/statement.service';
import { pdfStream } from '../../src/services/statements/pdf';
import { csvStream, type Cell, type Statement } from '../../src/services/statements/render';
import { LANGUAGES, STATEMENT_TEXTS } from '../../src/services/statements/texts';

const statement = (rows: Cell[][]): Statement => ({
  platform: 'P',
  title: 'T',
  investorName: 'N',
  account: 'Investor #1',
  period: 'p',
  generatedAt: new Date(),
  language: 'en',
  texts: STATEMENT_TEXTS.en,
  currency: 'USD',
  timeZone: 'UTC',
  disclaimer: null,
  sections: [
    {
      title: 'S',
      totals: [{ label: 'Total' }],
      empty: 'None.',
      columns: [
        { header: 'Text', width: 100 },
        { header: 'Return %', width: 100, kind: 'number' },
        { header: 'Amount', width: 100, kind: 'money', total: 'sum' },
      ],
      rows: (async function* () {
        yield* rows;
      })(),
    },
  ],
});

async function csv(rows: Cell[][]): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of csvStream(statement(rows))) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

describe('statement CSV', () => {
  it('neutralises text cells a spreadsheet would run, and leaves numbers (negative ones too) numbers', async () => {
    const text = await csv([
      ['=1+2', '-3.20', new Decimal('-12.50')],
      ['+cmd', '4.00', new Decimal('1000.00')],
      ['-minus', '0.00', new Decimal('0.01')],
      ['@SUM(A1)', '0.00', new Decimal('0')],
      ['\tTAB', '0.00', new Decimal('0')],
      ['\rCR', '0.00', new Decimal('0')],
      ['plain, "quoted"', '0.00', new Decimal('0')],
    ]);
    expect(text.startsWith('\ufeffText,Return %,Amount,Currency\r\n')).toBe(true);
    expect(text.slice(1).split('\r\n')).toEqual([
      'Text,Return %,Amount,Currency',
      "'=1+2,-3.20,-12.50,USD",
      "'+cmd,4.00,1000.00,USD",
      "'-minus,0.00,0.01,USD",
      "'@SUM(A1),0.00,0.00,USD",
      "'\tTAB,0.00,0.00,USD",
      '"\'\rCR",0.00,0.00,USD',
      '"plain, ""quoted""",0.00,0.00,USD',
      'Total,,987.51,USD',
      '',
    ]);
  });
});

/** The text of each page of a rendered PDF. */
async function pdfPages(statement: Statement): Promise<string[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of pdfStream(statement)) chunks.push(chunk as Buffer);
  const parser = new PDFParse({ data: new Uint8Array(Buffer.concat(chunks)) });
  try {
    return (await parser.getText()).pages.map((p) => p.text);
  } finally {
    await parser.destroy();
  }
}

const spaces = (s: string) => s.replace(/[\s\u00a0\u202f]+/g, ' ').trim();

describe('statement PDF layout', () => {
  const texts = STATEMENT_TEXTS.pl;
  const DISCLAIMER =
    'Investing in real assets involves risk, including the loss of the capital you invest. Past performance and projected returns are not a reliable indicator of future results.\n\nUnits are illiquid: you may not be able to withdraw your investment when you wish, and withdrawals are subject to review and to the limits set for each unit.\n\nNothing on the platform is investment, tax or legal advice. You should consider whether an investment is suitable for you and, if in doubt, consult an independent financial adviser.';

  /** The text of each page of a profit-statement-like PDF with `count` payouts. */
  function pages(count: number, disclaimer = DISCLAIMER): Promise<string[]> {
    return pdfPages({
      ...statement([]),
      language: 'pl',
      texts,
      currency: 'PLN',
      disclaimer,
      sections: [
        {
          title: texts.sections.payouts,
          empty: texts.noEntries,
          totals: [{ label: texts.totals.profitPaid }, { label: texts.totals.capitalReturned }],
          columns: [
            { header: texts.columns.reference, width: 315 },
            { header: texts.columns.amount, width: 200, kind: 'money', total: 'sum' },
          ],
          rows: (async function* () {
            for (let i = 0; i < count; i++) yield [`PO-${i}`, new Decimal('56500.00')];
          })(),
        },
      ],
    });
  }

  it('never leaves the totals alone under a repeated header: the last row goes to the new page with them', async () => {
    // Every row count from one page up to a few past the first page break: one of them used to fill
    // the first page exactly and push the totals alone onto the second.
    let twoPages = 0;
    for (let count = 25; twoPages < 4; count++) {
      const text = await pages(count);
      const last = text.at(-1)!.split('\n');
      expect(last.some((l) => l.startsWith(texts.totals.profitPaid))).toBe(true);
      expect(last.some((l) => /^PO-\d+ /.test(l))).toBe(true);
      // Every row printed once, in order.
      expect(text.join('\n').match(/^PO-\d+/gm)).toEqual(Array.from({ length: count }, (_, i) => `PO-${i}`));
      if (text.length > 1) twoPages++;
      expect(count).toBeLessThan(80);
    }
  });

  it('prints the whole risk disclaimer on every page, never cut', async () => {
    const text = await pages(60);
    expect(text.length).toBeGreaterThan(1);
    for (const page of text) expect(spaces(page)).toContain(spaces(DISCLAIMER));
  });

  it('a disclaimer too long for every footer closes the document, whole, and every footer points to its page', async () => {
    const long = Array.from({ length: 8 }, () => DISCLAIMER).join('\n\n');
    const text = await pages(60, long);
    const lines = text.map((page) => page.split('\n'));
    const at = lines.findIndex((page) => page.includes(texts.disclaimer)) + 1;
    expect(at).toBeGreaterThan(1);
    for (const page of text) expect(spaces(page)).toContain(texts.disclaimerOnPage(at));
    // From its heading on, footers aside, the text runs whole (over as many pages as it needs).
    const footer = (l: string) => l.startsWith(texts.disclaimerOnPage(at)) || l.startsWith(`${texts.account}:`);
    const closing = lines.slice(at - 1).flatMap((page) => page.filter((l) => !footer(l)));
    expect(spaces(closing.slice(closing.indexOf(texts.disclaimer)).join(' '))).toBe(`${texts.disclaimer} ${spaces(long)}`);
  });
});

describe('statement PDF: the profit statement’s distributions', () => {
  const cadences = Object.values(DistributionCadence);
  const kinds = Object.values(DistributionType);

  it.each(LANGUAGES)('%s: each row names its cadence, and no header or label is broken over two lines', async (language) => {
    const texts = STATEMENT_TEXTS[language];
    const columns = distributionColumns(texts);
    // One row per cadence, the kinds in turn, under a unit name long enough to wrap.
    const text = (
      await pdfPages({
        ...statement([]),
        language,
        texts,
        currency: 'EUR',
        sections: [
          {
            title: texts.sections.distributions,
            totals: [{ label: texts.totals.distributions }],
            empty: texts.noEntries,
            columns,
            rows: (async function* () {
              for (const [i, cadence] of cadences.entries())
                yield [
                  '2026-04-30',
                  'Harbour View Residences, Tower B',
                  '2026-Q1',
                  texts.types[kinds[i % kinds.length]],
                  texts.cadences[cadence],
                  new Decimal('1234567.89'),
                  new Decimal('61728.39'),
                  new Decimal('1172839.50'),
                ];
            })(),
          },
        ],
      })
    ).join('\n');
    // A row's cells come out in drawing order, each wrapped cell whole: from its date to the next row's.
    const rows = text
      .split(/^(?=2026-04-30 )/m)
      .slice(1)
      .map(spaces);
    expect(rows).toHaveLength(cadences.length);
    rows.forEach((row, i) => expect(row).toContain(`2026-Q1 ${texts.types[kinds[i % kinds.length]]} ${texts.cadences[cadences[i]]} `));
    // A word wider than its column would be split mid-word: every one must come out whole.
    const words = new Set(spaces(text).split(' '));
    const phrases = [...columns.map((c) => c.header), ...Object.values(texts.types), ...Object.values(texts.cadences)];
    for (const word of phrases.flatMap((p) => p.split(' '))) expect(words).toContain(word);
  });
});
