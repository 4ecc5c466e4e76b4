import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { Client } from 'pg';
import { openDatabase, type Database } from '../src/db/database';
import { applyMigrations } from '../src/db/migrate';
import { seedDemoData, type SeedOptions } from '../src/db/seed';
import { HORIZON } from '../src/db/seed/time';
import { distributionName } from '../src/domain/distribution-rules';
import type { PrismaClient } from '../src/generated/prisma/client';
import { DistributionCadence, DistributionStatus, DistributionType } from '../src/generated/prisma/enums';
import { startTestGateway, type TestGateway } from './support/harness';
import { TEMPLATE_INFO_ENV, TEST_SEED, clonePrefix, withDatabase, type TemplateInfo } from './support/template';

/**
 * The demo data obeys the services' money rules and schedules its distributions as they would be,
 * checked with SQL aggregates (independently of the TypeScript that produced it): on this run's
 * template (TEST_SEED) and on a fresh database seeded with another seed and size; and a seed number
 * always gives the same data.
 */

/** The name of every (cadence, profit kind), as the service writes it: SQL rows (cadence, type, name). */
const NAMES = Object.values(DistributionCadence)
  .flatMap((cadence) => Object.values(DistributionType).map((kind) => `('${cadence}', '${kind}', '${distributionName(cadence, kind)}')`))
  .join(', ');
/** The demo data's end of time (an instant at 00:00 UTC, so also a date). */
const horizon = new Date(HORIZON).toISOString();

