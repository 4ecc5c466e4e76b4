import { Prisma } from '../src/generated/prisma/client';
import type { DistributionStatus } from '../src/generated/prisma/enums';
import { DISTRIBUTION } from '../src/services/state-machine';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

const D = Prisma.Decimal;

let t: TestGateway;
let admin: string;
let analyst: string;
let investor: string;
let adminUserId: number;

beforeAll(async () => {
  t = await startTestGateway();
  [admin, analyst, investor] = await Promise.all([t.token(DEMO_EMAILS.admin), t.token(DEMO_EMAILS.analyst), t.token(DEMO_EMAILS.investor)]);
  adminUserId = (await t.db.prisma.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.admin } })).id;
});
afterAll(() => t.close());

const ROWS = 'distributions { id investorId ownershipPercentage grossAmount fees netAmount status distributedAt }';
const DECL = `id unitId unitName period type grossAmount feeRate fees netAmount retainedAmount status holdersCount declaredById approvedAt distributedAt ${ROWS}`;
const DECLARE = `mutation($input: DeclareDistributionInput!) { declareDistribution(input: $input) { ${DECL} } }`;
const MUTATIONS = {
  approve: { to: 'APPROVED', query: `mutation($id: Int!) { approveDistribution(id: $id) { ${DECL} } }` },
  distribute: { to: 'DISTRIBUTED', query: `mutation($id: Int!) { distributeDistribution(id: $id) { ${DECL} } }` },
  cancel: { to: 'CANCELLED', query: `mutation($id: Int!) { cancelDistribution(id: $id) { ${DECL} } }` },
} as const;
type Action = keyof typeof MUTATIONS;

interface Row {
  id: number;
  investorId: number;
  ownershipPercentage: string;
  grossAmount: string;
  fees: string;
  netAmount: string;
  status: string;
  distributedAt: string | null;
}
interface Declaration {
  id: number;
  unitId: number;
  unitName: string;
  period: string;
  type: string;
  grossAmount: string;
  feeRate: string;
  fees: string;
  netAmount: string;
  retainedAmount: string;
  status: string;
  holdersCount: number;
  declaredById: number;
  approvedAt: string | null;
  distributedAt: string | null;
  distributions: Row[];
}

async function run(action: Action, id: number, token = admin) {
  const res = await t.gql<Record<string, Declaration>>(MUTATIONS[action].query, { id }, token);
  return { decl: res.data ? Object.values(res.data)[0] : undefined, code: res.errors?.[0].extensions?.code, message: res.errors?.[0].message };
}

async function declare(input: Record<string, unknown>, token = admin) {
  const res = await t.gql<{ declareDistribution: Declaration }>(DECLARE, { input }, token);
  return {
    decl: res.data?.declareDistribution,
    code: res.errors?.[0].extensions?.code,
    message: res.errors?.[0].message,
    fields: res.errors?.[0].extensions?.fields as Record<string, string[]> | undefined,
  };
}

let unitCounter = 0;
/** A unit owned by the first investors in the given percentages; the rest is unsold. */
async function unitWithHolders(pcts: string[]) {
  const p = t.db.prisma;
  const category = await p.category.findFirstOrThrow({ orderBy: { id: 'asc' } });
  const investors = await p.investor.findMany({ orderBy: { id: 'asc' }, take: pcts.length });
  if (investors.length < pcts.length) throw new Error('not enough investors in the test data');
  const held = pcts.reduce((a, x) => a.plus(x), new D(0));
  const n = ++unitCounter;
  const unit = await p.unit.create({
    data: {
      code: `TST-${n}`,
      name: `Test unit ${n}`,
      description: 'Fixture',
      location: 'Nowhere',
      categoryId: category.id,
      status: 'FUNDED',
      totalValue: '1000000.00',
      availablePercentage: new D(100).minus(held),
      minInvestment: '500.00',
      expectedReturn: '5',
    },
  });
  await p.holding.createMany({
    data: pcts.map((pct, i) => ({
      investorId: investors[i].id,
      unitId: unit.id,
      ownershipPercentage: pct,
      investedAmount: new D(pct).times(10000).toFixed(2),
    })),
  });
  return unit;
}

