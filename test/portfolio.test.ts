import { Prisma } from '../src/generated/prisma/client';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

let t: TestGateway;
let investorToken: string;
let adminToken: string;
let analystToken: string;
let investorId: number;
let otherId: number;

beforeAll(async () => {
  t = await startTestGateway();
  [investorToken, adminToken, analystToken] = await Promise.all([t.token(DEMO_EMAILS.investor), t.token(DEMO_EMAILS.admin), t.token(DEMO_EMAILS.analyst)]);
  investorId = (await t.db.prisma.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.investor }, include: { investor: true } })).investor!.id;
  otherId = (await t.db.prisma.investor.findFirstOrThrow({ where: { id: { not: investorId }, transactions: { some: {} } } })).id;
});
afterAll(() => t.close());

const get = (url: string, token = investorToken) => t.http.get(url).set('authorization', `Bearer ${token}`).set('host', 'api.test');
const D = (v: string | number | Prisma.Decimal) => new Prisma.Decimal(v);
const pct2 = (num: Prisma.Decimal, den: Prisma.Decimal) =>
  den.isZero() ? D(0) : num.times(100).dividedBy(den).toDecimalPlaces(2, Prisma.Decimal.ROUND_HALF_UP);

/** The performance figures worked out from the rows, for one investor or (undefined) the platform. */
async function expectedPerformance(who?: number) {
  const scope = who === undefined ? {} : { investorId: who };
  const holdings = await t.db.prisma.holding.findMany({ where: { ...scope, ownershipPercentage: { gt: 0 } } });
  const distributions = await t.db.prisma.distribution.findMany({ where: { ...scope, status: 'DISTRIBUTED' } });
  const unitIds = [...new Set([...holdings.map((h) => h.unitId), ...distributions.map((d) => d.unitId)])];
  const rows = [];
  for (const unitId of unitIds) {
    const unit = await t.db.prisma.unit.findUniqueOrThrow({ where: { id: unitId } });
    const latest = await t.db.prisma.unitValuation.findFirst({ where: { unitId }, orderBy: { valuedAt: 'desc' } });
    const mine = holdings.filter((h) => h.unitId === unitId);
    const ownership = mine.reduce((a, h) => a.plus(h.ownershipPercentage), D(0));
    const invested = mine.reduce((a, h) => a.plus(h.investedAmount), D(0));
    const current = ownership
      .times(latest?.value ?? unit.totalValue)
      .dividedBy(100)
      .toDecimalPlaces(2, Prisma.Decimal.ROUND_HALF_UP);
    const received = distributions.filter((d) => d.unitId === unitId).reduce((a, d) => a.plus(d.netAmount), D(0));
    rows.push({ unit: { id: unit.id, code: unit.code, name: unit.name }, ownership, invested, current, received });
  }
  rows.sort((a, b) => b.invested.comparedTo(a.invested) || a.unit.id - b.unit.id);
  const invested = rows.reduce((a, r) => a.plus(r.invested), D(0));
  const current = rows.reduce((a, r) => a.plus(r.current), D(0));
  const now = new Date();
  const quarters = Array.from({ length: 8 }, (_, i) => {
    const index = now.getUTCFullYear() * 4 + Math.floor(now.getUTCMonth() / 3) - 7 + i;
    const [year, q] = [Math.floor(index / 4), index % 4];
    const from = Date.UTC(year, q * 3, 1);
    const to = Date.UTC(year, q * 3 + 3, 1);
    const amount = distributions
      .filter((d) => d.distributedAt!.getTime() >= from && d.distributedAt!.getTime() < to)
      .reduce((a, d) => a.plus(d.netAmount), D(0));
    return { quarter: `${year}-Q${q + 1}`, amount: amount.toNumber() };
  });
  return {
    total_invested: invested.toNumber(),
    current_value: current.toNumber(),
    return_amount: current.minus(invested).toNumber(),
    return_percentage: pct2(current.minus(invested), invested).toNumber(),
    distributions_received: distributions.reduce((a, d) => a.plus(d.netAmount), D(0)).toNumber(),
    distributions_by_quarter: quarters,
    holdings: rows.map((r) => ({
      unit: r.unit,
      ownership_percentage: r.ownership.toNumber(),
      invested_amount: r.invested.toNumber(),
      current_value: r.current.toNumber(),
      return_amount: r.current.minus(r.invested).toNumber(),
      return_percentage: pct2(r.current.minus(r.invested), r.invested).toNumber(),
      distributions_received: r.received.toNumber(),
    })),
  };
}