/** Every row of a check query is a violation; each check names what it found. */
const CHECKS: Record<string, string> = {
  'holdings + availability = 100 % per unit': `
    SELECT u.code FROM units u LEFT JOIN holdings h ON h.unit_id = u.id
    GROUP BY u.id HAVING u.available_percentage + COALESCE(SUM(h.ownership_percentage), 0) <> 100`,
  'a unit is FUNDED exactly when nothing is left': `
    SELECT code FROM units WHERE (status = 'FUNDED') <> (available_percentage = 0) AND status IN ('FUNDED', 'AVAILABLE')`,
  'investment share = amount × 100 / total value, rounded down to 6 places': `
    SELECT r.id FROM investment_requests r JOIN units u ON u.id = r.unit_id
    WHERE r.ownership_percentage <> trunc(r.amount * 100 / u.total_value, 6)`,
  'holding = approved investments − approved withdrawals (share and invested amount; ledger = requests)': `
    WITH bought AS (SELECT investor_id, unit_id, SUM(ownership_percentage) AS pct, SUM(amount) AS amount
                    FROM investment_requests WHERE status = 'APPROVED' GROUP BY 1, 2),
         booked AS (SELECT investor_id, unit_id, SUM(amount) AS amount FROM transactions WHERE type = 'INVESTMENT' GROUP BY 1, 2),
         sold AS (SELECT investor_id, unit_id, SUM(ownership_percentage) AS pct, SUM(invested_amount) AS amount
                  FROM withdrawal_requests WHERE status IN ('APPROVED', 'COMPLETED') GROUP BY 1, 2)
    SELECT investor_id, unit_id FROM bought
      FULL JOIN holdings h USING (investor_id, unit_id) LEFT JOIN booked USING (investor_id, unit_id) LEFT JOIN sold USING (investor_id, unit_id)
    WHERE COALESCE(h.ownership_percentage, 0) <> COALESCE(bought.pct, 0) - COALESCE(sold.pct, 0)
       OR COALESCE(h.invested_amount, 0) <> COALESCE(bought.amount, 0) - COALESCE(sold.amount, 0)
       OR COALESCE(booked.amount, 0) <> COALESCE(bought.amount, 0)`,
  'withdrawal payout = share × latest valuation / 100 (approved and completed ones only)': `
    SELECT w.id FROM withdrawal_requests w JOIN units u ON u.id = w.unit_id LEFT JOIN payouts p ON p.withdrawal_request_id = w.id
    WHERE (p.id IS NOT NULL) <> (w.status IN ('APPROVED', 'COMPLETED'))
       OR (p.status = 'PAID') <> (w.status = 'COMPLETED')
       OR p.amount <> round(w.ownership_percentage * COALESCE(
            (SELECT v.value FROM unit_valuations v WHERE v.unit_id = w.unit_id AND v.valued_at <= w.reviewed_at ORDER BY v.valued_at DESC LIMIT 1),
            u.total_value) / 100, 2)`,
  'distribution: fee = gross × fee rate (cents, half up), net = gross − fee': `
    SELECT x.id FROM distributions x JOIN distribution_declarations d ON d.id = x.declaration_id
    WHERE x.fees <> round(x.gross_amount * d.fee_rate, 2) OR x.net_amount <> x.gross_amount - x.fees OR x.status <> d.status`,
  'declaration = Σ its distributions (fees, net) + retained gross; net = gross − fees − retained': `
    SELECT d.id FROM distribution_declarations d JOIN distributions x ON x.declaration_id = d.id
    GROUP BY d.id
    HAVING d.fees <> SUM(x.fees) OR d.net_amount <> SUM(x.net_amount) OR d.gross_amount <> SUM(x.gross_amount) + d.retained_amount
        OR d.net_amount <> d.gross_amount - d.fees - d.retained_amount`,
  "a distributed declaration's payouts sum to its net, one per payable holder; no other payouts": `
    SELECT d.id FROM distribution_declarations d JOIN distributions x ON x.declaration_id = d.id LEFT JOIN payouts p ON p.distribution_id = x.id
    GROUP BY d.id
    HAVING COALESCE(SUM(p.amount), 0) <> CASE WHEN d.status = 'DISTRIBUTED' THEN d.net_amount ELSE 0 END
        OR COUNT(p.id) <> COUNT(*) FILTER (WHERE d.status = 'DISTRIBUTED' AND x.net_amount > 0)`,
  'every payout: one DISTRIBUTION/WITHDRAWAL ledger row of its amount, and one PAYOUT row once paid': `
    SELECT p.id FROM payouts p LEFT JOIN transactions t ON t.payout_id = p.id
    GROUP BY p.id
    HAVING COUNT(*) FILTER (WHERE t.type::text = p.source::text AND t.amount = p.amount) <> 1
        OR COUNT(*) FILTER (WHERE t.type = 'PAYOUT' AND t.amount = p.amount) <> CASE WHEN p.status = 'PAID' THEN 1 ELSE 0 END
        OR COUNT(t.id) <> CASE WHEN p.status = 'PAID' THEN 2 ELSE 1 END`,
  'ledger sums = payout sums, per investor and kind': `
    WITH ledger AS (SELECT investor_id, type::text AS kind, SUM(amount) AS amount FROM transactions WHERE type <> 'INVESTMENT' GROUP BY 1, 2),
         paid AS (SELECT investor_id, source::text AS kind, SUM(amount) AS amount FROM payouts GROUP BY 1, 2
                  UNION ALL SELECT investor_id, 'PAYOUT', SUM(amount) FROM payouts WHERE status = 'PAID' GROUP BY 1)
    SELECT investor_id, kind FROM ledger FULL JOIN paid USING (investor_id, kind) WHERE ledger.amount IS DISTINCT FROM paid.amount`,
  "a distribution is its declaration's cadence and schedule, scheduled from the day declared, paid (only when DISTRIBUTED) on that day or later": `
    SELECT x.id FROM distributions x JOIN distribution_declarations d ON d.id = x.declaration_id
    WHERE x.cadence <> d.cadence OR x.scheduled_for <> d.scheduled_for OR x.distributed_at IS DISTINCT FROM d.distributed_at
       OR x.scheduled_for < (x.created_at AT TIME ZONE 'UTC')::date OR d.scheduled_for < (d.created_at AT TIME ZONE 'UTC')::date
       OR (x.distributed_at IS NOT NULL) <> (x.status = 'DISTRIBUTED')
       OR (x.distributed_at AT TIME ZONE 'UTC')::date < x.scheduled_for`,
  'no distribution is declared, scheduled or paid after the horizon': `
    SELECT id FROM distributions WHERE created_at > '${horizon}' OR scheduled_for > '${horizon}'::date OR distributed_at > '${horizon}'`,
  "a paid distribution's ledger row and notification are named as the service names them": `
    WITH names (cadence, type, name) AS (VALUES ${NAMES})
    SELECT 'transaction ' || t.id FROM transactions t JOIN distributions x ON x.id = t.distribution_id JOIN units u ON u.id = x.unit_id
      LEFT JOIN names n ON n.cadence = x.cadence::text AND n.type = x.type::text
    WHERE t.type = 'DISTRIBUTION' AND t.description IS DISTINCT FROM n.name || ' ' || x.period || ' · ' || u.name
    UNION ALL
    SELECT 'notification ' || nt.id FROM notifications nt LEFT JOIN distributions x ON x.id = (nt.data->>'distributionId')::int
      LEFT JOIN payouts p ON p.distribution_id = x.id LEFT JOIN names n ON n.cadence = x.cadence::text AND n.type = x.type::text
    WHERE nt.type = 'DISTRIBUTION_DISTRIBUTED'
      AND (nt.title IS DISTINCT FROM n.name || ' paid'
           OR nt.data IS DISTINCT FROM jsonb_build_object('distributionId', x.id, 'payoutId', p.id, 'unitId', x.unit_id, 'period', x.period, 'cadence', x.cadence))`,
};

async function violations(prisma: PrismaClient): Promise<Record<string, unknown[]>> {
  const found: Record<string, unknown[]> = {};
  for (const [name, sql] of Object.entries(CHECKS)) found[name] = await prisma.$queryRawUnsafe<unknown[]>(sql);
  return found;
}
const none = Object.fromEntries(Object.keys(CHECKS).map((name) => [name, []]));

