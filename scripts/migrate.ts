/** Operator command: apply pending migrations to DATABASE_URL (or the embedded PGlite under DATA_DIR). */
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/database';
import { applyMigrations } from '../src/db/migrate';

async function main(): Promise<void> {
  const config = loadConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const applied = await applyMigrations(db.adapterFactory);
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database schema up to date');
  } finally {
    await db.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
