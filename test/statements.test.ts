import { PDFParse } from 'pdf-parse';
import type { Response } from 'supertest';
import type { Response as RawResponse } from 'superagent';
import { Decimal } from '../src/domain/money';
import { STATEMENT_TEXTS, type StatementTexts } from '../src/services/statements/texts';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

let t: TestGateway;
let investorToken: string;
let demoInvestorId: number;
let demoName: string;
/** How the demo investor's statements print amounts (their settings). */
let demoPrinted: ReturnType<typeof printed>;
let otherToken: string;
let otherInvestorId: number;

const today = new Date().toISOString().slice(0, 10);
const thisYear = new Date().getUTCFullYear();
const DAY_MS = 86_400_000;

beforeAll(async () => {
  t = await startTestGateway();
  investorToken = await t.token(DEMO_EMAILS.investor);
  const demo = await t.db.prisma.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.investor }, include: { investor: true } });
  demoInvestorId = demo.investor!.id;
  demoName = demo.name;
  demoPrinted = await printedFor(demoInvestorId);
  // Another investor with paid payouts of their own.
  const other = await t.db.prisma.investor.findFirstOrThrow({
    where: { id: { not: demoInvestorId }, payouts: { some: { status: 'PAID' } } },
    include: { user: true },
  });
  otherInvestorId = other.id;
  otherToken = await t.token(other.user.email);
});
afterAll(() => t.close());

function binary(res: RawResponse, cb: (err: Error | null, body: Buffer) => void) {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
}

const get = (url: string, token: string | null = investorToken) => {
  const req = t.http.get(url).buffer(true).parse(binary);
  return token ? req.set('authorization', `Bearer ${token}`) : req;
};

async function pdfText(body: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(body) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

/** RFC 4180 parse: blocks (sections) of rows, split on empty lines. */
function csvBlocks(text: string): string[][][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else if (ch !== '\r') cell += ch;
  }
  const blocks: string[][][] = [[]];
  for (const r of rows) {
    if (r.length === 1 && r[0] === '') blocks.push([]);
    else blocks[blocks.length - 1].push(r);
  }
  return blocks;
}