/** The seed's tables, each as one digest of its rows (the password hash is salted anew each time). */
async function digest(prisma: PrismaClient): Promise<Record<string, string>> {
  const tables = await prisma.$queryRawUnsafe<{ name: string }[]>(
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename <> '_prisma_migrations' AND tablename NOT LIKE 'audit\\_%' ORDER BY 1`,
  );
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await prisma.$queryRawUnsafe<{ md5: string | null; n: number }[]>(
      `SELECT md5(string_agg(r, '|' ORDER BY r)) AS md5, count(*)::int AS n FROM (SELECT (to_jsonb(t) - 'password_hash')::text AS r FROM "${name}" t) s`,
    );
    out[name] = `${row.n}:${row.md5 ?? ''}`;
  }
  return out;
}

/** A new, migrated database seeded with `options` (PostgreSQL: named so the global teardown drops it). */
async function freshlySeeded(options: SeedOptions): Promise<{ db: Database; close(): Promise<void> }> {
  const info = JSON.parse(process.env[TEMPLATE_INFO_ENV] ?? 'null') as TemplateInfo | null;
  let db: Database;
  let pglite: PGlite | undefined;
  if (info?.kind === 'postgres' && info.serverUrl) {
    const name = `${clonePrefix(info)}fresh_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = new Client({ connectionString: info.serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    db = await openDatabase({ databaseUrl: withDatabase(info.serverUrl, name), poolSize: 2 });
  } else {
    pglite = new PGlite();
    db = await openDatabase({ pglite });
  }
  await applyMigrations(db.adapterFactory);
  await seedDemoData(db.prisma, options);
  return {
    db,
    close: async () => {
      await db.close();
      await pglite?.close();
    },
  };
}

describe('seeded data', () => {
  let t: TestGateway;
  let fresh: Awaited<ReturnType<typeof freshlySeeded>>;
  beforeAll(async () => {
    t = await startTestGateway();
    fresh = await freshlySeeded({ investors: 40, seed: 1 });
  });
  afterAll(async () => {
    await t?.close();
    await fresh?.close();
  });

  it('follows the money rules on the test template', async () => {
    expect(await violations(t.db.prisma)).toEqual(none);
  });

  it('follows the money rules on a fresh database with another seed and size', async () => {
    expect(await violations(fresh.db.prisma)).toEqual(none);
    // Not vacuous: every kind of row the checks read is there.
    const [counts] = await fresh.db.prisma.$queryRawUnsafe<Record<string, number>[]>(`
      SELECT (SELECT count(*)::int FROM payouts WHERE status = 'PAID' AND source = 'WITHDRAWAL') AS paid_withdrawals,
             (SELECT count(*)::int FROM payouts WHERE status = 'PENDING' AND source = 'WITHDRAWAL') AS pending_withdrawals,
             (SELECT count(*)::int FROM distribution_declarations WHERE status = 'DISTRIBUTED') AS distributed,
             (SELECT count(*)::int FROM distribution_declarations WHERE status = 'PENDING') AS pending_declarations,
             (SELECT count(*)::int FROM units WHERE status = 'FUNDED') AS funded,
             (SELECT count(*)::int FROM investment_requests WHERE status = 'PENDING') AS pending_investments,
             (SELECT count(*)::int FROM notifications WHERE type = 'DISTRIBUTION_DISTRIBUTED') AS paid_notifications`);
    for (const [kind, n] of Object.entries(counts)) expect([kind, n > 0]).toEqual([kind, true]);
  });

  it('pays on every cadence, in every status, and has distributions of every regular cadence waiting for approval', async () => {
    for (const prisma of [t.db.prisma, fresh.db.prisma]) {
      const rows = await prisma.$queryRawUnsafe<{ cadence: DistributionCadence; status: DistributionStatus }[]>(
        `SELECT DISTINCT cadence::text AS cadence, status::text AS status FROM distributions`,
      );
      expect(new Set(rows.map((r) => r.cadence))).toEqual(new Set(Object.values(DistributionCadence)));
      expect(new Set(rows.map((r) => r.status))).toEqual(new Set(Object.values(DistributionStatus)));
      const pending = rows.filter((r) => r.status === DistributionStatus.PENDING).map((r) => r.cadence);
      expect(pending).toEqual(expect.arrayContaining(Object.values(DistributionCadence).filter((c) => c !== DistributionCadence.SPECIAL)));
    }
  });

  it('is the same data for the same seed, and other data for another seed', async () => {
    const again = await freshlySeeded(TEST_SEED);
    try {
      const template = await digest(t.db.prisma);
      expect(await digest(again.db.prisma)).toEqual(template);
      const other = await digest(fresh.db.prisma);
      for (const table of ['users', 'units', 'distributions', 'payouts', 'transactions']) expect(other[table]).not.toBe(template[table]);
    } finally {
      await again.close();
    }
  });

  it('keeps the demo accounts as they are', async () => {
    const users = await fresh.db.prisma.user.findMany({
      where: { email: { endsWith: '@demo.test' } },
      select: { email: true, name: true, role: true },
      orderBy: { id: 'asc' },
    });
    expect(users).toEqual([
      { email: 'admin@demo.test', name: 'Demo Admin', role: 'ADMIN' },
      { email: 'analyst@demo.test', name: 'Demo Analyst', role: 'ANALYST' },
      { email: 'investor@demo.test', name: 'Demo Investor', role: 'INVESTOR' },
    ]);
    expect(await t.token('investor@demo.test')).toEqual(expect.any(String));
  });
});
