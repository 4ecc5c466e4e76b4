import { readdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../src/db/database';
import { MIGRATIONS_DIR, applyMigrations } from '../src/db/migrate';

const migrationNames = () => readdirSync(MIGRATIONS_DIR, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

describe('migrations through the WASM schema engine', () => {
  it('migrate several fresh databases in one process, and a second run applies nothing', async () => {
    for (let i = 0; i < 3; i++) {
      const pglite = new PGlite();
      const db = await openDatabase({ pglite });
      expect(await applyMigrations(db.adapterFactory)).toEqual(migrationNames());
      expect(await applyMigrations(db.adapterFactory)).toEqual([]);
      const recorded = await db.prisma.$queryRaw<Array<{ migration_name: string }>>`SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name`;
      expect(recorded.map((r) => r.migration_name)).toEqual(migrationNames());
      await db.close();
      await pglite.close();
    }
  });
});

describe('connections the schema engine opens', () => {
  const serverUrl = process.env.TEST_DATABASE_URL;

  it(serverUrl ? 'are closed when migrating is done (PostgreSQL: the database can be dropped at once)' : 'leave the shared PGlite usable (PGlite)', async () => {
    if (!serverUrl) {
      const pglite = new PGlite();
      const db = await openDatabase({ pglite });
      await applyMigrations(db.adapterFactory);
      expect(await db.prisma.user.count()).toBe(0);
      await db.close();
      await pglite.close();
      return;
    }
    const { Client } = await import('pg');
    const admin = new Client({ connectionString: serverUrl });
    await admin.connect();
    const name = `gateway_migrate_${process.pid}`;
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const db = await openDatabase({ databaseUrl: url.toString(), poolSize: 1 });
    await applyMigrations(db.adapterFactory);
    await db.close();
    // Without FORCE, DROP DATABASE (like CREATE DATABASE … TEMPLATE) fails while another session stays
    // on the database; PostgreSQL gives closing sessions up to 5 s, node-postgres idle pools linger 10 s.
    await expect(admin.query(`DROP DATABASE ${name}`)).resolves.toBeDefined();
    await admin.end();
  });
});
