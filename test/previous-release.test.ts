/**
 * The distribution_cadence migration is an expand (docs/operations.md, "Upgrades"): the release
 * before it, built from its own commit, keeps serving correctly on the migrated database while this
 * release runs beside it on the same database, each writing what the other then reads.
 */
import { execFileSync } from 'node:child_process';
import { DEMO_EMAILS, DEMO_PASSWORD, startTestGateway, type TestGateway } from './support/harness';
import { buildRelease, startRelease, type ReleaseProcess } from '../scripts/release';
import { readRelease } from '../scripts/contract';
import { COUNT_MISMATCHES, TOTAL_MISMATCHES } from './support/distribution-counts';
import { decodeDistribution } from './support/seed-decoders';
import { fromRoot } from '../src/platform/paths';
import { budget } from './support/time-budget';

/** The release before distributions had a cadence and a scheduled date (releases/0.1.0). */
const BEFORE_CADENCE = readRelease(fromRoot(), '0.1.0').commit;

describe('the release before distribution cadences', () => {
  it('is an ancestor of this commit (the clone has the history this file names)', () => {
    expect(() => execFileSync('git', ['-C', fromRoot(), 'merge-base', '--is-ancestor', BEFORE_CADENCE, 'HEAD'])).not.toThrow();
  });
});

