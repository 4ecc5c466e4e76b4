import type { AuthUser } from '../src/domain/auth-user';
import type { Prisma } from '../src/generated/prisma/client';
import type { DistributionFilterInput } from '../src/services/distribution.service';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';
import { COUNT_MISMATCHES, TOTAL_MISMATCHES } from './support/distribution-counts';

/**
 * Staff distribution lists take their total from distribution_totals (one row: unfiltered, one
 * filter, status and one other, or the days of a payment-date range) or else from
 * distribution_counts, both kept by statement triggers (migrations distribution_counts and
 * distribution_totals). These tests write distributions concurrently, in every way a statement can
 * (insert, update, delete, rolled back, TRUNCATE), then require every total the service answers
 * from those tables to equal COUNT(*).
 */
let t: TestGateway;
let admin: string;
let staff: AuthUser;

beforeAll(async () => {
  t = await startTestGateway();
  admin = await t.token(DEMO_EMAILS.admin);
  const user = await t.db.prisma.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.admin } });
  staff = { id: user.id, role: user.role, investorId: null, sessionId: 'test' };
});
afterAll(() => t.close());

const LIST = `query($filter: DistributionFilter) { distributions(perPage: 1, filter: $filter) { pageInfo { total } } }`;

async function staffTotal(filter: Record<string, unknown>): Promise<number> {
  const res = await t.gql<{ distributions: { pageInfo: { total: number } } }>(LIST, { filter }, admin);
  if (!res.data) throw new Error(JSON.stringify(res.errors));
  return res.data.distributions.pageInfo.total;
}

const DAY_MS = 86_400_000;
const utcDay = (d: Date) => new Date(Math.floor(d.getTime() / DAY_MS) * DAY_MS);

/**
 * Filters of every shape the service answers from the count tables, on values present in the data
 * (and one absent): none; each of status, type, unit, period; status with each other; payment-date
 * ranges (one day, a year, open-ended) alone and with a status; and mixes only distribution_counts
 * answers.
 */
async function filtersOfEveryShape(): Promise<DistributionFilterInput[]> {
  const prisma = t.db.prisma;
  const statuses = ['PENDING', 'APPROVED', 'DISTRIBUTED', 'CANCELLED'] as const;
  const types = ['RENTAL_INCOME', 'CAPITAL_GAIN', 'DIVIDEND', 'INTEREST'] as const;
  const units = (await prisma.distribution.groupBy({ by: ['unitId'], orderBy: { unitId: 'asc' } })).map((r) => r.unitId).slice(0, 3);
  const periods = (await prisma.distribution.groupBy({ by: ['period'], orderBy: { period: 'desc' } })).map((r) => r.period).slice(0, 2);
  const cadences = ['MONTHLY', 'QUARTERLY', 'SEMI_ANNUAL', 'ANNUAL', 'SPECIAL'] as const;
  const paid = await prisma.distribution.aggregate({ _min: { distributedAt: true }, _max: { scheduledFor: true } });
  const first = utcDay(paid._min.distributedAt ?? new Date('2026-01-01T00:00:00Z'));
  const last = utcDay(paid._max.scheduledFor ?? new Date('2026-01-01T00:00:00Z'));
  const year = last.getUTCFullYear() - 1;
  const ranges: Pick<DistributionFilterInput, 'from' | 'to'>[] = [
    { from: first, to: first },
    { from: last, to: last },
    { from: new Date(Date.UTC(year, 0, 1)), to: new Date(Date.UTC(year, 11, 31)) },
    { from: last },
    { to: first },
  ];
  const singles: DistributionFilterInput[] = [
    ...statuses.map((status) => ({ status })),
    ...types.map((type) => ({ type })),
    ...types.map((profitKind) => ({ profitKind })),
    ...cadences.map((cadence) => ({ cadence })),
    ...[...units, 999_999].map((unitId) => ({ unitId })),
    ...[...periods, '1999-Q1'].map((period) => ({ period })),
  ];
  return [
    {},
    ...singles,
    ...statuses.flatMap((status) => [
      { status, type: 'DIVIDEND' as const },
      { status, cadence: 'QUARTERLY' as const },
      { status, unitId: units[0] },
      { status, period: periods[0] },
    ]),
    ...ranges,
    ...ranges.flatMap((range) => [
      { ...range, status: 'DISTRIBUTED' as const },
      { ...range, status: 'CANCELLED' as const },
      { ...range, status: 'PENDING' as const },
    ]),
    // Only distribution_counts answers these.
    { type: 'DIVIDEND', unitId: units[0] },
    { unitId: units[1], period: periods[0] },
    { status: 'DISTRIBUTED', type: 'RENTAL_INCOME', unitId: units[0], period: periods[1] },
    { ...ranges[2], type: 'RENTAL_INCOME' },
    { ...ranges[2], unitId: units[0], status: 'DISTRIBUTED' },
    { cadence: 'QUARTERLY', unitId: units[0] },
    { ...ranges[2], cadence: 'QUARTERLY' },
    // A range not on whole UTC days (not reachable through the API's Date scalars).
    { from: new Date(first.getTime() + 3_600_000) },
  ];
}

