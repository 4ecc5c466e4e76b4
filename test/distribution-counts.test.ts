import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

/**
 * Staff distribution lists take their total from distribution_counts, kept by statement triggers
 * (migration distribution_counts). These tests write distributions concurrently, in every way a
 * statement can (insert, update, delete, rolled back), then require every total to equal COUNT(*).
 */
let t: TestGateway;
let admin: string;

beforeAll(async () => {
  t = await startTestGateway();
  admin = await t.token(DEMO_EMAILS.admin);
});
afterAll(() => t.close());

const LIST = `query($filter: DistributionFilter) { distributions(perPage: 1, filter: $filter) { pageInfo { total } } }`;

/** Per combination, the trigger-kept count next to COUNT(*); only rows where they differ. */
const MISMATCHES = `
  SELECT * FROM (
    SELECT unit_id, period, type::text, status::text, COALESCE(distributed_at, '-infinity') AS paid, count(*)::int AS actual FROM distributions GROUP BY 1, 2, 3, 4, 5
  ) a FULL JOIN (
    SELECT unit_id, period, type::text, status::text, COALESCE(distributed_at, '-infinity') AS paid, sum(n)::int AS kept FROM distribution_counts GROUP BY 1, 2, 3, 4, 5
  ) k USING (unit_id, period, type, status, paid)
  WHERE COALESCE(actual, 0) <> COALESCE(kept, 0)`;

async function staffTotal(filter: Record<string, unknown>): Promise<number> {
  const res = await t.gql<{ distributions: { pageInfo: { total: number } } }>(LIST, { filter }, admin);
  if (!res.data) throw new Error(JSON.stringify(res.errors));
  return res.data.distributions.pageInfo.total;
}

it('keeps every staff total equal to COUNT(*) after concurrent inserts, updates, deletes and a rollback', async () => {
  const prisma = t.db.prisma;
  // Declarations without payouts, so their rows may be deleted and inserted again.
  const declarations = await prisma.distributionDeclaration.findMany({
    where: { status: { in: ['PENDING', 'APPROVED'] } },
    select: { id: true },
    orderBy: { id: 'asc' },
    take: 8,
  });
  expect(declarations.length).toBeGreaterThanOrEqual(4);
  const rowsOf = (declarationId: number) => prisma.distribution.findMany({ where: { declarationId } });
  const paidAt = new Date('2026-10-31T10:00:00Z');

  const writers = declarations.map(async ({ id }, i) => {
    const rows = await rowsOf(id);
    switch (i % 4) {
      case 0: // delete and insert again under another status and a payment date
        return prisma.$transaction(async (tx) => {
          await tx.distribution.deleteMany({ where: { declarationId: id } });
          await tx.distribution.createMany({ data: rows.map(({ id: _id, ...r }) => ({ ...r, status: 'DISTRIBUTED' as const, distributedAt: paidAt })) });
        });
      case 1: // move every row to another status
        return prisma.distribution.updateMany({ where: { declarationId: id }, data: { status: 'CANCELLED' } });
      case 2: // delete half
        return prisma.distribution.deleteMany({ where: { declarationId: id, id: { in: rows.filter((_, k) => k % 2 === 0).map((r) => r.id) } } });
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

  expect(await prisma.$queryRawUnsafe(MISMATCHES)).toEqual([]);
  const sample = await prisma.distribution.findFirstOrThrow({ where: { status: 'DISTRIBUTED' }, orderBy: { id: 'asc' } });
  const filters: [Record<string, unknown>, object][] = [
    [{}, {}],
    [{ status: 'CANCELLED' }, { status: 'CANCELLED' }],
    [{ status: 'DISTRIBUTED' }, { status: 'DISTRIBUTED' }],
    [{ type: sample.type }, { type: sample.type }],
    [{ unitId: sample.unitId }, { unitId: sample.unitId }],
    [{ period: sample.period }, { period: sample.period }],
    [
      { unitId: sample.unitId, status: 'DISTRIBUTED' },
      { unitId: sample.unitId, status: 'DISTRIBUTED' },
    ],
    [{ from: '2026-10-31', to: '2026-10-31' }, { distributedAt: { gte: new Date('2026-10-31T00:00:00Z'), lt: new Date('2026-11-01T00:00:00Z') } }],
  ];
  for (const [filter, where] of filters)
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
  expect(await prisma.$queryRawUnsafe(MISMATCHES)).toEqual([]);
  expect(await staffTotal({ status: 'PENDING' })).toBe(await prisma.distribution.count({ where: { status: 'PENDING' } }));
});

it('empties the counts with the table', async () => {
  await t.db.prisma.$executeRawUnsafe('TRUNCATE distributions CASCADE');
  expect(await staffTotal({})).toBe(0);
  expect(await t.db.prisma.distributionCount.count()).toBe(0);
});