describe('GET /api/v1/portfolio/performance', () => {
  it('gives an investor their totals, distributions per quarter and per-holding breakdown', async () => {
    const res = await get('/api/v1/portfolio/performance');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['success', 'data']);
    expect(Object.keys(res.body.data)).toEqual([
      'total_invested',
      'current_value',
      'return_amount',
      'return_percentage',
      'distributions_received',
      'distributions_by_quarter',
      'holdings',
    ]);
    const expected = await expectedPerformance(investorId);
    expect(res.body.data).toEqual(expected);
    expect(expected.distributions_by_quarter.some((q) => q.amount > 0)).toBe(true);
    expect(expected.holdings.length).toBeGreaterThan(1);
  });

  it('ignores investor_id for an investor (always their own)', async () => {
    const res = await get(`/api/v1/portfolio/performance?investor_id=${otherId}`);
    expect(res.body.data).toEqual(await expectedPerformance(investorId));
  });

  it('gives staff the whole platform, grouped per unit, or one investor’s with investor_id', async () => {
    for (const token of [adminToken, analystToken]) {
      const all = await get('/api/v1/portfolio/performance', token);
      expect(all.status).toBe(200);
      expect(all.body.data).toEqual(await expectedPerformance());
      const one = await get(`/api/v1/portfolio/performance?investor_id=${otherId}`, token);
      expect(one.body.data).toEqual(await expectedPerformance(otherId));
    }
  });

  it('rejects a non-integer investor_id with 422 and needs a token', async () => {
    const res = await get('/api/v1/portfolio/performance?investor_id=abc', adminToken);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ investor_id: ['The investor id field must be an integer.'] });
    expect((await t.http.get('/api/v1/portfolio/performance')).status).toBe(401);
  });

  it('has a GraphQL counterpart with Decimal strings', async () => {
    const res = await t.gql<{ portfolioPerformance: { totalInvested: string; distributionsByQuarter: Array<{ quarter: string; amount: string }> } }>(
      `{ portfolioPerformance { totalInvested distributionsByQuarter { quarter amount } } }`,
      {},
      investorToken,
    );
    const expected = await expectedPerformance(investorId);
    expect(res.data!.portfolioPerformance.totalInvested).toBe(D(expected.total_invested).toFixed(2));
    expect(res.data!.portfolioPerformance.distributionsByQuarter.map((q) => q.quarter)).toEqual(expected.distributions_by_quarter.map((q) => q.quarter));
    expect((await t.gql(`{ portfolioPerformance { totalInvested } }`)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('GET /api/v1/portfolio/transactions', () => {
  it('lists the investor’s own ledger, newest first by occurred_at', async () => {
    const res = await get('/api/v1/portfolio/transactions');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['success', 'data', 'links', 'meta']);
    const expected = await t.db.prisma.transaction.findMany({
      where: { investorId },
      orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }],
      take: 15,
      include: { unit: true },
    });
    expect(res.body.data.map((r: { id: number }) => r.id)).toEqual(expected.map((r) => r.id));
    expect(res.body.meta.total).toBe(await t.db.prisma.transaction.count({ where: { investorId } }));
    expect(Object.keys(res.body.data[0])).toEqual([
      'id',
      'investor_id',
      'type',
      'amount',
      'description',
      'unit',
      'investment_request_id',
      'withdrawal_request_id',
      'distribution_id',
      'payout_id',
      'occurred_at',
      'created_at',
    ]);
    expect(res.body.data[0]).toMatchObject({
      id: expected[0].id,
      type: expected[0].type.toLowerCase(),
      amount: expected[0].amount.toNumber(),
      description: expected[0].description,
      unit: { id: expected[0].unit.id, code: expected[0].unit.code, name: expected[0].unit.name },
    });
  });

  it.each(['investment', 'withdrawal', 'distribution'])('filters by type %s', async (type) => {
    const res = await get(`/api/v1/portfolio/transactions?type=${type}&per_page=100`);
    expect(res.body.data.length).toBeGreaterThan(0);
    expect(res.body.data.every((r: { type: string }) => r.type === type)).toBe(true);
    expect(res.body.meta.total).toBe(await t.db.prisma.transaction.count({ where: { investorId, type: type.toUpperCase() as never } }));
  });

  it('filters by unit and by an inclusive occurred_at date range', async () => {
    const sample = await t.db.prisma.transaction.findFirstOrThrow({ where: { investorId }, orderBy: { occurredAt: 'asc' } });
    const day = sample.occurredAt.toISOString().slice(0, 10);
    const res = await get(`/api/v1/portfolio/transactions?unit_id=${sample.unitId}&from=${day}&to=${day}`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { id: number }) => r.id)).toContain(sample.id);
    const start = new Date(`${day}T00:00:00Z`);
    expect(res.body.meta.total).toBe(
      await t.db.prisma.transaction.count({
        where: { investorId, unitId: sample.unitId, occurredAt: { gte: start, lt: new Date(start.getTime() + 86_400_000) } },
      }),
    );
    const since = await get(`/api/v1/portfolio/transactions?from=${day}&per_page=1`);
    expect(since.body.meta.total).toBe(await t.db.prisma.transaction.count({ where: { investorId, occurredAt: { gte: start } } }));
  });

  it('rejects bad filters with 422', async () => {
    const res = await get('/api/v1/portfolio/transactions?type=gift&from=soon');
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['from', 'type']);
    const reversed = await get('/api/v1/portfolio/transactions?from=2026-02-01&to=2026-01-01');
    expect(reversed.status).toBe(422);
    expect(reversed.body.errors).toEqual({ to: ['The to field must be a date after or equal to from.'] });
    expect((await get('/api/v1/portfolio/transactions?per_page=500')).body.errors).toHaveProperty('per_page');
  });

  it('shows staff every investor’s ledger, filterable by investor_id', async () => {
    for (const token of [adminToken, analystToken]) {
      const all = await get('/api/v1/portfolio/transactions', token);
      expect(all.body.meta.total).toBe(await t.db.prisma.transaction.count());
      const one = await get(`/api/v1/portfolio/transactions?investor_id=${otherId}&per_page=100`, token);
      expect(one.body.data.every((r: { investor_id: number }) => r.investor_id === otherId)).toBe(true);
      expect(one.body.meta.total).toBe(await t.db.prisma.transaction.count({ where: { investorId: otherId } }));
    }
  });

  it('requires a bearer token', async () => {
    expect((await t.http.get('/api/v1/portfolio/transactions')).status).toBe(401);
  });
});