let periodCounter = 0;
const nextPeriod = () => {
  periodCounter++;
  return `${2040 + Math.floor(periodCounter / 4)}-Q${(periodCounter % 4) + 1}`;
};

let fixtureUnitId: number;
beforeAll(async () => {
  fixtureUnitId = (await unitWithHolders(['12.5', '20.123456', '7.777777'])).id;
});

/** A declaration on the fixture unit brought into `status` through the mutations. */
async function declarationIn(status: DistributionStatus) {
  const { decl } = await declare({ unitId: fixtureUnitId, period: nextPeriod(), type: 'DIVIDEND', grossAmount: '1234.56', feeRate: '0.05' });
  const path: Record<DistributionStatus, Action[]> = { PENDING: [], APPROVED: ['approve'], DISTRIBUTED: ['approve', 'distribute'], CANCELLED: ['cancel'] };
  for (const step of path[status]) expect((await run(step, decl!.id)).code).toBeUndefined();
  return decl!.id;
}

/** Everything a declaration transition may touch. */
async function snapshot(declarationId: number) {
  const p = t.db.prisma;
  const [declaration, rows, payouts, transactions, notifications] = await Promise.all([
    p.distributionDeclaration.findUniqueOrThrow({ where: { id: declarationId } }),
    p.distribution.findMany({ where: { declarationId }, orderBy: { id: 'asc' } }),
    p.payout.count(),
    p.transaction.count(),
    p.notification.count(),
  ]);
  return { declaration, rows, payouts, transactions, notifications };
}

/** The fan-out invariants, checked against the holdings and the unit as stored. */
async function expectExactFanOut(decl: Declaration, feeRate: string) {
  const gross = new D(decl.grossAmount);
  const rows = decl.distributions;
  const sum = (xs: string[]) => xs.reduce((a, x) => a.plus(x), new D(0));
  expect(
    sum(rows.map((r) => r.grossAmount))
      .plus(decl.retainedAmount)
      .equals(gross),
  ).toBe(true);
  expect(
    sum(rows.map((r) => r.netAmount))
      .plus(sum(rows.map((r) => r.fees)))
      .equals(sum(rows.map((r) => r.grossAmount))),
  ).toBe(true);
  expect(new D(decl.fees).equals(sum(rows.map((r) => r.fees)))).toBe(true);
  expect(new D(decl.netAmount).equals(sum(rows.map((r) => r.netAmount)))).toBe(true);
  const unit = await t.db.prisma.unit.findUniqueOrThrow({ where: { id: decl.unitId }, include: { holdings: true } });
  expect(rows).toHaveLength(unit.holdings.length);
  const weight = unit.holdings.reduce((a, h) => a.plus(h.ownershipPercentage), new D(0)).plus(unit.availablePercentage);
  for (const r of rows) {
    const h = unit.holdings.find((x) => x.investorId === r.investorId)!;
    expect(new D(r.ownershipPercentage).equals(h.ownershipPercentage)).toBe(true);
    // Largest-remainder allocation: each part is its exact share rounded down, plus at most one cent.
    const exact = gross.times(h.ownershipPercentage).dividedBy(weight);
    const diff = new D(r.grossAmount).minus(exact);
    expect(diff.gt(-0.01) && diff.lt(0.01)).toBe(true);
    expect(new D(r.fees).equals(new D(r.grossAmount).times(feeRate).toDecimalPlaces(2, D.ROUND_HALF_UP))).toBe(true);
    expect(new D(r.netAmount).equals(new D(r.grossAmount).minus(r.fees))).toBe(true);
    expect(r.status).toBe('PENDING');
  }
  const exactRetained = gross.times(unit.availablePercentage).dividedBy(weight);
  expect(new D(decl.retainedAmount).minus(exactRetained).abs().lt(0.01)).toBe(true);
}

