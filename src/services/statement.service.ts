import type { Readable } from 'node:stream';
import type { AuthUser } from '../domain/auth-user';
import type { Prisma } from '../db/database';
import { NotFoundError, ValidationError } from '../domain/errors';
import { present } from '../platform/invariant';
import { DistributionStatus, LegalTextKind, PayoutSource, PayoutStatus, WithdrawalRequestStatus } from '../generated/prisma/enums';
import { requireInvestor } from './access';
import type { DownloadFile, DownloadLink, DownloadService } from './download.service';
import { dec, type Decimal, type DecimalInput } from '../domain/money';
import { returnOn, type PortfolioService } from './portfolio.service';
import { csvStream, type Cell, type Column, type Section, type Statement } from './statements/render';
import { statementLanguage, STATEMENT_TEXTS, type StatementTexts } from './statements/texts';

export enum StatementFormat {
  PDF = 'PDF',
  CSV = 'CSV',
}

const PLATFORM_NAME = 'Investment Platform';
const FIRST_TAX_YEAR = 2000;
/** Rows read per query while streaming (keyset on date, id). */
const BATCH = 500;
const DAY_MS = 86_400_000;
/** A user without a settings row has the schema's defaults. */
const DEFAULT_SETTINGS = { language: 'en', currency: 'USD', timezone: 'UTC' };

/** pdfkit and its fonts are loaded with the first PDF, not at start-up: most processes never render one. */
function pdfStream(statement: Statement): Readable {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('./statements/pdf') as typeof import('./statements/pdf')).pdfStream(statement);
}

const FORMATS = {
  [StatementFormat.PDF]: { ext: 'pdf', contentType: 'application/pdf', render: pdfStream },
  [StatementFormat.CSV]: { ext: 'csv', contentType: 'text/csv; charset=utf-8', render: csvStream },
} as const;

const KIND = { profit: 'statement.profit', tax: 'statement.tax', portfolio: 'statement.portfolio-summary' } as const;

/** A statement's title, period and tables, in the words of one language. */
interface Content {
  title: string;
  period: string;
  sections: Section[];
}

interface Params {
  format: StatementFormat;
  from?: string;
  to?: string;
  year?: number;
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const percent = (v: DecimalInput) => {
  const d = dec(v);
  return d.toFixed(Math.max(2, d.decimalPlaces()));
};

/** Half-open UTC range covering the inclusive days `from`..`to`. */
const days = (from: string, to: string) => ({ gte: new Date(`${from}T00:00:00Z`), lt: new Date(new Date(`${to}T00:00:00Z`).getTime() + DAY_MS) });

/** The page after the last row read, in (date, id) order: a Prisma `where` part and `orderBy`. */
interface Page {
  after: object;
  orderBy: object[];
}

/**
 * Streams rows in (`key`, id) order, BATCH at a time (keyset pagination), so a long history is never
 * loaded whole. `key` is a date column the query filters to non-null.
 */
async function* keyset<K extends string, T extends { id: number } & { [k in K]: Date | null }>(
  key: K,
  read: (page: Page, take: number) => Promise<T[]>,
): AsyncGenerator<T> {
  const orderBy = [{ [key]: 'asc' }, { id: 'asc' }];
  for (let after = {}; ;) {
    const rows = await read({ after, orderBy }, BATCH);
    yield* rows;
    if (rows.length < BATCH) return;
    const last = rows[rows.length - 1];
    after = { OR: [{ [key]: { gt: last[key] } }, { [key]: last[key], id: { gt: last.id } }] };
  }
}

/**
 * The profit statement's distributions: one row per paid distribution. The widths fit the longest
 * word of every language's headers and labels (pdfkit breaks a wider word mid-word); the unit's
 * name takes what is left and wraps.
 */
export const distributionColumns = (t: StatementTexts): Column[] => [
  { header: t.columns.date, width: 54 },
  { header: t.columns.unit, width: 84 },
  { header: t.columns.period, width: 42 },
  // The CSV keeps the header it had before the cadence got a column: scripts read it by name.
  { header: t.columns.kind, csvHeader: 'Type', width: 74 },
  { header: t.columns.cadence, width: 68 },
  { header: t.columns.gross, width: 66, kind: 'money', total: 'sum' },
  { header: t.columns.fees, width: 63, kind: 'money', total: 'sum' },
  { header: t.columns.net, width: 64, kind: 'money', total: 'sum' },
];

async function* map<T>(rows: AsyncIterable<T>, cells: (row: T) => Cell[]): AsyncGenerator<Cell[]> {
  for await (const row of rows) yield cells(row);
}

async function* list<T>(rows: T[], cells: (row: T) => Cell[]): AsyncGenerator<Cell[]> {
  for (const row of rows) yield cells(row);
}

/**
 * Investor statements (profit, tax, portfolio summary) as PDF or CSV downloads. The GraphQL fields
 * validate and answer a signed link; the producers registered here stream the file as the investor
 * who asked (their own data only, scope applied again when the link is opened).
 */
export class StatementService {
  constructor(
    private readonly prisma: Prisma,
    private readonly downloads: DownloadService,
    private readonly portfolio: PortfolioService,
  ) {
    downloads.register(KIND.profit, (user, p) => this.profit(user, p as unknown as Params));
    downloads.register(KIND.tax, (user, p) => this.tax(user, p as unknown as Params));
    downloads.register(KIND.portfolio, (user, p) => this.portfolioSummary(user, p as unknown as Params));
  }