const amounts = (cells: string[]) => cells.filter((c) => /^-?\d+\.\d{2}$/.test(c));
const spaces = (s: string) => s.replace(/[\s\u00a0\u202f]+/g, ' ').trim();
/** The rest of the PDF line that starts with `label`, spaces normalised. */
function pdfLine(text: string, label: string): string {
  const line = text.split('\n').find((l) => l.trim().startsWith(label));
  if (!line) throw new Error(`no "${label}" line in:\n${text}`);
  return spaces(line.slice(line.indexOf(label) + label.length));
}
/** Amounts (money: decimal strings) and percentages as the PDF prints them in the given settings. */
const printed = (settings: { language: string; currency: string }) => ({
  money: (v: string) =>
    spaces(new Intl.NumberFormat(settings.language, { style: 'currency', currency: settings.currency }).format(v as Intl.StringNumericLiteral)),
  number: (v: string) =>
    spaces(new Intl.NumberFormat(settings.language, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(v as Intl.StringNumericLiteral)),
});
async function printedFor(investorId: number) {
  const investor = await t.db.prisma.investor.findUniqueOrThrow({ where: { id: investorId }, select: { user: { select: { settings: true } } } });
  return printed(investor.user.settings ?? { language: 'en', currency: 'USD' });
}
/** The CSV text after its UTF-8 byte order mark, which must be there. */
function csvText(body: Buffer): string {
  expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return body.subarray(3).toString('utf8');
}
const fixed = (v: { toString(): string } | null | undefined) => new Decimal((v ?? 0).toString()).toFixed(2);
const range = (from: string, to: string) => ({ gte: new Date(`${from}T00:00:00Z`), lt: new Date(new Date(`${to}T00:00:00Z`).getTime() + DAY_MS) });

function expectAttachment(res: Response, contentType: RegExp, fileName: string) {
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(contentType);
  expect(res.headers['content-disposition']).toBe(`attachment; filename="${fileName}"; filename*=UTF-8''${fileName}`);
}

async function profitTotals(investorId: number, from: string, to: string) {
  const [d, p] = await Promise.all([
    t.db.prisma.distribution.aggregate({
      where: { investorId, status: 'DISTRIBUTED', distributedAt: range(from, to) },
      _sum: { grossAmount: true, fees: true, netAmount: true },
      _count: true,
    }),
    t.db.prisma.payout.groupBy({ by: ['source'], where: { investorId, status: 'PAID', paidAt: range(from, to) }, _sum: { amount: true }, _count: true }),
  ]);
  const bySource = (source: string) => p.find((g) => g.source === source);
  return {
    distributions: [fixed(d._sum.grossAmount), fixed(d._sum.fees), fixed(d._sum.netAmount)],
    distributionCount: d._count,
    profitPaid: [fixed(bySource('DISTRIBUTION')?._sum.amount)],
    capitalReturned: [fixed(bySource('WITHDRAWAL')?._sum.amount)],
    payoutCount: p.reduce((n, g) => n + g._count, 0),
  };
}

/** The paid distributions a profit statement lists, in its order; their cadences are the data's, whatever they are. */
const paidDistributions = (investorId: number, from: string, to: string) =>
  t.db.prisma.distribution.findMany({
    where: { investorId, status: 'DISTRIBUTED', distributedAt: range(from, to) },
    orderBy: [{ distributedAt: 'asc' }, { id: 'asc' }],
    select: { period: true, type: true, cadence: true, grossAmount: true },
  });

/**
 * The distributions table's rows in a profit statement PDF, spaces normalised. The text comes out in
 * drawing order, a wrapped cell whole: a row runs from the line starting with its date to the next row's.
 */
function pdfDistributionRows(text: string, texts: StatementTexts): string[] {
  const lines = text.split('\n');
  const section = lines.slice(lines.indexOf(texts.sections.distributions), lines.indexOf(texts.sections.payouts)).join('\n');
  return section
    .split(/^(?=\d{4}-\d{2}-\d{2} )/m)
    .slice(1)
    .map(spaces);
}

/** A distribution's cells from its period on, as the PDF prints them: the kind of profit next to its cadence, then the gross amount. */
const printedRow = (d: Awaited<ReturnType<typeof paidDistributions>>[number], texts: StatementTexts, money: (v: string) => string) =>
  spaces(`${d.period} ${texts.types[d.type]} ${texts.cadences[d.cadence]} ${money(fixed(d.grossAmount))}`);

describe('GET /api/v1/statements/profit', () => {
  const from = '2000-01-01';

  it('streams a PDF whose totals are the database’s and the CSV’s', async () => {
    const expected = await profitTotals(demoInvestorId, from, today);
    expect(expected.distributionCount).toBeGreaterThan(0);

    const pdf = await get(`/api/v1/statements/profit?from=${from}&to=${today}`);
    expectAttachment(pdf, /^application\/pdf/, `profit-statement-${from}_${today}.pdf`);
    expect((pdf.body as Buffer).subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf.body);
    for (const heading of ['Investment Platform', 'Profit statement', `Investor: ${demoName}`, `Period: ${from} to ${today}`, 'Generated: '])
      expect(text).toContain(heading);
    expect(pdfLine(text, 'Total distributions')).toBe(expected.distributions.map(demoPrinted.money).join(' '));
    expect(pdfLine(text, 'Total profit paid')).toBe(expected.profitPaid.map(demoPrinted.money).join(' '));
    expect(pdfLine(text, 'Total capital returned')).toBe(expected.capitalReturned.map(demoPrinted.money).join(' '));

    const csv = await get(`/api/v1/statements/profit?from=${from}&to=${today}&format=csv`);
    expectAttachment(csv, /^text\/csv/, `profit-statement-${from}_${today}.csv`);
    const [distributions, payouts] = csvBlocks(csvText(csv.body));
    // `Type` stays the kind of profit's name (scripts read it); the cadence has its own column.
    expect(distributions[0]).toEqual(['Date', 'Unit', 'Period', 'Type', 'Cadence', 'Gross amount', 'Fees', 'Net amount', 'Currency']);
    expect(distributions).toHaveLength(expected.distributionCount + 2);
    expect(distributions.at(-1)![0]).toBe('Total distributions');
    expect(amounts(distributions.at(-1)!)).toEqual(expected.distributions);
    expect(payouts[0]).toEqual(['Date paid', 'Reference', 'Unit', 'Source', 'Amount', 'Currency']);
    expect(payouts).toHaveLength(expected.payoutCount + 3);
    expect(amounts(payouts.at(-2)!)).toEqual(expected.profitPaid);
    expect(amounts(payouts.at(-1)!)).toEqual(expected.capitalReturned);
  });

  it('names each distribution’s kind of profit and cadence, in the PDF and the CSV', async () => {
    const paid = await paidDistributions(demoInvestorId, from, today);
    expect(paid.length).toBeGreaterThan(0);
    const en = STATEMENT_TEXTS.en;

    const [distributions] = csvBlocks(csvText((await get(`/api/v1/statements/profit?from=${from}&to=${today}&format=csv`)).body));
    expect(distributions.slice(1, -1).map((r) => r.slice(2, 6))).toEqual(
      paid.map((d) => [d.period, en.types[d.type], en.cadences[d.cadence], fixed(d.grossAmount)]),
    );

    const text = await pdfText((await get(`/api/v1/statements/profit?from=${from}&to=${today}`)).body);
    expect(text).toContain(`${en.columns.kind} ${en.columns.cadence}`);
    const rows = pdfDistributionRows(text, en);
    expect(rows).toHaveLength(paid.length);
    rows.forEach((row, i) => expect(row).toContain(printedRow(paid[i], en, demoPrinted.money)));
  });

  it('defaults to the current calendar year to date', async () => {
    const res = await get('/api/v1/statements/profit?format=csv');
    expectAttachment(res, /^text\/csv/, `profit-statement-${thisYear}-01-01_${today}.csv`);
    const expected = await profitTotals(demoInvestorId, `${thisYear}-01-01`, today);
    const [distributions, payouts] = csvBlocks(csvText(res.body));
    expect(amounts(distributions.at(-1)!)).toEqual(expected.distributions);
    expect(amounts(payouts.at(-2)!)).toEqual(expected.profitPaid);
    expect(amounts(payouts.at(-1)!)).toEqual(expected.capitalReturned);
  });

  it('streams long histories in batches across pages', async () => {
    const unit = await t.db.prisma.unit.findFirstOrThrow();
    await t.db.prisma.payout.createMany({
      data: Array.from({ length: 1203 }, (_, i) => ({
        investorId: otherInvestorId,
        unitId: unit.id,
        source: 'DISTRIBUTION' as const,
        amount: `${i}.${String(i % 100).padStart(2, '0')}`,
        status: 'PAID' as const,
        reference: `PO-BULK-${i}`,
        paidAt: new Date(`${today}T00:00:00Z`),
      })),
    });
    const expected = await profitTotals(otherInvestorId, from, today);
    const csv = await get(`/api/v1/statements/profit?from=${from}&format=csv`, otherToken);
    const [, payouts] = csvBlocks(csvText(csv.body));
    expect(payouts).toHaveLength(expected.payoutCount + 3);
    expect(new Set(payouts.slice(1, -2).map((r) => r[1])).size).toBe(expected.payoutCount);
    expect(amounts(payouts.at(-2)!)).toEqual(expected.profitPaid);
    const pdf = await get(`/api/v1/statements/profit?from=${from}`, otherToken);
    const text = await pdfText(pdf.body);
    const { money } = await printedFor(otherInvestorId);
    expect(pdfLine(text, 'Total profit paid')).toBe(expected.profitPaid.map(money).join(' '));
    expect(Number(/-- 1 of (\d+) --/.exec(text)![1])).toBeGreaterThan(20);
  });

  it.each([
    ['format=xml', 'format', 'The selected format is invalid.'],
    ['from=2026-02-01&to=2026-01-31', 'to', 'The to field must be a date after or equal to from.'],
    ['from=yesterday', 'from', 'The from field must be a valid date (YYYY-MM-DD).'],
    ['to=2026-02-30', 'to', 'The to field must be a valid date (YYYY-MM-DD).'],
  ])('answers 422 for %s', async (query, field, message) => {
    const res = await get(`/api/v1/statements/profit?${query}`);
    expect(res.status).toBe(422);
    const body = JSON.parse((res.body as Buffer).toString('utf8'));
    expect(body.errors[field]).toEqual([message]);
  });
});

describe('GET /api/v1/statements/tax', () => {
  it('totals income per unit and withdrawals of the year as the database does, in PDF and CSV alike', async () => {
    const latest = await t.db.prisma.distribution.findFirstOrThrow({
      where: { investorId: demoInvestorId, status: 'DISTRIBUTED' },
      orderBy: { distributedAt: 'desc' },
    });
    const year = latest.distributedAt!.getUTCFullYear();
    const inYear = range(`${year}-01-01`, `${year}-12-31`);
    const [income, perUnit, withdrawals] = await Promise.all([
      t.db.prisma.distribution.aggregate({
        where: { investorId: demoInvestorId, status: 'DISTRIBUTED', distributedAt: inYear },
        _sum: { grossAmount: true, fees: true, netAmount: true },
      }),
      t.db.prisma.distribution.groupBy({
        by: ['unitId'],
        where: { investorId: demoInvestorId, status: 'DISTRIBUTED', distributedAt: inYear },
        _sum: { netAmount: true },
        orderBy: { unitId: 'asc' },
      }),
      t.db.prisma.withdrawalRequest.aggregate({
        where: { investorId: demoInvestorId, status: 'COMPLETED', completedAt: inYear },
        _sum: { investedAmount: true },
        _count: true,
      }),
    ]);
    const paid = await t.db.prisma.payout.aggregate({
      where: { withdrawalRequest: { investorId: demoInvestorId, status: 'COMPLETED', completedAt: inYear } },
      _sum: { amount: true },
    });
    const expectedIncome = [fixed(income._sum.grossAmount), fixed(income._sum.fees), fixed(income._sum.netAmount)];
    const expectedWithdrawals = [fixed(withdrawals._sum.investedAmount), fixed(paid._sum.amount)];

    const csv = await get(`/api/v1/statements/tax?year=${year}&format=CSV`);
    expectAttachment(csv, /^text\/csv/, `tax-statement-${year}.csv`);
    const [incomeRows, withdrawalRows] = csvBlocks(csvText(csv.body));
    expect(incomeRows[0]).toEqual(['Unit code', 'Unit', 'Gross amount', 'Fees', 'Net amount', 'Currency']);
    expect(incomeRows.slice(1, -1).map((r) => r[4])).toEqual(perUnit.map((u) => fixed(u._sum.netAmount)));
    expect(amounts(incomeRows.at(-1)!)).toEqual(expectedIncome);
    expect(withdrawalRows).toHaveLength(withdrawals._count + 2);
    expect(amounts(withdrawalRows.at(-1)!)).toEqual(expectedWithdrawals);

    const pdf = await get(`/api/v1/statements/tax?year=${year}`);
    expectAttachment(pdf, /^application\/pdf/, `tax-statement-${year}.pdf`);
    const text = await pdfText(pdf.body);
    expect(text).toContain(`Tax statement ${year}`);
    expect(pdfLine(text, 'Total income')).toBe(expectedIncome.map(demoPrinted.money).join(' '));
    expect(pdfLine(text, 'Total withdrawals')).toBe(expectedWithdrawals.map(demoPrinted.money).join(' '));
  });

  it('defaults to last year', async () => {
    const res = await get('/api/v1/statements/tax?format=csv');
    expectAttachment(res, /^text\/csv/, `tax-statement-${thisYear - 1}.csv`);
  });

  it.each([
    ['year=1999', `The year field must be between 2000 and ${thisYear}.`],
    [`year=${thisYear + 1}`, `The year field must be between 2000 and ${thisYear}.`],
    ['year=abc', 'The year field must be an integer.'],
  ])('answers 422 for %s', async (query, message) => {
    const res = await get(`/api/v1/statements/tax?${query}`);
    expect(res.status).toBe(422);
    expect(JSON.parse((res.body as Buffer).toString('utf8')).errors.year).toEqual([message]);
  });
});

describe('GET /api/v1/statements/portfolio-summary', () => {
  it('lists the holdings with totals equal to the database’s and the portfolio’s valuation', async () => {
    const invested = await t.db.prisma.holding.aggregate({
      where: { investorId: demoInvestorId, ownershipPercentage: { gt: 0 } },
      _sum: { investedAmount: true },
      _count: true,
    });
    const gq = await t.gql<{ portfolio: { totalInvested: string; currentValue: string; returnAmount: string; returnPercentage: string } }>(
      '{ portfolio { totalInvested currentValue returnAmount returnPercentage } }',
      {},
      investorToken,
    );
    const p = gq.data!.portfolio;
    expect(p.totalInvested).toBe(fixed(invested._sum.investedAmount));
    const expected = [p.totalInvested, p.currentValue, p.returnAmount, new Decimal(p.returnPercentage).toFixed(2)];

    const csv = await get('/api/v1/statements/portfolio-summary?format=csv');
    expectAttachment(csv, /^text\/csv/, `portfolio-summary-${today}.csv`);
    const [rows] = csvBlocks(csvText(csv.body));
    expect(rows).toHaveLength(invested._count + 2);
    expect(amounts(rows.at(-1)!)).toEqual(expected);

    const pdf = await get('/api/v1/statements/portfolio-summary');
    expectAttachment(pdf, /^application\/pdf/, `portfolio-summary-${today}.pdf`);
    const text = await pdfText(pdf.body);
    expect(text).toContain('Portfolio summary');
    expect(text).toContain(`Period: As of ${today}`);
    expect(pdfLine(text, 'Total')).toBe([...expected.slice(0, 3).map(demoPrinted.money), demoPrinted.number(expected[3])].join(' '));
  });

  it('answers 422 for an unknown format', async () => {
    expect((await get('/api/v1/statements/portfolio-summary?format=docx')).status).toBe(422);
  });
});

describe('statement access', () => {
  const paths = ['/api/v1/statements/profit', '/api/v1/statements/tax', '/api/v1/statements/portfolio-summary'];

  it.each(paths)('%s: 401 without a token, 403 for staff', async (path) => {
    expect((await get(path, null)).status).toBe(401);
    expect((await get(path, await t.token(DEMO_EMAILS.admin))).status).toBe(403);
    expect((await get(path, await t.token(DEMO_EMAILS.analyst))).status).toBe(403);
  });

  it('gives each investor their own figures; an investor_id parameter changes nothing', async () => {
    const own = await profitTotals(otherInvestorId, '2000-01-01', today);
    const res = await get(`/api/v1/statements/profit?from=2000-01-01&format=csv&investor_id=${demoInvestorId}`, otherToken);
    const [distributions, payouts] = csvBlocks(csvText(res.body));
    expect(amounts(distributions.at(-1)!)).toEqual(own.distributions);
    expect(amounts(payouts.at(-2)!)).toEqual(own.profitPaid);
    expect(amounts(payouts.at(-1)!)).toEqual(own.capitalReturned);
  });

  it('GraphQL answers a signed link that streams the asker’s file, and no one else’s', async () => {
    const q = 'query($f: StatementFormat) { profitStatement(from: "2000-01-01", format: $f) { fileName contentType url expiresAt } }';
    const res = await t.gql<{ profitStatement: { fileName: string; contentType: string; url: string; expiresAt: string } }>(q, { f: 'CSV' }, investorToken);
    const link = res.data!.profitStatement;
    expect(link.fileName).toBe(`profit-statement-2000-01-01_${today}.csv`);
    expect(link.contentType).toMatch(/^text\/csv/);
    expect(new Date(link.expiresAt).getTime()).toBeGreaterThan(Date.now());

    const file = await get(link.url, null);
    expectAttachment(file, /^text\/csv/, link.fileName);
    const [distributions] = csvBlocks(csvText(file.body));
    expect(amounts(distributions.at(-1)!)).toEqual((await profitTotals(demoInvestorId, '2000-01-01', today)).distributions);

    // The token is encrypted and names a session, not a user: nothing in it can be pointed at another investor.
    const token = link.url.split('/').pop()!;
    const tampered = token.replace(
      /\.([^.]+)\.([^.]+)$/,
      (_m, cipher: string, tag: string) => `.${cipher.startsWith('A') ? 'B' : 'A'}${cipher.slice(1)}.${tag}`,
    );
    expect((await get(`/api/v1/downloads/${tampered}`, null)).status).toBe(404);
  });

  it('GraphQL: validation, unauthenticated and staff errors', async () => {
    const tax = await t.gql('{ taxStatement(year: 1999) { url } }', {}, investorToken);
    expect(tax.errors![0].extensions!.code).toBe('BAD_USER_INPUT');
    const range = await t.gql('{ profitStatement(from: "2026-03-01", to: "2026-02-01") { url } }', {}, investorToken);
    expect(range.errors![0].extensions!.code).toBe('BAD_USER_INPUT');
    const guest = await t.gql('{ portfolioSummaryStatement { url } }');
    expect(guest.errors![0].extensions!.code).toBe('UNAUTHENTICATED');
    const staff = await t.gql('{ portfolioSummaryStatement { url } }', {}, await t.token(DEMO_EMAILS.admin));
    expect(staff.errors![0].extensions!.code).toBe('FORBIDDEN');
  });
});

describe('statements investors accept', () => {
  const NAME = 'Łukasz Żółć Müller 王';
  const LONG_UNIT = 'Harbour View Residences, Tower B "North" – Penthouse Collection with Roof Terrace, Floor 42';
  const FORMULA_UNIT = '=HYPERLINK("x")';
  let token: string;
  let investorId: number;

  beforeAll(async () => {
    // An investor of their own (name, settings, extra payouts), with a paid capital withdrawal.
    const investor = await t.db.prisma.investor.findFirstOrThrow({
      where: { id: { notIn: [demoInvestorId, otherInvestorId] }, payouts: { some: { status: 'PAID', source: 'WITHDRAWAL' } } },
      include: { user: true },
    });
    investorId = investor.id;
    token = await t.token(investor.user.email);
    await t.db.prisma.user.update({ where: { id: investor.userId }, data: { name: NAME } });
    await t.db.prisma.userSettings.upsert({
      where: { userId: investor.userId },
      create: { userId: investor.userId, language: 'de', currency: 'EUR' },
      update: { language: 'de', currency: 'EUR' },
    });
    const [long, formula] = await t.db.prisma.unit.findMany({ take: 2, orderBy: { id: 'desc' } });
    await t.db.prisma.unit.update({ where: { id: long.id }, data: { name: LONG_UNIT } });
    await t.db.prisma.unit.update({ where: { id: formula.id }, data: { name: FORMULA_UNIT } });
    // Created later, paid earlier: ids and paid dates disagree.
    await t.db.prisma.payout.create({
      data: {
        investorId,
        unitId: long.id,
        source: 'DISTRIBUTION',
        amount: '1234567.89',
        status: 'PAID',
        reference: 'PO-LATE-ID',
        paidAt: new Date('2001-02-03T10:00:00Z'),
      },
    });
    await t.db.prisma.payout.create({
      data: {
        investorId,
        unitId: formula.id,
        source: 'DISTRIBUTION',
        amount: '0.01',
        status: 'PAID',
        reference: 'PO-LATER-ID',
        paidAt: new Date('2001-01-02T10:00:00Z'),
      },
    });
  });

  it('PDF: the name intact, amounts in the investor’s currency and format, separate totals, paid-date order, page x of y and footer', async () => {
    const [bySource, disclaimer] = await Promise.all([
      t.db.prisma.payout.groupBy({ by: ['source'], where: { investorId, status: 'PAID', paidAt: range('2000-01-01', today) }, _sum: { amount: true } }),
      t.db.prisma.legalText.findUniqueOrThrow({ where: { kind: 'INVESTMENT_DISCLAIMER' } }),
    ]);
    const sum = (source: string) => fixed(bySource.find((g) => g.source === source)?._sum.amount);
    const pdf = await get(`/api/v1/statements/profit?from=2000-01-01&to=${today}`, token);
    expect(pdf.status).toBe(200);
    const text = await pdfText(pdf.body);
    const flat = spaces(text);

    const de = STATEMENT_TEXTS.de;
    expect(text).toContain(`Anleger: ${NAME}`);
    // German format from the settings: dot thousands, comma decimals, the euro sign after.
    expect(flat).toContain('1.234.567,89 €');
    const { money } = printed({ language: 'de', currency: 'EUR' });
    expect(pdfLine(text, de.totals.profitPaid)).toBe(money(sum('DISTRIBUTION')));
    expect(pdfLine(text, de.totals.capitalReturned)).toBe(money(sum('WITHDRAWAL')));
    expect(sum('WITHDRAWAL')).not.toBe('0.00');

    expect(flat.indexOf('PO-LATER-ID')).toBeGreaterThan(-1);
    expect(flat.indexOf('PO-LATER-ID')).toBeLessThan(flat.indexOf('PO-LATE-ID'));
    expect(flat).toContain(LONG_UNIT); // wrapped over lines, not cut

    const pages = Number(/-- 1 of (\d+) --/.exec(text)![1]);
    for (let page = 1; page <= pages; page++) expect(text).toContain(`Seite ${page} von ${pages}`);
    expect(text.split(`Konto: Anleger Nr. ${investorId}, ${NAME}`).length - 1).toBe(pages);
    // The whole disclaimer on every page, not cut mid-sentence.
    expect(flat.split(spaces(disclaimer.content)).length - 1).toBe(pages);
  });

  it('CSV: BOM, RFC 4180 quoting, formula cells neutralised, payouts in paid-date order', async () => {
    const res = await get('/api/v1/statements/profit?from=2000-01-01&format=csv', token);
    const raw = csvText(res.body);
    expect(raw).toContain(`"${LONG_UNIT.replace(/"/g, '""')}"`);
    expect(raw).toContain(`"'=HYPERLINK(""x"")"`);
    const [, payouts] = csvBlocks(raw);
    const units = payouts.map((r) => r[2]);
    expect(units).toContain(LONG_UNIT);
    expect(units).toContain(`'${FORMULA_UNIT}`);
    const dates = payouts.slice(1, -2).map((r) => r[0]);
    expect(dates).toEqual([...dates].sort());
    expect(payouts.findIndex((r) => r[1] === 'PO-LATER-ID')).toBeLessThan(payouts.findIndex((r) => r[1] === 'PO-LATE-ID'));
    expect(payouts.find((r) => r[1] === 'PO-LATE-ID')![4]).toBe('1234567.89'); // a plain number, whatever the settings
    // English headers whatever the settings (a format for spreadsheets and scripts), the currency named on every row.
    expect(payouts[0]).toEqual(['Date paid', 'Reference', 'Unit', 'Source', 'Amount', 'Currency']);
    expect(new Set(payouts.slice(1).map((r) => r[5]))).toEqual(new Set(['EUR']));
  });
});

describe('statements in every language they are offered in', () => {
  /** A currency and a time zone per language, so each PDF shows its own symbol and local time. */
  const SETTINGS: Record<keyof typeof STATEMENT_TEXTS, { currency: string; timezone: string }> = {
    en: { currency: 'GBP', timezone: 'Europe/London' },
    cs: { currency: 'CZK', timezone: 'Europe/Prague' },
    da: { currency: 'DKK', timezone: 'Europe/Copenhagen' },
    de: { currency: 'CHF', timezone: 'Europe/Zurich' },
    es: { currency: 'EUR', timezone: 'Europe/Madrid' },
    fr: { currency: 'EUR', timezone: 'Europe/Paris' },
    it: { currency: 'EUR', timezone: 'Europe/Rome' },
    nb: { currency: 'NOK', timezone: 'Europe/Oslo' },
    nl: { currency: 'EUR', timezone: 'Europe/Amsterdam' },
    pl: { currency: 'PLN', timezone: 'Europe/Warsaw' },
    pt: { currency: 'EUR', timezone: 'America/Sao_Paulo' },
    sv: { currency: 'SEK', timezone: 'Asia/Tokyo' },
  };
  const en = STATEMENT_TEXTS.en;
  let investor: { id: number; userId: number; name: string; token: string };
  let taxYear: number;

  beforeAll(async () => {
    const row = await t.db.prisma.investor.findFirstOrThrow({
      where: {
        id: { notIn: [demoInvestorId, otherInvestorId] },
        holdings: { some: { ownershipPercentage: { gt: 0 } } },
        distributions: { some: { status: 'DISTRIBUTED' } },
      },
      include: { user: true },
      orderBy: { id: 'desc' },
    });
    investor = { id: row.id, userId: row.userId, name: row.user.name, token: await t.token(row.user.email) };
    const latest = await t.db.prisma.distribution.findFirstOrThrow({
      where: { investorId: row.id, status: 'DISTRIBUTED' },
      orderBy: { distributedAt: 'desc' },
    });
    taxYear = latest.distributedAt!.getUTCFullYear();
  });

  const setLanguage = (language: string, currency: string, timezone: string) =>
    t.db.prisma.userSettings.upsert({
      where: { userId: investor.userId },
      create: { userId: investor.userId, language, currency, timezone },
      update: { language, currency, timezone },
    });

  /** "Generated: …" as the investor's language and zone print a moment (one of the minutes the request spanned). */
  const generatedLines = (language: string, timeZone: string, moments: Date[]) => {
    const f = new Intl.DateTimeFormat(language, {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      timeZoneName: 'short',
    });
    return moments.map((m) => spaces(`${f.format(m)} (${timeZone})`));
  };

  /** English phrases (titles, sections, totals) the language words differently: none may be left in its PDF. */
  const englishLeftovers = (texts: StatementTexts) => {
    const own = new Set([texts.profitTitle, texts.portfolioTitle, texts.taxTitle(taxYear), ...Object.values(texts.sections), ...Object.values(texts.totals)]);
    return [en.profitTitle, en.portfolioTitle, en.taxTitle(taxYear), ...Object.values(en.sections), ...Object.values(en.totals)].filter(
      (p) => p.includes(' ') && !own.has(p),
    );
  };

  it.each(Object.keys(STATEMENT_TEXTS) as Array<keyof typeof STATEMENT_TEXTS>)(
    '%s: profit, tax and portfolio summary PDFs speak it, in its format, currency and time zone',
    async (language) => {
      const texts = STATEMENT_TEXTS[language];
      const { currency, timezone } = SETTINGS[language];
      await setLanguage(language, currency, timezone);
      const symbol = new Intl.NumberFormat(language, { style: 'currency', currency }).formatToParts(0).find((p) => p.type === 'currency')!.value;
      const statements = [
        {
          url: `/api/v1/statements/profit?from=2000-01-01&to=${today}`,
          title: texts.profitTitle,
          sections: [texts.sections.distributions, texts.sections.payouts],
          totals: [texts.totals.distributions, texts.totals.profitPaid, texts.totals.capitalReturned],
          period: texts.periodRange('2000-01-01', today),
        },
        {
          url: `/api/v1/statements/tax?year=${taxYear}`,
          title: texts.taxTitle(taxYear),
          sections: [texts.sections.income, texts.sections.withdrawals],
          totals: [texts.totals.income, texts.totals.withdrawals],
          period: texts.periodRange(`${taxYear}-01-01`, `${taxYear}-12-31`),
        },
        {
          url: '/api/v1/statements/portfolio-summary',
          title: texts.portfolioTitle,
          sections: [texts.sections.holdings],
          totals: [texts.totals.total],
          period: texts.asOf(today),
        },
      ];
      for (const s of statements) {
        const before = new Date();
        const res = await get(s.url, investor.token);
        const after = new Date();
        expect(res.status).toBe(200);
        const text = await pdfText(res.body);
        const flat = spaces(text);
        for (const phrase of [
          s.title,
          ...s.sections,
          `${texts.investor}: ${investor.name}`,
          `${texts.period}: ${s.period}`,
          `${texts.currency}: ${currency}`,
          `${texts.account}: ${texts.accountId(investor.id)}, ${investor.name}`,
        ])
          expect(flat).toContain(spaces(phrase));
        for (const label of s.totals) expect(pdfLine(text, label)).toContain(symbol);
        expect(generatedLines(language, timezone, [before, after])).toContain(pdfLine(text, `${texts.generated}:`));
        const pages = Number(/-- 1 of (\d+) --/.exec(text)![1]);
        for (let page = 1; page <= pages; page++) expect(flat).toContain(spaces(texts.page(page, pages)));
        for (const phrase of englishLeftovers(texts)) expect(flat).not.toContain(phrase);
      }
      // Each paid distribution with its kind of profit and cadence in the language's words.
      const paid = await paidDistributions(investor.id, '2000-01-01', today);
      expect(paid.length).toBeGreaterThan(0);
      const rows = pdfDistributionRows(await pdfText((await get(statements[0].url, investor.token)).body), texts);
      expect(rows).toHaveLength(paid.length);
      const { money } = printed({ language, currency });
      rows.forEach((row, i) => expect(row).toContain(printedRow(paid[i], texts, money)));
    },
  );

  it('prints the totals in the investor’s format and currency (zł for PLN in Polish), and the CSV names the currency', async () => {
    await setLanguage('pl', 'PLN', 'Europe/Warsaw');
    const expected = await profitTotals(investor.id, '2000-01-01', today);
    const { money } = printed({ language: 'pl', currency: 'PLN' });
    const text = await pdfText((await get(`/api/v1/statements/profit?from=2000-01-01&to=${today}`, investor.token)).body);
    expect(pdfLine(text, STATEMENT_TEXTS.pl.totals.distributions)).toBe(expected.distributions.map(money).join(' '));
    expect(pdfLine(text, STATEMENT_TEXTS.pl.totals.distributions)).toMatch(/zł$/);
    expect(text).not.toContain('$');
    const [distributions] = csvBlocks(csvText((await get(`/api/v1/statements/profit?from=2000-01-01&to=${today}&format=csv`, investor.token)).body));
    expect(distributions[0].at(-1)).toBe('Currency');
    expect(new Set(distributions.slice(1).map((r) => r.at(-1)))).toEqual(new Set(['PLN']));
  });

  it('a language statements are not written in gets English throughout, numbers included', async () => {
    await setLanguage('fi', 'EUR', 'Europe/Helsinki');
    const text = await pdfText((await get('/api/v1/statements/portfolio-summary', investor.token)).body);
    expect(text).toContain(en.portfolioTitle);
    expect(pdfLine(text, `${en.currency}:`)).toBe('EUR');
    const { money } = printed({ language: 'en', currency: 'EUR' });
    expect(pdfLine(text, en.totals.total).split(' ')[0]).toBe(
      money(
        pdfLine(text, en.totals.total)
          .split(' ')[0]
          .replace(/[^\d.-]/g, ''),
      ),
    );
  });

  it('an empty portfolio says so in the investor’s language, above its zero total', async () => {
    const empty = await t.db.prisma.investor.findFirstOrThrow({ where: { holdings: { none: { ownershipPercentage: { gt: 0 } } } }, include: { user: true } });
    await t.db.prisma.userSettings.upsert({
      where: { userId: empty.userId },
      create: { userId: empty.userId, language: 'pl', currency: 'PLN' },
      update: { language: 'pl', currency: 'PLN' },
    });
    const text = await pdfText((await get('/api/v1/statements/portfolio-summary', await t.token(empty.user.email))).body);
    const lines = text.split('\n').map(spaces);
    const none = lines.indexOf(STATEMENT_TEXTS.pl.noHoldings);
    expect(none).toBeGreaterThan(lines.findIndex((l) => l.startsWith(STATEMENT_TEXTS.pl.columns.unitCode)));
    const zero = printed({ language: 'pl', currency: 'PLN' }).money('0');
    expect(lines[none + 1]).toBe(`${STATEMENT_TEXTS.pl.totals.total} ${zero} ${zero} ${zero} 0,00`);
  });
});
