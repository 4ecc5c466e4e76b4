/**
 * Operator command (`npm run migrate`): apply pending migrations to DATABASE_URL (or the embedded
 * PGlite under DATA_DIR), under the migration lock, so several jobs may run at once.
 */
import { loadConfig } from '../src/platform/config';
import { openDatabase } from '../src/db/database';
import { migrateDatabase } from '../src/db/migrate';
import { runCommand } from './command';

runCommand(async () => {
  const config = loadConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const applied = await migrateDatabase(db, () => console.log('waiting for another migration to finish…'));
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database schema up to date');
  } finally {
    await db.close();
  }
});