  /** Inclusive dates; default: the calendar year of `to` (default today, UTC) up to `to`. */
  profitLink(
    user: AuthUser,
    from: Date | null | undefined,
    to: Date | null | undefined,
    format: StatementFormat | null | undefined,
    now = new Date(),
  ): DownloadLink {
    requireInvestor(user);
    const end = to ?? new Date(`${isoDay(now)}T00:00:00Z`);
    const start = from ?? new Date(Date.UTC(end.getUTCFullYear(), 0, 1));
    if (start > end) throw ValidationError.field('to', 'The to field must be a date after or equal to from.');
    const params: Params = { from: isoDay(start), to: isoDay(end), format: format ?? StatementFormat.PDF };
    return this.link(user, KIND.profit, params, `profit-statement-${params.from}_${params.to}`);
  }

  /** A tax year from 2000 to the current one; default: last year. */
  taxLink(user: AuthUser, year: number | null | undefined, format: StatementFormat | null | undefined, now = new Date()): DownloadLink {
    requireInvestor(user);
    const current = now.getUTCFullYear();
    const y = year ?? current - 1;
    if (y < FIRST_TAX_YEAR || y > current) throw ValidationError.field('year', `The year field must be between ${FIRST_TAX_YEAR} and ${current}.`);
    return this.link(user, KIND.tax, { year: y, format: format ?? StatementFormat.PDF }, `tax-statement-${y}`);
  }

  portfolioSummaryLink(user: AuthUser, format: StatementFormat | null | undefined, now = new Date()): DownloadLink {
    requireInvestor(user);
    return this.link(user, KIND.portfolio, { format: format ?? StatementFormat.PDF }, `portfolio-summary-${isoDay(now)}`);
  }

  private link(user: AuthUser, kind: string, params: Params, baseName: string): DownloadLink {
    const { ext, contentType } = FORMATS[params.format];
    return this.downloads.link(user, kind, { ...params }, `${baseName}.${ext}`, contentType);
  }