describe('declareDistribution', () => {
  it('splits 1000.00 over three holders of 33.333333 % exactly to the cent', async () => {
    const unit = await unitWithHolders(['33.333333', '33.333333', '33.333333']);
    const { decl, code } = await declare({ unitId: unit.id, period: '2026-Q4', type: 'RENTAL_INCOME', grossAmount: '1000.00', feeRate: '0.075' });
    expect(code).toBeUndefined();
    expect(decl).toMatchObject({
      unitId: unit.id,
      unitName: unit.name,
      status: 'PENDING',
      holdersCount: 3,
      grossAmount: '1000.00',
      feeRate: '0.075',
      declaredById: adminUserId,
      approvedAt: null,
      distributedAt: null,
    });
    await expectExactFanOut(decl!, '0.075');
    const stored = await t.db.prisma.distributionDeclaration.findUniqueOrThrow({ where: { id: decl!.id } });
    expect(stored.retainedAmount.toFixed(2)).toBe(decl!.retainedAmount);
  });

  it('splits 0.05 over many holders without losing or inventing a cent', async () => {
    const count = await t.db.prisma.investor.count();
    const pcts = Array.from({ length: Math.min(count, 14) }, (_, i) =>
      new D(100)
        .dividedBy(17)
        .minus(i * 0.1)
        .toDecimalPlaces(6, D.ROUND_DOWN)
        .toFixed(6),
    );
    const unit = await unitWithHolders(pcts);
    const { decl } = await declare({ unitId: unit.id, period: '2026-Q4', type: 'INTEREST', grossAmount: '0.05', feeRate: '0.333333' });
    expect(decl!.distributions.length).toBe(pcts.length);
    await expectExactFanOut(decl!, '0.333333');
    expect(decl!.distributions.filter((r) => r.grossAmount !== '0.00').length).toBeLessThanOrEqual(5);
  });

  it('splits an awkward amount and fee over the fixture unit with the unsold share retained', async () => {
    const { decl } = await declare({ unitId: fixtureUnitId, period: '2026-Q1', type: 'CAPITAL_GAIN', grossAmount: '98765.43', feeRate: '0.123457' });
    await expectExactFanOut(decl!, '0.123457');
    expect(new D(decl!.retainedAmount).gt(0)).toBe(true);
  });

  it('answers 409 for a second declaration of the same unit, period and type, writing nothing', async () => {
    const input = { unitId: fixtureUnitId, period: '2026-Q2', type: 'RENTAL_INCOME', grossAmount: '100.00', feeRate: '0' };
    expect((await declare(input)).code).toBeUndefined();
    const before = await t.db.prisma.distribution.count();
    const again = await declare({ ...input, grossAmount: '200.00' });
    expect(again.code).toBe('CONFLICT');
    expect(again.message).toMatch(/already been declared/);
    expect(await t.db.prisma.distribution.count()).toBe(before);
    expect((await declare({ ...input, type: 'DIVIDEND' })).code).toBeUndefined();
  });

  it('answers 409 for a unit without holders', async () => {
    const unit = await unitWithHolders([]);
    const before = await t.db.prisma.distributionDeclaration.count();
    const res = await declare({ unitId: unit.id, period: '2026-Q1', type: 'DIVIDEND', grossAmount: '10.00', feeRate: '0.1' });
    expect(res.code).toBe('CONFLICT');
    expect(res.message).toBe('This unit has no holders to distribute to.');
    expect(await t.db.prisma.distributionDeclaration.count()).toBe(before);
  });

  it('answers 422 naming every bad field, writing nothing', async () => {
    const before = await t.db.prisma.distributionDeclaration.count();
    // The input rules first, together; once they pass, the checks on stored data (docs/api.md "Validation").
    const res = await declare({ unitId: 99999999, period: '2026-Q1', type: 'DIVIDEND', grossAmount: '1.234', feeRate: '1' });
    expect(res.code).toBe('BAD_USER_INPUT');
    expect(Object.keys(res.fields!).sort()).toEqual(['feeRate', 'grossAmount']);
    const unknown = await declare({ unitId: 99999999, period: '2026-Q1', type: 'DIVIDEND', grossAmount: '1.23', feeRate: '0.1', scheduledFor: '2000-01-01' });
    expect(unknown.code).toBe('BAD_USER_INPUT');
    expect(Object.keys(unknown.fields!).sort()).toEqual(['scheduledFor', 'unitId']);
    for (const [grossAmount, feeRate, field] of [
      ['0', '0.1', 'grossAmount'],
      ['-5', '0.1', 'grossAmount'],
      ['1000000000000', '0.1', 'grossAmount'],
      ['10', '-0.01', 'feeRate'],
      ['10', '1.5', 'feeRate'],
    ]) {
      const bad = await declare({ unitId: fixtureUnitId, period: '2026-Q3', type: 'DIVIDEND', grossAmount, feeRate });
      expect(Object.keys(bad.fields ?? {})).toEqual([field]);
    }
    const period = await declare({ unitId: fixtureUnitId, period: '2026-Q5', type: 'DIVIDEND', grossAmount: '10', feeRate: '0' });
    expect(period.fields).toEqual({ period: ['The period field must be a quarter such as 2026-Q1.'] });
    expect(await t.db.prisma.distributionDeclaration.count()).toBe(before);
  });
});