/** The filter as Prisma's where: the payment date is the paid time, else the scheduled date at 00:00 UTC. */
function whereOf(f: DistributionFilterInput): Prisma.DistributionWhereInput {
  const to = f.to && new Date(f.to.getTime() + DAY_MS);
  const range = { gte: f.from ?? undefined, lt: to ?? undefined };
  // A scheduled date (00:00 UTC) is in [from, to) when its day is: the dates' own bounds, rounded up.
  const dayRange = { gte: f.from && utcDay(new Date(f.from.getTime() + DAY_MS - 1)), lt: to && utcDay(new Date(to.getTime() + DAY_MS - 1)) };
  return {
    status: f.status ?? undefined,
    type: f.profitKind ?? f.type ?? undefined,
    cadence: f.cadence ?? undefined,
    unitId: f.unitId ?? undefined,
    period: f.period ?? undefined,
    ...(f.from || to
      ? { OR: [{ distributedAt: range }, { distributedAt: null, scheduledFor: { gte: dayRange.gte ?? undefined, lt: dayRange.lt ?? undefined } }] }
      : {}),
  };
}

/** The kept tables match the rows, and every total the service answers matches COUNT(*). */
async function expectExactTotals(): Promise<void> {
  const prisma = t.db.prisma;
  expect(await prisma.$queryRawUnsafe(COUNT_MISMATCHES)).toEqual([]);
  expect(await prisma.$queryRawUnsafe(TOTAL_MISMATCHES)).toEqual([]);
  for (const filter of await filtersOfEveryShape()) {
    const { pageInfo } = await t.services.distributions.list(staff, filter, 1, 1);
    expect({ filter, total: pageInfo.total }).toEqual({ filter, total: await prisma.distribution.count({ where: whereOf(filter) }) });
  }
}

/** Declarations without payouts, so their rows may be deleted and inserted again. */
async function openDeclarations(take: number) {
  return t.db.prisma.distributionDeclaration.findMany({
    where: { status: { in: ['PENDING', 'APPROVED'] } },
    select: { id: true, unitId: true },
    orderBy: { id: 'asc' },
    take,
  });
}

it('keeps every staff total equal to COUNT(*) after concurrent inserts, updates, deletes and a rollback', async () => {
  const prisma = t.db.prisma;
  const declarations = await openDeclarations(10);
  expect(declarations.length).toBeGreaterThanOrEqual(5);
  const rowsOf = (declarationId: number) => prisma.distribution.findMany({ where: { declarationId } });
  const paidAt = new Date('2026-10-31T10:00:00Z');

  const writers = declarations.map(async ({ id }, i) => {
    const rows = await rowsOf(id);
    switch (i % 5) {
      case 0: // delete and insert again under another status and a payment date
        return prisma.$transaction(async (tx) => {
          await tx.distribution.deleteMany({ where: { declarationId: id } });
          await tx.distribution.createMany({ data: rows.map(({ id: _id, ...r }) => ({ ...r, status: 'DISTRIBUTED' as const, distributedAt: paidAt })) });
        });
      case 1: // move every row to another status
        return prisma.distribution.updateMany({ where: { declarationId: id }, data: { status: 'CANCELLED' } });
      case 2: // delete half
        return prisma.distribution.deleteMany({ where: { declarationId: id, id: { in: rows.filter((_, k) => k % 2 === 0).map((r) => r.id) } } });
      case 3: // pay on another day, then change nothing counted
        return prisma.$transaction(async (tx) => {
          await tx.distribution.updateMany({ where: { declarationId: id }, data: { status: 'DISTRIBUTED', distributedAt: new Date('2026-11-01T23:59:59Z') } });
          await tx.distribution.updateMany({ where: { declarationId: id }, data: { updatedAt: new Date() } });
        });
      default: // a transaction that changes rows, then rolls back
        return prisma
          .$transaction(async (tx) => {
            await tx.distribution.deleteMany({ where: { declarationId: id } });
            throw new Error('roll back');
          })
          .catch((err: Error) => expect(err.message).toBe('roll back'));
    }
  });
  await Promise.all(writers);

  await expectExactTotals();
  const sample = await prisma.distribution.findFirstOrThrow({ where: { status: 'DISTRIBUTED' }, orderBy: { id: 'asc' } });
  // Through the API as well: the Date scalars' whole days.
  for (const [filter, where] of [
    [{}, {}],
    [{ status: 'CANCELLED' }, { status: 'CANCELLED' }],
    [
      { unitId: sample.unitId, status: 'DISTRIBUTED' },
      { unitId: sample.unitId, status: 'DISTRIBUTED' },
    ],
    [{ from: '2026-10-31', to: '2026-11-01' }, { distributedAt: { gte: new Date('2026-10-31T00:00:00Z'), lt: new Date('2026-11-02T00:00:00Z') } }],
  ] as [Record<string, unknown>, Prisma.DistributionWhereInput][])
    expect({ filter, total: await staffTotal(filter) }).toEqual({ filter, total: await prisma.distribution.count({ where }) });
});

