import type { Logger } from 'pino';
import type { Config } from '../config';
import { openDatabase, type Database } from './database';
import { applyMigrations } from './migrate';
import { isSeeded, seedDemoData } from './seed';

/** Start-up: apply pending migrations, then load the demo data set once (unless SEED_ON_START=false). */
export async function prepareDatabase(db: Database, config: Config, logger: Logger): Promise<void> {
  const applied = await applyMigrations(db.adapterFactory);
  logger.info({ applied }, applied.length ? 'migrations applied' : 'database schema up to date');
  if (!config.seedOnStart || (await isSeeded(db.prisma))) return;
  const started = Date.now();
  // One long transaction with work between statements: on PostgreSQL it runs on a connection without
  // the request timeouts (statement, idle in transaction) that would cut it short on a slow machine.
  const seedDb = db.kind === 'postgres' && config.databaseUrl ? await openDatabase({ databaseUrl: config.databaseUrl, poolSize: 1, logger }) : db;
  try {
    const summary = await seedDemoData(seedDb.prisma, { investors: config.seedSize });
    logger.info({ summary, ms: Date.now() - started }, 'demo data loaded');
  } finally {
    if (seedDb !== db) await seedDb.close();
  }
}