describe('approve, distribute, cancel', () => {
  it('approves: the declaration and its rows become APPROVED, nothing is paid yet', async () => {
    const id = await declarationIn('PENDING');
    const before = await snapshot(id);
    const { decl } = await run('approve', id);
    expect(decl!.status).toBe('APPROVED');
    expect(decl!.approvedAt).not.toBeNull();
    expect(decl!.distributions.every((r) => r.status === 'APPROVED')).toBe(true);
    const after = await snapshot(id);
    expect([after.payouts, after.transactions, after.notifications]).toEqual([before.payouts, before.transactions, before.notifications]);
  });

  it('distributes: a pending payout, a ledger row and a notification per holder, in one transaction', async () => {
    const id = await declarationIn('APPROVED');
    const before = await snapshot(id);
    const { decl } = await run('distribute', id);
    expect(decl!.status).toBe('DISTRIBUTED');
    expect(decl!.distributedAt).not.toBeNull();
    expect(decl!.distributions.every((r) => r.status === 'DISTRIBUTED' && r.distributedAt === decl!.distributedAt)).toBe(true);
    const after = await snapshot(id);
    const n = after.rows.length;
    expect(after.payouts - before.payouts).toBe(n);
    expect(after.transactions - before.transactions).toBe(n);
    expect(after.notifications - before.notifications).toBe(n);
    for (const row of after.rows) {
      const payout = await t.db.prisma.payout.findUniqueOrThrow({ where: { distributionId: row.id }, include: { investor: true } });
      expect(payout).toMatchObject({ source: 'DISTRIBUTION', status: 'PENDING', investorId: row.investorId, unitId: row.unitId, reference: `PO-D-${row.id}` });
      expect(payout.amount.equals(row.netAmount)).toBe(true);
      const ledger = await t.db.prisma.transaction.findFirstOrThrow({ where: { distributionId: row.id } });
      expect(ledger).toMatchObject({ type: 'DISTRIBUTION', payoutId: payout.id, investorId: row.investorId });
      expect(ledger.amount.equals(row.netAmount)).toBe(true);
      const note = await t.db.prisma.notification.findFirstOrThrow({
        where: { userId: payout.investor.userId, type: 'DISTRIBUTION_DISTRIBUTED' },
        orderBy: { id: 'desc' },
      });
      expect(note.data).toMatchObject({ distributionId: row.id, payoutId: payout.id });
    }
  });

  it('pays nobody whose net share rounds to 0.00', async () => {
    const unit = await unitWithHolders(['50', '0.000001']);
    const { decl } = await declare({ unitId: unit.id, period: '2026-Q1', type: 'DIVIDEND', grossAmount: '100.00', feeRate: '0' });
    await run('approve', decl!.id);
    const { decl: done } = await run('distribute', decl!.id);
    const [big, tiny] = done!.distributions;
    expect([big.netAmount, tiny.netAmount, tiny.status]).toEqual(['50.00', '0.00', 'DISTRIBUTED']);
    expect(await t.db.prisma.payout.count({ where: { distributionId: big.id } })).toBe(1);
    expect(await t.db.prisma.payout.count({ where: { distributionId: tiny.id } })).toBe(0);
  });

  it.each(['PENDING', 'APPROVED'] as const)('cancels from %s, rows included', async (from) => {
    const id = await declarationIn(from);
    const before = await snapshot(id);
    const { decl } = await run('cancel', id);
    expect(decl!.status).toBe('CANCELLED');
    expect(decl!.distributions.every((r) => r.status === 'CANCELLED')).toBe(true);
    const after = await snapshot(id);
    expect([after.payouts, after.transactions, after.notifications]).toEqual([before.payouts, before.transactions, before.notifications]);
  });

  const statuses = Object.keys(DISTRIBUTION.next) as DistributionStatus[];
  const illegal = (Object.keys(MUTATIONS) as Action[]).flatMap((action) =>
    statuses.filter((from) => !(DISTRIBUTION.next[from] as readonly string[]).includes(MUTATIONS[action].to)).map((from) => [action, from] as const),
  );
  it.each(illegal)('refuses %s from %s with 409 and changes nothing', async (action, from) => {
    const id = await declarationIn(from);
    const before = await snapshot(id);
    const res = await run(action, id);
    expect(res.code).toBe('CONFLICT');
    expect(res.message).toBe(`This distribution is ${from.toLowerCase()} and cannot be ${MUTATIONS[action].to.toLowerCase()}.`);
    expect(await snapshot(id)).toEqual(before);
  });

  it('lets only one of two concurrent distributions through', async () => {
    const id = await declarationIn('APPROVED');
    const results = await Promise.all([run('distribute', id), run('distribute', id)]);
    expect(results.map((r) => r.code ?? 'OK').sort()).toEqual(['CONFLICT', 'OK']);
    const rows = await t.db.prisma.distribution.findMany({ where: { declarationId: id }, select: { id: true } });
    expect(await t.db.prisma.payout.count({ where: { distributionId: { in: rows.map((r) => r.id) } } })).toBe(rows.length);
  });

  it('answers NOT_FOUND for a missing declaration', async () => {
    for (const action of Object.keys(MUTATIONS) as Action[]) expect((await run(action, 99999999)).code).toBe('NOT_FOUND');
  });
});