  /** DISTRIBUTED distributions by distributedAt and PAID payouts by paidAt within the dates. */
  private async profit(user: AuthUser, p: Params): Promise<DownloadFile> {
    const investorId = requireInvestor(user);
    const range = days(present(p.from, 'from'), present(p.to, 'to'));
    const distributions = keyset('distributedAt', (page, take) =>
      this.prisma.distribution.findMany({
        where: { investorId, status: DistributionStatus.DISTRIBUTED, distributedAt: range, ...page.after },
        select: {
          id: true,
          distributedAt: true,
          period: true,
          type: true,
          cadence: true,
          grossAmount: true,
          fees: true,
          netAmount: true,
          unit: { select: { name: true } },
        },
        orderBy: page.orderBy,
        take,
      }),
    );
    const payouts = keyset('paidAt', (page, take) =>
      this.prisma.payout.findMany({
        where: { investorId, status: PayoutStatus.PAID, paidAt: range, ...page.after },
        select: { id: true, paidAt: true, reference: true, source: true, amount: true, unit: { select: { name: true } } },
        orderBy: page.orderBy,
        take,
      }),
    );
    return this.file(user, p, `profit-statement-${p.from}_${p.to}`, (t) => ({
      title: t.profitTitle,
      period: t.periodRange(present(p.from, 'from'), present(p.to, 'to')),
      sections: [
        {
          title: t.sections.distributions,
          totals: [{ label: t.totals.distributions }],
          empty: t.noEntries,
          columns: distributionColumns(t),
          rows: map(distributions, (d) => [
            isoDay(present(d.distributedAt, 'distributedAt')),
            d.unit.name,
            d.period,
            t.types[d.type],
            t.cadences[d.cadence],
            dec(d.grossAmount),
            dec(d.fees),
            dec(d.netAmount),
          ]),
        },
        {
          title: t.sections.payouts,
          // Profit and capital apart: a withdrawal's payout returns invested capital, it is not income.
          totals: [
            { label: t.totals.profitPaid, when: (c) => c[3] === t.sources[PayoutSource.DISTRIBUTION] },
            { label: t.totals.capitalReturned, when: (c) => c[3] === t.sources[PayoutSource.WITHDRAWAL] },
          ],
          empty: t.noEntries,
          columns: [
            { header: t.columns.datePaid, width: 56 },
            { header: t.columns.reference, width: 100 },
            { header: t.columns.unit, width: 194 },
            { header: t.columns.source, width: 75 },
            { header: t.columns.amount, width: 90, kind: 'money', total: 'sum' },
          ],
          rows: map(payouts, (po) => [isoDay(present(po.paidAt, 'paidAt')), po.reference, po.unit.name, t.sources[po.source], dec(po.amount)]),
        },
      ],
    }));
  }

  /** Per unit: DISTRIBUTED income paid in the year; and the withdrawals COMPLETED in it. */
  private async tax(user: AuthUser, p: Params): Promise<DownloadFile> {
    const investorId = requireInvestor(user);
    const y = present(p.year, 'year');
    const year = { gte: new Date(Date.UTC(y, 0, 1)), lt: new Date(Date.UTC(y + 1, 0, 1)) };
    const income = await this.prisma.distribution.groupBy({
      by: ['unitId'],
      where: { investorId, status: DistributionStatus.DISTRIBUTED, distributedAt: year },
      _sum: { grossAmount: true, fees: true, netAmount: true },
      orderBy: { unitId: 'asc' },
    });
    const units = new Map(
      (await this.prisma.unit.findMany({ where: { id: { in: income.map((i) => i.unitId) } }, select: { id: true, code: true, name: true } })).map((u) => [
        u.id,
        u,
      ]),
    );
    const withdrawals = keyset('completedAt', (page, take) =>
      this.prisma.withdrawalRequest.findMany({
        where: { investorId, status: WithdrawalRequestStatus.COMPLETED, completedAt: year, ...page.after },
        select: {
          id: true,
          completedAt: true,
          ownershipPercentage: true,
          investedAmount: true,
          unit: { select: { name: true } },
          payout: { select: { amount: true } },
        },
        orderBy: page.orderBy,
        take,
      }),
    );
    return this.file(user, p, `tax-statement-${p.year}`, (t) => ({
      title: t.taxTitle(y),
      period: t.periodRange(`${y}-01-01`, `${y}-12-31`),
      sections: [
        {
          title: t.sections.income,
          totals: [{ label: t.totals.income }],
          empty: t.noEntries,
          columns: [
            { header: t.columns.unitCode, width: 70 },
            { header: t.columns.unit, width: 180 },
            { header: t.columns.gross, width: 88, kind: 'money', total: 'sum' },
            { header: t.columns.fees, width: 88, kind: 'money', total: 'sum' },
            { header: t.columns.net, width: 89, kind: 'money', total: 'sum' },
          ],
          rows: list(income, (i) => [
            present(units.get(i.unitId), 'unit').code,
            present(units.get(i.unitId), 'unit').name,
            dec(i._sum.grossAmount ?? 0),
            dec(i._sum.fees ?? 0),
            dec(i._sum.netAmount ?? 0),
          ]),
        },
        {
          title: t.sections.withdrawals,
          totals: [{ label: t.totals.withdrawals }],
          empty: t.noEntries,
          columns: [
            { header: t.columns.dateCompleted, width: 75 },
            { header: t.columns.unit, width: 175 },
            { header: t.columns.ownership, width: 85, kind: 'number' },
            { header: t.columns.investedAmount, width: 90, kind: 'money', total: 'sum' },
            { header: t.columns.amountPaid, width: 90, kind: 'money', total: 'sum' },
          ],
          rows: map(withdrawals, (w) => [
            isoDay(present(w.completedAt, 'completedAt')),
            w.unit.name,
            percent(w.ownershipPercentage),
            dec(w.investedAmount),
            dec(w.payout?.amount ?? 0),
          ]),
        },
      ],
    }));
  }