// Two processes on one database: PostgreSQL only (the embedded PGlite belongs to one process).
const serverUrl = process.env.TEST_DATABASE_URL;
if (serverUrl) {
  describe('the previous release beside this one on the migrated database (PostgreSQL)', () => {
    const JWT_SECRET = 'previous-release-test-secret-0123456789abcdef';
    let release: { dir: string; remove: () => void };
    let previous: ReleaseProcess;
    let t: TestGateway;
    let databaseUrl = '';

    beforeAll(
      async () => {
        release = buildRelease(BEFORE_CADENCE);
        t = await startTestGateway({ JWT_SECRET }, { databaseUrl: (url) => (databaseUrl = url) });
        previous = await startRelease(
          release.dir,
          {
            NODE_ENV: 'production',
            DATABASE_URL: databaseUrl,
            JWT_SECRET,
            ALLOW_DEMO_ACCOUNTS: 'true',
            AUTH_RATE_LIMIT_PER_MINUTE: '0',
          },
          budget(2 * 60_000),
        );
      },
      budget(5 * 60_000),
    );

    afterAll(async () => {
      await previous?.stop();
      await t?.close();
      release?.remove();
    });

    /** A request to the previous release, as JSON. */
    async function old(path: string, init: { token?: string; body?: unknown } = {}) {
      const res = await fetch(`${previous.url}${path}`, {
        method: init.body === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json', ...(init.token && { authorization: `Bearer ${init.token}` }) },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    }
    const oldToken = async (email: string) => (await old('/api/v1/auth/login', { body: { email, password: DEMO_PASSWORD } })).body.data.access_token as string;
    const oldGql = async (query: string, token: string) => (await old('/graphql', { token, body: { query } })).body;

    /** A unit held by the demo investor (10 %) and one other investor (5 %). */
    async function heldUnit(code: string): Promise<{ unitId: number; investorId: number }> {
      const p = t.db.prisma;
      const category = await p.category.findFirstOrThrow({ orderBy: { id: 'asc' } });
      const investor = await p.investor.findFirstOrThrow({ where: { user: { email: DEMO_EMAILS.investor } } });
      const other = await p.investor.findFirstOrThrow({ where: { id: { not: investor.id } } });
      const unit = await p.unit.create({
        data: {
          code,
          name: `Side by side ${code}`,
          description: 'Fixture',
          location: 'Nowhere',
          categoryId: category.id,
          status: 'FUNDED',
          totalValue: '1000000.00',
          availablePercentage: '85',
          minInvestment: '500.00',
          expectedReturn: '5',
        },
      });
      await p.holding.createMany({
        data: [
          { investorId: investor.id, unitId: unit.id, ownershipPercentage: '10', investedAmount: '100000.00' },
          { investorId: other.id, unitId: unit.id, ownershipPercentage: '5', investedAmount: '50000.00' },
        ],
      });
      return { unitId: unit.id, investorId: investor.id };
    }

    const expectExactCounts = async () => {
      expect(await t.db.prisma.$queryRawUnsafe(COUNT_MISMATCHES)).toEqual([]);
      expect(await t.db.prisma.$queryRawUnsafe(TOTAL_MISMATCHES)).toEqual([]);
    };

    it('serves its own distribution contract from the migrated rows: the kind of profit as type, null until paid', async () => {
      const admin = await oldToken(DEMO_EMAILS.admin);
      const res = await old('/api/v1/distributions?per_page=100', { token: admin });
      expect(res.status).toBe(200);
      expect(res.body.meta.total).toBe(await t.db.prisma.distribution.count());
      for (const d of res.body.data as Array<{ type: string; status: string; distributed_at: string | null }>) {
        expect(['rental_income', 'capital_gain', 'dividend', 'interest']).toContain(d.type);
        expect(d.distributed_at === null).toBe(d.status !== 'distributed');
      }
      // Its payment-date totals still count paid rows only (its keys of distribution_totals).
      const paid = await t.db.prisma.distribution.findFirstOrThrow({ where: { status: 'DISTRIBUTED' }, orderBy: { id: 'desc' } });
      const day = paid.distributedAt!.toISOString().slice(0, 10);
      const ranged = await old(`/api/v1/distributions?from=${day}&to=${day}`, { token: admin });
      const start = new Date(`${day}T00:00:00Z`);
      expect(ranged.body.meta.total).toBe(
        await t.db.prisma.distribution.count({ where: { distributedAt: { gte: start, lt: new Date(start.getTime() + 86_400_000) } } }),
      );
    });

    it('declares, approves and pays through its own mutations; this release reads the rows with a cadence and a date', async () => {
      const { unitId, investorId } = await heldUnit('SBS-OLD');
      const admin = await oldToken(DEMO_EMAILS.admin);
      const declared = await oldGql(
        `mutation { declareDistribution(input: { unitId: ${unitId}, period: "2026-Q3", type: DIVIDEND, grossAmount: "1000.00", feeRate: "0.05" }) { id status } }`,
        admin,
      );
      expect(declared.errors).toBeUndefined();
      const id = declared.data.declareDistribution.id as number;
      const row = await t.db.prisma.distribution.findFirstOrThrow({ where: { declarationId: id, investorId } });
      const today = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000);
      expect(row).toMatchObject({ cadence: 'QUARTERLY', scheduledFor: today, distributedAt: null });
      await expectExactCounts();

      const investor = await t.token(DEMO_EMAILS.investor);
      const pending = await t.http.get(`/api/v1/distributions/${row.id}`).set('authorization', `Bearer ${investor}`);
      expect(decodeDistribution(pending.body.data)).toMatchObject({
        type: 'quarterly',
        status: 'pending',
        distributed_at: `${today.toISOString().slice(0, 10)}T00:00:00+00:00`,
      });

      for (const step of ['approveDistribution', 'distributeDistribution'])
        expect((await oldGql(`mutation { ${step}(id: ${id}) { id } }`, admin)).errors).toBeUndefined();
      const paidRow = await t.db.prisma.distribution.findUniqueOrThrow({ where: { id: row.id } });
      const paid = await t.http.get(`/api/v1/distributions/${row.id}`).set('authorization', `Bearer ${investor}`);
      expect(decodeDistribution(paid.body.data)).toMatchObject({
        status: 'distributed',
        distributed_at: paidRow.distributedAt!.toISOString().slice(0, 19) + '+00:00',
      });
      await expectExactCounts();
    });

    it('reads what this release declares (a monthly cadence on its own date) in its own vocabulary, and pays it', async () => {
      const { unitId, investorId } = await heldUnit('SBS-NEW');
      const admin = await t.token(DEMO_EMAILS.admin);
      const scheduledFor = new Date(Math.floor(Date.now() / 86_400_000 + 12) * 86_400_000).toISOString().slice(0, 10);
      const res = await t.gql<{ declareDistribution: { id: number } }>(
        `mutation { declareDistribution(input: { unitId: ${unitId}, period: "2026-Q4", profitKind: RENTAL_INCOME, cadence: MONTHLY, scheduledFor: "${scheduledFor}", grossAmount: "300.00", feeRate: "0.1" }) { id } }`,
        {},
        admin,
      );
      expect(res.errors).toBeUndefined();
      const declarationId = res.data!.declareDistribution.id;
      const row = await t.db.prisma.distribution.findFirstOrThrow({ where: { declarationId, investorId } });

      const oldInvestor = await oldToken(DEMO_EMAILS.investor);
      const seen = await old(`/api/v1/distributions/${row.id}`, { token: oldInvestor });
      expect(seen.status).toBe(200);
      expect(seen.body.data).toMatchObject({ id: row.id, type: 'rental_income', status: 'pending', distributed_at: null });
      const oldAdmin = await oldToken(DEMO_EMAILS.admin);
      const listed = await oldGql(`{ distributionDeclarations(filter: { unitId: ${unitId} }) { items { id type status } } }`, oldAdmin);
      expect(listed.data.distributionDeclarations.items).toEqual([{ id: declarationId, type: 'RENTAL_INCOME', status: 'PENDING' }]);

      for (const step of ['approveDistribution', 'distributeDistribution'])
        expect((await oldGql(`mutation { ${step}(id: ${declarationId}) { id } }`, oldAdmin)).errors).toBeUndefined();
      const after = await t.db.prisma.distribution.findUniqueOrThrow({ where: { id: row.id } });
      expect(after).toMatchObject({ status: 'DISTRIBUTED', cadence: 'MONTHLY', scheduledFor: new Date(`${scheduledFor}T00:00:00Z`) });
      await expectExactCounts();
    });
  });
}
