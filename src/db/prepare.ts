import type { Logger } from 'pino';
import type { Config } from '../config';
import { openDatabase, type Database } from './database';
import { applyMigrations, pendingMigrations, withMigrationLock } from './migrate';
import { demoAccountsWithPublicPassword, isSeeded, seedDemoData } from './seed';

/** Start-up stops here: the message is the one log line that says why and what to do. */
export class StartupRefused extends Error {}

/** How often an instance that does not migrate looks again for the migrate job's work. */
const MIGRATED_POLL_MS = 2000;

/**
 * Start-up, before the gateway reports ready:
 * 1. migrations: applied here when MIGRATE_ON_START (development's default), otherwise the one-shot
 *    `npm run migrate` job applies them and this instance waits, not ready, until it has;
 * 2. demo data: loaded once into an empty database when SEED_ON_START (development only);
 * 3. production refuses a database where the demo logins still accept the public password, unless
 *    ALLOW_DEMO_ACCOUNTS=true (a staging choice, logged as a warning).
 * Steps 1 and 2 run under the migration lock, so instances starting together take turns.
 */
export async function prepareDatabase(db: Database, config: Config, logger: Logger): Promise<void> {
  if (!config.migrateOnStart) await untilMigrated(db, logger);
  if (config.migrateOnStart || config.seedOnStart) {
    await withMigrationLock(
      db,
      async () => {
        if (config.migrateOnStart) {
          // The WASM schema engine stays resident once loaded (src/db/migrate.ts): ~10-30 MB that a
          // restart against an up-to-date database does not need.
          const applied = (await pendingMigrations(db)).length ? await applyMigrations(db.adapterFactory) : [];
          logger.info({ applied }, applied.length ? 'migrations applied' : 'database schema up to date');
        }
        if (config.seedOnStart && !(await isSeeded(db.prisma))) await seed(db, config, logger);
      },
      () => logger.info('waiting for another instance or job to finish migrating'),
    );
  }
  if (config.env === 'production') await checkDemoAccounts(db, config, logger);
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