it('keeps the counts right when the same rows are written by competing transactions', async () => {
  const prisma = t.db.prisma;
  const { id } = await prisma.distributionDeclaration.findFirstOrThrow({ where: { status: 'PENDING' }, select: { id: true }, orderBy: { id: 'desc' } });
  // Both wait on each other's row locks; the second applies its change to the first's result.
  await Promise.all([
    prisma.distribution.updateMany({ where: { declarationId: id }, data: { status: 'APPROVED' } }),
    prisma.distribution.updateMany({ where: { declarationId: id }, data: { status: 'CANCELLED' } }),
  ]);
  await expectExactTotals();
});

it('commits transactions whose statements change the same counters in opposite orders (no deadlock)', async () => {
  const prisma = t.db.prisma;
  const open = await openDeclarations(20);
  const a = open[0];
  const b = open.find((d) => d.unitId !== a.unitId);
  if (!b) throw new Error('two open declarations on different units expected in the seed');
  const [rowsA, rowsB] = await Promise.all([a, b].map(({ id }) => prisma.distribution.findMany({ where: { declarationId: id }, orderBy: { id: 'asc' } })));
  expect(Math.min(rowsA.length, rowsB.length)).toBeGreaterThanOrEqual(2);
  await prisma.distribution.deleteMany({ where: { declarationId: { in: [a.id, b.id] } } });
  const data = (rows: typeof rowsA, half: number) => rows.filter((_, k) => k % 2 === half).map(({ id: _id, ...r }) => r);

  // T1 writes A's counters, then B's; T2, started once T1 holds A's, writes B's, then A's. With
  // counter rows locked per statement, T2 would hold B's while T1 waits for them, and then wait for
  // A's: a deadlock, and one of them aborted.
  let t1HoldsA!: () => void;
  const t1Started = new Promise<void>((resolve) => (t1HoldsA = resolve));
  let pidKnown!: (pid: number) => void;
  const t2Pid = new Promise<number>((resolve) => (pidKnown = resolve));
  let t2PastFirst = false;
  /** T2 has written its first rows, or waits for a lock (PGlite runs one transaction at a time: T2 has not begun). */
  const t2WroteOrWaits = async () => {
    if (t.pglite) return;
    const pid = await t2Pid;
    while (!t2PastFirst) {
      const [{ waiting }] = await prisma.$queryRaw<{ waiting: boolean }[]>`SELECT cardinality(pg_blocking_pids(${pid}::int)) > 0 AS waiting`;
      if (waiting) return;
    }
  };
  const t1 = prisma.$transaction(async (tx) => {
    await tx.distribution.createMany({ data: data(rowsA, 0) });
    t1HoldsA();
    await t2WroteOrWaits();
    await tx.distribution.createMany({ data: data(rowsB, 0) });
  });
  const t2 = t1Started.then(() =>
    prisma.$transaction(async (tx) => {
      const [{ pid }] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
      pidKnown(pid);
      await tx.distribution.createMany({ data: data(rowsB, 1) });
      t2PastFirst = true;
      await tx.distribution.createMany({ data: data(rowsA, 1) });
    }),
  );
  await Promise.all([t1, t2]);
  expect(await prisma.distribution.count({ where: { declarationId: { in: [a.id, b.id] } } })).toBe(rowsA.length + rowsB.length);
  await expectExactTotals();
});

it('empties the counts with the table, and counts again from zero', async () => {
  const prisma = t.db.prisma;
  const declaration = await prisma.distributionDeclaration.findFirstOrThrow({ where: { status: 'PENDING' }, select: { id: true } });
  const rows = await prisma.distribution.findMany({ where: { declarationId: declaration.id } });
  await t.sqlAs('owner', 'TRUNCATE distributions CASCADE'); // the owner's: the gateway's role may not truncate
  expect(await staffTotal({})).toBe(0);
  expect(await prisma.distributionCount.count()).toBe(0);
  expect(await prisma.distributionTotal.count()).toBe(0);
  await expectExactTotals();

  await prisma.distribution.createMany({ data: rows.map(({ id: _id, ...r }) => r) });
  expect(await staffTotal({})).toBe(rows.length);
  await expectExactTotals();
});
