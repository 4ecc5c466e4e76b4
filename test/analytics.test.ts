import { Prisma } from '../src/generated/prisma/client';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

const D = Prisma.Decimal;
const ZERO = new D(0);
const money = (d: Prisma.Decimal) => d.toFixed(2);

let t: TestGateway;
let admin: string;
let analyst: string;
let investor: string;

beforeAll(async () => {
  t = await startTestGateway();
  [admin, analyst, investor] = await Promise.all([t.token(DEMO_EMAILS.admin), t.token(DEMO_EMAILS.analyst), t.token(DEMO_EMAILS.investor)]);
});
afterAll(() => t.close());

describe('assetsUnderManagement', () => {
  const QUERY = `{ assetsUnderManagement { categoryId category unitsCount investedTotal currentValueTotal holdersCount } }`;

  it('matches totals computed row by row from the units, valuations and holdings', async () => {
    const res = await t.gql<{ assetsUnderManagement: Array<Record<string, unknown>> }>(QUERY, {}, analyst);
    expect(res.errors).toBeUndefined();
    const categories = await t.db.prisma.category.findMany({
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
      include: { units: { include: { holdings: true, valuations: { orderBy: { valuedAt: 'desc' }, take: 1 } } } },
    });
    const expected = categories.map((c) => {
      const holdings = c.units.flatMap((u) => u.holdings.map((h) => ({ h, value: u.valuations[0]?.value ?? u.totalValue })));
      return {
        categoryId: c.id,
        category: c.name,
        unitsCount: c.units.filter((u) => u.status !== 'DRAFT').length,
        investedTotal: money(holdings.reduce((a, { h }) => a.plus(h.investedAmount), ZERO)),
        currentValueTotal: money(
          holdings.reduce((a, { h, value }) => a.plus(h.ownershipPercentage.times(value).dividedBy(100).toDecimalPlaces(2, D.ROUND_HALF_UP)), ZERO),
        ),
        holdersCount: new Set(holdings.map(({ h }) => h.investorId)).size,
      };
    });
    expect(res.data!.assetsUnderManagement).toEqual(expected);
    expect(expected.some((c) => c.holdersCount > 0)).toBe(true);
  });
});

describe('distributionTotals', () => {
  const QUERY = `query($filter: DistributionTotalsFilter, $groupBy: DistributionGrouping) {
    distributionTotals(filter: $filter, groupBy: $groupBy) { period unitId unitName count grossAmount fees netAmount }
  }`;
  type Total = { period: string | null; unitId: number | null; unitName: string | null; count: number; grossAmount: string; fees: string; netAmount: string };

  /** Groups the rows in memory, the way the query should in SQL. */
  function group(
    rows: Array<{ period: string; unitId: number; grossAmount: Prisma.Decimal; fees: Prisma.Decimal; netAmount: Prisma.Decimal; unit: { name: string } }>,
    by: 'PERIOD' | 'UNIT',
  ): Total[] {
    const groups = new Map<string | number, Total>();
    for (const r of rows) {
      const key = by === 'PERIOD' ? r.period : r.unitId;
      const g = groups.get(key) ?? {
        period: by === 'PERIOD' ? r.period : null,
        unitId: by === 'UNIT' ? r.unitId : null,
        unitName: by === 'UNIT' ? r.unit.name : null,
        count: 0,
        grossAmount: '0',
        fees: '0',
        netAmount: '0',
      };
      g.count++;
      g.grossAmount = money(new D(g.grossAmount).plus(r.grossAmount));
      g.fees = money(new D(g.fees).plus(r.fees));
      g.netAmount = money(new D(g.netAmount).plus(r.netAmount));
      groups.set(key, g);
    }
    return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, g]) => g);
  }

  it('sums non-cancelled distributions per period, oldest first, by default', async () => {
    const res = await t.gql<{ distributionTotals: Total[] }>(QUERY, {}, analyst);
    const rows = await t.db.prisma.distribution.findMany({ where: { status: { not: 'CANCELLED' } }, include: { unit: true } });
    expect(res.data!.distributionTotals).toEqual(group(rows, 'PERIOD'));
    expect(res.data!.distributionTotals.length).toBeGreaterThan(1);
  });

  it('groups by unit with a period range, a unit and a status', async () => {
    const periods = (await t.db.prisma.distribution.findMany({ distinct: ['period'], select: { period: true }, orderBy: { period: 'asc' } })).map(
      (p) => p.period,
    );
    const [fromPeriod, toPeriod] = [periods[1], periods[periods.length - 2]];
    const res = await t.gql<{ distributionTotals: Total[] }>(QUERY, { filter: { fromPeriod, toPeriod, status: 'DISTRIBUTED' }, groupBy: 'UNIT' }, admin);
    const rows = await t.db.prisma.distribution.findMany({
      where: { period: { gte: fromPeriod, lte: toPeriod }, status: 'DISTRIBUTED' },
      include: { unit: true },
    });
    expect(res.data!.distributionTotals).toEqual(group(rows, 'UNIT'));

    const unitId = rows[0].unitId;
    const one = await t.gql<{ distributionTotals: Total[] }>(QUERY, { filter: { unitId } }, admin);
    const unitRows = await t.db.prisma.distribution.findMany({ where: { unitId, status: { not: 'CANCELLED' } }, include: { unit: true } });
    expect(one.data!.distributionTotals).toEqual(group(unitRows, 'PERIOD'));
  });

  it('answers BAD_USER_INPUT for a malformed or reversed period range', async () => {
    const bad = await t.gql(QUERY, { filter: { fromPeriod: '2026-Q0' } }, analyst);
    expect(bad.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { fromPeriod: [expect.any(String)] } });
    const reversed = await t.gql(QUERY, { filter: { fromPeriod: '2026-Q2', toPeriod: '2026-Q1' } }, analyst);
    expect(reversed.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { toPeriod: [expect.any(String)] } });
  });
});

describe('withdrawalVolumes', () => {
  it('counts and sums the requests per status, every status listed', async () => {
    const res = await t.gql<{ withdrawalVolumes: Array<{ status: string; count: number; ownershipPercentage: string; investedAmount: string }> }>(
      `{ withdrawalVolumes { status count ownershipPercentage investedAmount } }`,
      {},
      analyst,
    );
    const rows = await t.db.prisma.withdrawalRequest.findMany();
    const expected = ['PENDING', 'APPROVED', 'COMPLETED', 'REJECTED', 'CANCELLED'].map((status) => {
      const mine = rows.filter((r) => r.status === status);
      const pct = mine.reduce((a, r) => a.plus(r.ownershipPercentage), ZERO);
      return {
        status,
        count: mine.length,
        ownershipPercentage: pct.toFixed(Math.max(2, pct.decimalPlaces())),
        investedAmount: money(mine.reduce((a, r) => a.plus(r.investedAmount), ZERO)),
      };
    });
    expect(res.data!.withdrawalVolumes).toEqual(expected);
    expect(expected.every((e) => e.count > 0)).toBe(true);
  });
});

describe('who may run aggregates', () => {
  it.each(['assetsUnderManagement { category }', 'distributionTotals { count }', 'withdrawalVolumes { count }'])(
    '%s: investors FORBIDDEN, guests UNAUTHENTICATED, admins allowed',
    async (field) => {
      expect((await t.gql(`{ ${field} }`, {}, investor)).errors?.[0].extensions?.code).toBe('FORBIDDEN');
      expect((await t.gql(`{ ${field} }`)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
      expect((await t.gql(`{ ${field} }`, {}, admin)).errors).toBeUndefined();
    },
  );
});
