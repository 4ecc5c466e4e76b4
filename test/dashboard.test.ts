import { Decimal } from 'decimal.js';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

let t: TestGateway;
let investorToken: string;
let analystToken: string;
let demoInvestorId: number;

beforeAll(async () => {
  t = await startTestGateway();
  [investorToken, analystToken] = await Promise.all([t.token(DEMO_EMAILS.investor), t.token(DEMO_EMAILS.analyst)]);
  demoInvestorId = (await t.db.prisma.investor.findFirstOrThrow({ where: { user: { email: DEMO_EMAILS.investor } } })).id;
});
afterAll(() => t.close());

const get = (token = investorToken) => t.http.get('/api/v1/dashboard').set('authorization', `Bearer ${token}`);
const num = (d: { toString(): string }) => Number(d.toString());
const money = (d: Decimal) => Number(d.toFixed(2));
const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id);

/** Investor scope for the expectations: one investor, or everyone (staff). */
type Scope = { investorId?: number };

/** The top gainers, recomputed from the valuation history. */
async function expectedGainers(now: Date) {
  const since = new Date(now);
  since.setUTCFullYear(since.getUTCFullYear() - 1);
  const units = await t.db.prisma.unit.findMany({ where: { status: 'AVAILABLE' }, include: { valuations: { orderBy: { valuedAt: 'asc' } } } });
  const latestAt = (vs: (typeof units)[number]['valuations'], at: Date) => vs.filter((v) => v.valuedAt <= at).pop()?.value;
  return units
    .map((u) => {
      const previous = new Decimal((latestAt(u.valuations, since) ?? u.totalValue).toString());
      const current = new Decimal((latestAt(u.valuations, now) ?? u.totalValue).toString());
      return { id: u.id, previous, current, ratio: current.minus(previous).dividedBy(previous) };
    })
    .filter((g) => g.ratio.gt(0))
    .sort((a, b) => b.ratio.comparedTo(a.ratio) || a.id - b.id)
    .slice(0, 5);
}

/** Net DISTRIBUTED amounts per UTC quarter of distributedAt, the last 8 quarters, oldest first. */
async function expectedTrends(scope: Scope, now: Date) {
  const quarterIndex = (d: Date) => d.getUTCFullYear() * 4 + Math.floor(d.getUTCMonth() / 3);
  const label = (i: number) => `${Math.floor(i / 4)}-Q${(i % 4) + 1}`;
  const last = quarterIndex(now);
  const rows = await t.db.prisma.distribution.findMany({ where: { ...scope, status: 'DISTRIBUTED' }, select: { netAmount: true, distributedAt: true } });
  return Array.from({ length: 8 }, (_, k) => {
    const q = last - 7 + k;
    const amount = rows.filter((r) => quarterIndex(r.distributedAt!) === q).reduce((s, r) => s.plus(r.netAmount.toString()), new Decimal(0));
    return { quarter: label(q), amount: money(amount) };
  });
}

async function expectedSummary(scope: Scope) {
  const holdings = await t.db.prisma.holding.findMany({
    where: { ...scope, ownershipPercentage: { gt: 0 } },
    include: { unit: { include: { valuations: { orderBy: { valuedAt: 'desc' }, take: 1 } } } },
  });
  const invested = holdings.reduce((s, h) => s.plus(h.investedAmount.toString()), new Decimal(0));
  const current = holdings.reduce((s, h) => {
    const value = new Decimal((h.unit.valuations[0]?.value ?? h.unit.totalValue).toString());
    return s.plus(new Decimal(h.ownershipPercentage.toString()).times(value).dividedBy(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP));
  }, new Decimal(0));
  const distributed = await t.db.prisma.distribution.aggregate({ where: { ...scope, status: 'DISTRIBUTED' }, _sum: { netAmount: true } });
  const pending =
    (await t.db.prisma.investmentRequest.count({ where: { ...scope, status: 'PENDING' } })) +
    (await t.db.prisma.withdrawalRequest.count({ where: { ...scope, status: 'PENDING' } }));
  return {
    holdings_count: holdings.length,
    total_invested: money(invested),
    current_value: money(current),
    total_return: money(current.minus(invested)),
    total_distributions_received: num(distributed._sum.netAmount ?? 0),
    pending_requests: pending,
  };
}

const latestTransactions = (scope: Scope) =>
  t.db.prisma.transaction.findMany({ where: scope, orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }], take: 10, include: { unit: true } });