  /** Current holdings valued as the portfolio is (latest unit valuation). */
  private async portfolioSummary(user: AuthUser, p: Params): Promise<DownloadFile> {
    const now = new Date();
    const { holdings } = await this.portfolio.mine(user);
    const ret = (s: Decimal[]) => returnOn(s[3], s[4]).returnPercentage.toFixed(2);
    return this.file(user, p, `portfolio-summary-${isoDay(now)}`, (t) => ({
      title: t.portfolioTitle,
      period: t.asOf(isoDay(now)),
      sections: [
        {
          title: t.sections.holdings,
          totals: [{ label: t.totals.total }],
          empty: t.noHoldings,
          columns: [
            { header: t.columns.unitCode, width: 52 },
            { header: t.columns.unit, width: 128 },
            { header: t.columns.ownership, width: 60, kind: 'number' },
            { header: t.columns.invested, width: 75, kind: 'money', total: 'sum' },
            { header: t.columns.currentValue, width: 75, kind: 'money', total: 'sum' },
            { header: t.columns.return, width: 75, kind: 'money', total: 'sum' },
            { header: t.columns.returnPercent, width: 50, kind: 'number', total: ret },
          ],
          rows: list(holdings, (h) => [
            h.unit.code,
            h.unit.name,
            percent(h.ownershipPercentage),
            dec(h.investedAmount),
            dec(h.currentValue),
            dec(h.returnAmount),
            h.returnPercentage.toFixed(2),
          ]),
        },
      ],
    }));
  }

  /**
   * The PDF in the investor's language (statementLanguage), the CSV in English: its header row is
   * what spreadsheets and scripts read by name.
   */
  private async file(user: AuthUser, p: Params, baseName: string, content: (t: StatementTexts) => Content): Promise<DownloadFile> {
    const [investor, disclaimer] = await Promise.all([
      this.prisma.investor.findUnique({
        where: { id: requireInvestor(user) },
        select: { id: true, user: { select: { name: true, settings: { select: { language: true, currency: true, timezone: true } } } } },
      }),
      this.prisma.legalText.findUnique({ where: { kind: LegalTextKind.INVESTMENT_DISCLAIMER }, select: { content: true } }),
    ]);
    if (!investor) throw new NotFoundError();
    const { ext, contentType, render } = FORMATS[p.format];
    const settings = investor.user.settings ?? DEFAULT_SETTINGS;
    const language = p.format === StatementFormat.PDF ? statementLanguage(settings.language) : 'en';
    const texts = STATEMENT_TEXTS[language];
    const statement: Statement = {
      platform: PLATFORM_NAME,
      ...content(texts),
      investorName: investor.user.name,
      account: texts.accountId(investor.id),
      generatedAt: new Date(),
      language,
      texts,
      currency: settings.currency,
      timeZone: settings.timezone,
      disclaimer: disclaimer?.content ?? null,
    };
    return { fileName: `${baseName}.${ext}`, contentType, stream: render(statement) };
  }
}
