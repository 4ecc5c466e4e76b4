/**
 * Operator command (`npm run migrate`): apply pending migrations as MIGRATE_DATABASE_URL's owner (or
 * DATABASE_URL's role, or the embedded PGlite under DATA_DIR), under the migration lock, so several
 * jobs may run at once; then, where the two URLs name two roles, grant DATABASE_URL's role exactly
 * what src/db/grants.ts declares (docs/operations.md "Database roles").
 */
import { loadConfig } from '../src/platform/config';
import { openDatabase } from '../src/db/database';
import { runtimeGrantOf } from '../src/db/grants';
import { migrateDatabase } from '../src/db/migrate';
import { runCommand } from './command';

runCommand(async () => {
  const config = loadConfig();
  const db = await openDatabase({ databaseUrl: config.migrateDatabaseUrl ?? config.databaseUrl, dataDir: config.dataDir });
  try {
    const grant = runtimeGrantOf(config, (role, { granted, revoked }) =>
      console.log(
        `runtime role ${role}: ${granted.length || revoked.length ? `${granted.length} grants made, ${revoked.length} revoked` : 'grants up to date'}`,
      ),
    );
    const applied = await migrateDatabase(db, () => console.log('waiting for another migration to finish…'), grant);
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database schema up to date');
  } finally {
    await db.close();
  }
});