describe('GET /api/v1/dashboard', () => {
  it('answers the marketplace in the documented shape', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['success', 'data']);
    expect(Object.keys(res.body.data)).toEqual(['featured_categories', 'top_gainers', 'new_listings', 'trends', 'recent_activity', 'summary']);
    expect(Object.keys(res.body.data.top_gainers[0])).toEqual([
      'id',
      'code',
      'name',
      'image_url',
      'category',
      'previous_value',
      'current_value',
      'change_percentage',
    ]);
    expect(Object.keys(res.body.data.recent_activity[0])).toEqual(['id', 'type', 'amount', 'description', 'unit', 'occurred_at']);
    expect(Object.keys(res.body.data.summary)).toEqual([
      'holdings_count',
      'total_invested',
      'current_value',
      'total_return',
      'total_distributions_received',
      'pending_requests',
    ]);
    expect(res.body.data.new_listings[0]).toHaveProperty('my_holding');
  });

  it('shows featured active categories, top gainers and the newest AVAILABLE units', async () => {
    const notFeatured = await t.db.prisma.category.create({
      data: { name: 'Featured But Off', slug: 'featured-but-off', description: 'x', icon: 'star', color: '#00838F', isFeatured: true, isActive: false },
    });
    const now = new Date();
    const res = await get();
    const featured = await t.db.prisma.category.findMany({ where: { isFeatured: true, isActive: true }, orderBy: [{ name: 'asc' }, { id: 'asc' }] });
    expect(ids(res.body.data.featured_categories)).toEqual(ids(featured));
    expect(ids(res.body.data.featured_categories)).not.toContain(notFeatured.id);
    for (const c of res.body.data.featured_categories)
      expect(c.units_count).toBe(await t.db.prisma.unit.count({ where: { categoryId: c.id, status: 'AVAILABLE' } }));

    const gainers = await expectedGainers(now);
    expect(gainers.length).toBeGreaterThan(0);
    expect(ids(res.body.data.top_gainers)).toEqual(ids(gainers));
    res.body.data.top_gainers.forEach((g: { previous_value: number; current_value: number; change_percentage: number }, i: number) => {
      expect(g.previous_value).toBe(money(gainers[i].previous));
      expect(g.current_value).toBe(money(gainers[i].current));
      expect(g.change_percentage).toBe(Number(gainers[i].ratio.times(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toString()));
    });

    const newest = await t.db.prisma.unit.findMany({ where: { status: 'AVAILABLE' }, orderBy: [{ listedAt: 'desc' }, { id: 'desc' }], take: 5 });
    expect(ids(res.body.data.new_listings)).toEqual(ids(newest));
  });

  it('counts a fresh valuation rise among the top gainers', async () => {
    const unit = await t.db.prisma.unit.findFirstOrThrow({ where: { status: 'AVAILABLE' }, orderBy: { id: 'asc' } });
    await t.db.prisma.unitValuation.create({
      data: { unitId: unit.id, value: new Decimal(unit.totalValue.toString()).times(10).toFixed(2), valuedAt: new Date(Date.now() - 1000) },
    });
    const res = await get();
    expect(res.body.data.top_gainers[0].id).toBe(unit.id);
  });

  it('gives the investor’s own trends, activity and summary', async () => {
    const now = new Date();
    const res = await get();
    const scope = { investorId: demoInvestorId };
    expect(res.body.data.trends).toEqual(await expectedTrends(scope, now));
    expect(res.body.data.trends.some((q: { amount: number }) => q.amount > 0)).toBe(true);
    const activity = await latestTransactions(scope);
    expect(ids(res.body.data.recent_activity)).toEqual(ids(activity));
    expect(res.body.data.recent_activity[0]).toMatchObject({
      type: activity[0].type.toLowerCase(),
      amount: num(activity[0].amount),
      unit: { id: activity[0].unitId, name: activity[0].unit.name },
    });
    const summary = await expectedSummary(scope);
    expect(summary.holdings_count).toBeGreaterThan(0);
    expect(res.body.data.summary).toEqual(summary);
  });

  it('gives staff the platform-wide figures', async () => {
    const now = new Date();
    const res = await get(analystToken);
    expect(res.status).toBe(200);
    expect(res.body.data.trends).toEqual(await expectedTrends({}, now));
    expect(ids(res.body.data.recent_activity)).toEqual(ids(await latestTransactions({})));
    expect(res.body.data.summary).toEqual(await expectedSummary({}));
    expect(res.body.data.new_listings.every((u: { my_holding: unknown }) => u.my_holding === null)).toBe(true);
  });

  it('runs a small, fixed number of SQL statements, whatever the data size', async () => {
    const count = async (token: string) => {
      const before = t.db.queryCount();
      await get(token);
      return t.db.queryCount() - before;
    };
    // 3 for the bearer check, the rest for the parts (Prisma loads each relation in one statement).
    expect(await count(investorToken)).toBeLessThanOrEqual(15);
    // Staff see the whole platform (far more rows) with no more statements.
    expect(await count(analystToken)).toBeLessThanOrEqual(await count(investorToken));
  });

  it('requires a bearer token', async () => {
    const res = await t.http.get('/api/v1/dashboard');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, message: 'Unauthenticated.' });
  });
});

describe('GraphQL dashboard', () => {
  const QUERY = `{ dashboard { featuredCategories { id } topGainers { id changePercentage } newListings { id myHolding { investedAmount } }
    trends { quarter amount } recentActivity { id } summary { holdingsCount totalInvested currentValue totalReturn totalDistributionsReceived pendingRequests } } }`;

  it('serves the same figures as REST, with Decimal strings', async () => {
    const [rest, gql] = await Promise.all([
      get(),
      t.gql<{ dashboard: { summary: Record<string, unknown>; trends: Array<{ amount: string }>; recentActivity: Array<{ id: number }> } }>(
        QUERY,
        {},
        investorToken,
      ),
    ]);
    expect(gql.errors).toBeUndefined();
    const d = gql.data!.dashboard;
    expect(d.summary.totalInvested).toMatch(/^\d+\.\d{2}$/);
    expect(Number(d.summary.currentValue)).toBe(rest.body.data.summary.current_value);
    expect(ids(d.recentActivity)).toEqual(ids(rest.body.data.recent_activity));
    expect(d.trends.map((q) => Number(q.amount))).toEqual(rest.body.data.trends.map((q: { amount: number }) => q.amount));
  });

  it('answers UNAUTHENTICATED without a token', async () => {
    expect((await t.gql(QUERY)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });
});
