import type { Logger } from 'pino';
import type { Config } from '../platform/config';
import { openDatabase, type Database } from './database';
import { runtimeGrantOf } from './grants';
import { migrateDatabase, ownerDatabase, pendingMigrations, withMigrationLock } from './migrate';
import { demoAccountsWithPublicPassword, isSeeded, seedDemoData } from './seed';

/** Start-up stops here: the message is the one log line that says why and what to do. */
export class StartupRefused extends Error {}

/** How often an instance that does not migrate looks again for the migrate job's work. */
const MIGRATED_POLL_MS = 2000;

/** Waiting for the database at start: the first retry after this long, doubling up to the cap. */
const WAIT_FIRST_RETRY_MS = 250;
const WAIT_MAX_RETRY_MS = 5000;

/**
 * Start-up, before the gateway reports ready:
 * 0. the database answers: an unreachable one (a server still starting, a failover) is tried again
 *    with back-off for DATABASE_WAIT_SECONDS, one log line per failed attempt, then start-up stops;
 * 1. migrations: applied here when MIGRATE_ON_START (development's default), otherwise the one-shot
 *    `npm run migrate` job applies them and this instance waits, not ready, until it has;
 * 2. demo data: loaded once into an empty database when SEED_ON_START (development only);
 * 3. production refuses a database where the demo logins still accept the public password, unless
 *    ALLOW_DEMO_ACCOUNTS=true (a staging choice, logged as a warning).
 * Steps 1 and 2 run under the migration lock, so instances starting together take turns; step 1 as the
 *    owner (MIGRATE_DATABASE_URL) when there are two roles, granting the runtime role afterwards.
 */
export async function prepareDatabase(db: Database, config: Config, logger: Logger): Promise<void> {
  await untilReachable(db, config, logger);
  if (!config.migrateOnStart) await untilMigrated(db, logger);
  const onWait = () => logger.info('waiting for another instance or job to finish migrating');
  if (config.migrateOnStart) {
    const owner = await ownerDatabase(db, config.migrateDatabaseUrl);
    try {
      const grant = runtimeGrantOf(config, (role, changes) => logger.info({ role, ...changes }, 'runtime role granted'));
      const applied = await migrateDatabase(owner, onWait, grant);
      logger.info({ applied }, applied.length ? 'migrations applied' : 'database schema up to date');
    } finally {
      if (owner !== db) await owner.close();
    }
  }
  if (config.seedOnStart) {
    await withMigrationLock(
      db,
      async () => {
        if (!(await isSeeded(db.prisma))) await seed(db, config, logger);
      },
      onWait,
    );
  }
  if (config.env === 'production') await checkDemoAccounts(db, config, logger);
}

async function untilReachable(db: Database, config: Config, logger: Logger): Promise<void> {
  const deadline = Date.now() + config.databaseWaitSeconds * 1000;
  for (let attempt = 1, retryMs = WAIT_FIRST_RETRY_MS; ; attempt++, retryMs = Math.min(retryMs * 2, WAIT_MAX_RETRY_MS)) {
    try {
      // Bounded even with DB_CONNECT_TIMEOUT_MS=0: a partitioned server must not hold the wait forever.
      await db.ping(config.dbConnectTimeoutMs || WAIT_MAX_RETRY_MS);
      if (attempt > 1) logger.info({ attempts: attempt }, 'database reachable');
      return;
    } catch (err) {
      const reason = err instanceof Error ? err.message || (err as { code?: string }).code || err.name : String(err);
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new StartupRefused(
          `database unreachable after ${attempt} attempts in ${config.databaseWaitSeconds} s (DATABASE_WAIT_SECONDS): ${reason}; check DATABASE_URL and that the server is up`,
        );
      }
      const wait = Math.min(retryMs, left);
      logger.warn({ attempt, retryInMs: wait, reason }, `database unreachable (${reason}): not ready, trying again in ${wait} ms`);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

async function untilMigrated(db: Database, logger: Logger): Promise<void> {
  let pending = await pendingMigrations(db);
  if (!pending.length) return;
  logger.error({ pending }, `database not migrated (${pending.length} pending): run \`npm run migrate\` or set MIGRATE_ON_START=true; not ready until then`);
  while (pending.length) {
    await new Promise((resolve) => setTimeout(resolve, MIGRATED_POLL_MS));
    pending = await pendingMigrations(db);
  }
  logger.info('database migrated');
}

async function checkDemoAccounts(db: Database, config: Config, logger: Logger): Promise<void> {
  const open = await demoAccountsWithPublicPassword(db.prisma);
  if (!open.length) return;
  if (config.allowDemoAccounts) {
    logger.warn({ accounts: open }, 'demo accounts accept the public demo password (ALLOW_DEMO_ACCOUNTS=true)');
    return;
  }
  throw new StartupRefused(
    `refusing to start: demo accounts (${open.join(', ')}) accept the public demo password in production; delete them or change their passwords, or set ALLOW_DEMO_ACCOUNTS=true on a staging system`,
  );
}

/**
 * One long transaction with work between statements: on PostgreSQL it runs on a connection without
 * the request timeouts (statement, idle in transaction) that would cut it short on a slow machine.
 */
async function seed(db: Database, config: Config, logger: Logger): Promise<void> {
  const started = Date.now();
  const seedDb = db.kind === 'postgres' && config.databaseUrl ? await openDatabase({ databaseUrl: config.databaseUrl, poolSize: 1, logger }) : db;
  try {
    const summary = await seedDemoData(seedDb.prisma, { investors: config.seedSize });
    logger.info({ summary, ms: Date.now() - started }, 'demo data loaded');
  } finally {
    if (seedDb !== db) await seedDb.close();
  }
}