describe('GET /api/v1/portfolio/transactions/{id}', () => {
  it('answers one of the investor’s own entries', async () => {
    const own = await t.db.prisma.transaction.findFirstOrThrow({ where: { investorId, distributionId: { not: null } } });
    const res = await get(`/api/v1/portfolio/transactions/${own.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: own.id,
      investor_id: investorId,
      distribution_id: own.distributionId,
      payout_id: own.payoutId,
      investment_request_id: null,
    });
  });

  it('answers 404 for another investor’s entry and for missing or non-numeric ids', async () => {
    const other = await t.db.prisma.transaction.findFirstOrThrow({ where: { investorId: otherId } });
    for (const id of [other.id, 99999999, '1e3']) {
      const res = await get(`/api/v1/portfolio/transactions/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, message: 'Resource not found.' });
    }
  });

  it('lets staff read any entry, and needs a token', async () => {
    const other = await t.db.prisma.transaction.findFirstOrThrow({ where: { investorId: otherId } });
    expect((await get(`/api/v1/portfolio/transactions/${other.id}`, analystToken)).body.data.id).toBe(other.id);
    expect((await t.http.get(`/api/v1/portfolio/transactions/${other.id}`)).status).toBe(401);
  });
});

describe('GraphQL transactions', () => {
  it('serves the same page as REST and single entries, NOT_FOUND for someone else’s', async () => {
    const [rest, gql] = await Promise.all([
      get('/api/v1/portfolio/transactions?per_page=5&page=2&type=distribution'),
      t.gql<{ transactions: { items: Array<{ id: number; amount: string }>; pageInfo: { total: number } } }>(
        `{ transactions(page: 2, perPage: 5, filter: { type: DISTRIBUTION }) { items { id amount } pageInfo { total } } }`,
        {},
        investorToken,
      ),
    ]);
    expect(gql.data!.transactions.items.map((i) => i.id)).toEqual(rest.body.data.map((r: { id: number }) => r.id));
    expect(gql.data!.transactions.pageInfo.total).toBe(rest.body.meta.total);
    expect(gql.data!.transactions.items[0].amount).toMatch(/^\d+\.\d{2}$/);
    const other = await t.db.prisma.transaction.findFirstOrThrow({ where: { investorId: otherId } });
    const res = await t.gql(`query($id: Int!) { transaction(id: $id) { id } }`, { id: other.id }, investorToken);
    expect(res.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const staff = await t.gql<{ transaction: { id: number } }>(`query($id: Int!) { transaction(id: $id) { id } }`, { id: other.id }, adminToken);
    expect(staff.data!.transaction.id).toBe(other.id);
  });
});
