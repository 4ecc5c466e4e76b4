import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../src/db/database';
import { MIGRATIONS_DIR, MIGRATION_LOCK, applyMigrations, migrateDatabase } from '../src/db/migrate';
import { fromRoot } from '../src/platform/paths';
import { childDatabase } from './support/entry-process';
import { TEMPLATE_INFO_ENV, withDatabase, type TemplateInfo } from './support/template';
import { budget } from './support/time-budget';

const migrationNames = () =>
  readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();

describe('migrations through the WASM schema engine', () => {
  // Two databases are what the regression needs (a second migration in one process once corrupted the
  // WASM engine); each fresh PGlite plus the full migration history takes 10–25 s on a busy 2-core machine.
  it(
    'migrate several fresh databases in one process, and a second run applies nothing',
    async () => {
      for (let i = 0; i < 2; i++) {
        const pglite = new PGlite();
        const db = await openDatabase({ pglite });
        expect(await applyMigrations(db.adapterFactory)).toEqual(migrationNames());
        expect(await applyMigrations(db.adapterFactory)).toEqual([]);
        const recorded = await db.prisma.$queryRaw<
          Array<{ migration_name: string }>
        >`SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name`;
        expect(recorded.map((r) => r.migration_name)).toEqual(migrationNames());
        await db.close();
        await pglite.close();
      }
    },
    budget(180_000),
  );
});

describe('a finished migration', () => {
  // The engine's glue sets timers it never clears (a 10 s lock timeout, set even when nothing is
  // pending): `npm run migrate` waited them out before exiting. Checked in a process of its own, where
  // no test runner keeps timers, on a copy of the migrated test template.
  it(
    'leaves no timer running once the database is closed',
    async () => {
      const info = JSON.parse(process.env[TEMPLATE_INFO_ENV]!) as TemplateInfo;
      const copy = info.kind === 'postgres' ? await childDatabase('', 'migrate_timers') : undefined;
      const script = `
      const { readFileSync } = require('node:fs');
      const { PGlite } = require('@electric-sql/pglite');
      const { openDatabase } = require('./src/db/database');
      const { applyMigrations } = require('./src/db/migrate');
      (async () => {
        const url = process.env.DATABASE_URL;
        const pglite = url ? undefined : await PGlite.create({ loadDataDir: new Blob([readFileSync(process.env.TEMPLATE_TARBALL)]) });
        const db = await openDatabase(url ? { databaseUrl: url, poolSize: 1 } : { pglite });
        const applied = await applyMigrations(db.adapterFactory);
        await db.close();
        await pglite?.close();
        console.log(JSON.stringify({ applied, resources: process.getActiveResourcesInfo() }));
      })();`;
      try {
        const { stdout } = await promisify(execFile)(process.execPath, ['-r', fromRoot('scripts/ts-register.cjs'), '-e', script], {
          cwd: fromRoot(),
          env: { ...process.env, DATABASE_URL: copy?.url ?? '', TEMPLATE_TARBALL: info.location },
        });
        const { applied, resources } = JSON.parse(stdout) as { applied: string[]; resources: string[] };
        expect(applied).toEqual([]);
        expect(resources).not.toContain('Timeout');
      } finally {
        await copy?.drop();
      }
    },
    budget(120_000),
  );
});

describe('connections the schema engine opens', () => {
  const serverUrl = process.env.TEST_DATABASE_URL;

  it(
    serverUrl ? 'are closed when migrating is done (PostgreSQL: the database can be dropped at once)' : 'leave the shared PGlite usable (PGlite)',
    async () => {
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
    },
    budget(120_000),
  );
});

// Several migrate jobs (or instances migrating at start) against one PostgreSQL database at once:
// only a database server has concurrent sessions, so these run on PostgreSQL only.
const serverUrl = process.env.TEST_DATABASE_URL;
if (serverUrl) {
  describe('the migration lock (PostgreSQL)', () => {
    let admin: import('pg').Client;
    let url: string;
    const name = `gateway_migrate_lock_${process.pid}`;
    beforeEach(async () => {
      const { Client } = await import('pg');
      admin = new Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${name}`);
      url = withDatabase(serverUrl, name);
    });
    afterEach(async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    });

    it('three migrators at once on a fresh database (each its own pool and lock session) all succeed and the schema is applied once', async () => {
      const dbs = await Promise.all([1, 2, 3].map(() => openDatabase({ databaseUrl: url, poolSize: 2 })));
      try {
        const applied = await Promise.all(dbs.map((db) => migrateDatabase(db)));
        expect(applied.filter((names) => names.length)).toEqual([migrationNames()]);
        const rows = await dbs[0].prisma.$queryRaw<Array<{ migration_name: string }>>`SELECT migration_name FROM _prisma_migrations ORDER BY migration_name`;
        expect(rows.map((r) => r.migration_name)).toEqual(migrationNames());
      } finally {
        await Promise.all(dbs.map((db) => db.close()));
      }
    });

    it('a migrator waits on a dedicated session while another holds the lock, then finds its work', async () => {
      const { Client } = await import('pg');
      const holder = new Client({ connectionString: url });
      await holder.connect();
      await holder.query('SELECT pg_advisory_lock(hashtext($1))', [MIGRATION_LOCK]);
      const db = await openDatabase({ databaseUrl: url, poolSize: 1 });
      let waited = false;
      const migrating = migrateDatabase(db, () => void (waited = true));
      // Bounded poll until the migrator has found the lock taken: it then asks again on its own
      // session, between statements (never queued in one, which would hold a snapshot).
      const sessions = async () =>
        (await holder.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'gateway-migration-lock'`)).rows[0].n;
      for (const deadline = Date.now() + 10_000; Date.now() < deadline && !waited;) await new Promise((r) => setTimeout(r, 10));
      expect(waited).toBe(true);
      expect(await sessions()).toBe(1);
      expect((await holder.query(`SELECT to_regclass('_prisma_migrations') AS t`)).rows[0].t).toBeNull();
      await holder.end(); // the session ends, the lock goes with it
      expect(await migrating).toEqual(migrationNames());
      await db.close();
    });
  });
}