describe('staff queries', () => {
  const LIST = `query($page: Int, $perPage: Int, $filter: DistributionDeclarationFilter) {
    distributionDeclarations(page: $page, perPage: $perPage, filter: $filter) { items { id unitId period status holdersCount } pageInfo { total } }
  }`;
  type List = {
    distributionDeclarations: {
      items: Array<{ id: number; unitId: number; period: string; status: string; holdersCount: number }>;
      pageInfo: { total: number };
    };
  };

  it('lists declarations newest first with filters, for admins and analysts', async () => {
    const res = await t.gql<List>(LIST, { perPage: 10 }, analyst);
    const expected = await t.db.prisma.distributionDeclaration.findMany({
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: 10,
      include: { _count: { select: { distributions: true } } },
    });
    expect(res.data!.distributionDeclarations.items.map((d) => d.id)).toEqual(expected.map((d) => d.id));
    expect(res.data!.distributionDeclarations.items[0].holdersCount).toBe(expected[0]._count.distributions);
    expect(res.data!.distributionDeclarations.pageInfo.total).toBe(await t.db.prisma.distributionDeclaration.count());

    const sample = await t.db.prisma.distributionDeclaration.findFirstOrThrow({ where: { status: 'DISTRIBUTED' }, orderBy: { id: 'asc' } });
    const filter = { unitId: sample.unitId, period: sample.period, status: 'DISTRIBUTED' };
    const filtered = await t.gql<List>(LIST, { filter }, admin);
    expect(filtered.data!.distributionDeclarations.items.map((d) => d.id)).toContain(sample.id);
    expect(filtered.data!.distributionDeclarations.pageInfo.total).toBe(
      await t.db.prisma.distributionDeclaration.count({ where: { unitId: sample.unitId, period: sample.period, status: 'DISTRIBUTED' } }),
    );
    const bad = await t.gql(LIST, { filter: { period: '2026-Q9' } }, admin);
    expect(bad.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { period: [expect.any(String)] } });
  });

  it('answers one declaration with its rows, NOT_FOUND for a missing one', async () => {
    const sample = await t.db.prisma.distributionDeclaration.findFirstOrThrow({ include: { distributions: { orderBy: { id: 'asc' } } } });
    const res = await t.gql<{ distributionDeclaration: Declaration }>(
      `query($id: Int!) { distributionDeclaration(id: $id) { ${DECL} } }`,
      { id: sample.id },
      analyst,
    );
    expect(res.data!.distributionDeclaration.distributions.map((r) => r.id)).toEqual(sample.distributions.map((r) => r.id));
    expect(res.data!.distributionDeclaration.grossAmount).toBe(sample.grossAmount.toFixed(2));
    const missing = await t.gql(`query { distributionDeclaration(id: 99999999) { id } }`, {}, analyst);
    expect(missing.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it("pages a declaration's rows in holding order, each page its window of them, on a mutation's answer as on the query", async () => {
    const unit = await unitWithHolders(Array.from({ length: 8 }, () => '10.000000'));
    const perPage = 3;
    type Paged = { holdersCount: number; distributions: { id: number; investorId: number }[] };
    const page3 = `holdersCount distributions(page: 3, perPage: ${perPage}) { id investorId }`;
    const declared = await t.gql<{ declareDistribution: Paged & { id: number } }>(
      `mutation($input: DeclareDistributionInput!) { declareDistribution(input: $input) { id ${page3} } }`,
      { input: { unitId: unit.id, period: '2026-Q2', type: 'DIVIDEND', grossAmount: '800.00', feeRate: '0.1' } },
      admin,
    );
    expect(declared.errors).toBeUndefined();
    const { id } = declared.data!.declareDistribution;
    const [rows, holdings] = await Promise.all([
      t.db.prisma.distribution.findMany({ where: { declarationId: id }, orderBy: { id: 'asc' }, select: { id: true, investorId: true } }),
      t.db.prisma.holding.findMany({ where: { unitId: unit.id }, orderBy: { id: 'asc' }, select: { investorId: true } }),
    ]);
    expect(rows.map((r) => r.investorId)).toEqual(holdings.map((h) => h.investorId));
    expect(declared.data!.declareDistribution).toEqual({ id, holdersCount: 8, distributions: rows.slice(6) });
    for (const page of [1, 2, 3, 4]) {
      const res = await t.gql<{ distributionDeclaration: Paged }>(
        `query($id: Int!, $page: Int) { distributionDeclaration(id: $id) { holdersCount distributions(page: $page, perPage: ${perPage}) { id investorId } } }`,
        { id, page },
        analyst,
      );
      expect(res.data).toEqual({ distributionDeclaration: { holdersCount: 8, distributions: rows.slice((page - 1) * perPage, page * perPage) } });
    }
  });
});

describe('who may drive the machine', () => {
  it('declaring and every transition are for admins: investors and analysts get FORBIDDEN, guests UNAUTHENTICATED', async () => {
    const id = await declarationIn('PENDING');
    const before = await snapshot(id);
    const input = { unitId: fixtureUnitId, period: nextPeriod(), type: 'DIVIDEND', grossAmount: '10.00', feeRate: '0' };
    for (const token of [investor, analyst]) {
      expect((await declare(input, token)).code).toBe('FORBIDDEN');
      for (const action of Object.keys(MUTATIONS) as Action[]) expect((await run(action, id, token)).code).toBe('FORBIDDEN');
    }
    expect((await t.gql(DECLARE, { input })).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect((await t.gql(MUTATIONS.approve.query, { id })).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect(await snapshot(id)).toEqual(before);
  });

  it('the declaration queries are for staff: investors get FORBIDDEN', async () => {
    expect((await t.gql(`{ distributionDeclarations { items { id } } }`, {}, investor)).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await t.gql(`{ distributionDeclaration(id: 1) { id } }`, {}, investor)).errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });
});
