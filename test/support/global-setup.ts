import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { Client } from 'pg';
import { openDatabase } from '../../src/db/database';
import { applyMigrations, migrateDatabase } from '../../src/db/migrate';
import { seedDemoData } from '../../src/db/seed';
import { TEMPLATE_INFO_ENV, TEST_ROLES, TEST_SEED, asRole, withDatabase, type TemplateInfo } from './template';
import { cachedTemplate, storeTemplate, templateKey } from './template-cache';

/**
 * Migrates (through the same WASM schema engine as production) and seeds one template database.
 * PGlite: dumped to a tarball, kept between runs while its sources are unchanged. PostgreSQL (TEST_DATABASE_URL): a database used as TEMPLATE.
 */
export default async function globalSetup(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  let info: TemplateInfo;
  if (url) {
    const name = `gateway_tpl_${process.pid}`;
    const admin = new Client({ connectionString: url });
    await admin.connect();
    await ensureTestRoles(admin);
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name} OWNER ${TEST_ROLES.owner}`);
    await admin.end();
    // As production: migrated (and seeded) by the owner, which then grants the runtime role.
    const db = await openDatabase({ databaseUrl: asRole(withDatabase(url, name), TEST_ROLES.owner), poolSize: 2 });
    await migrateDatabase(db, undefined, { role: TEST_ROLES.runtime });
    await seedDemoData(db.prisma, TEST_SEED);
    await db.close();
    info = { kind: 'postgres', location: name, serverUrl: url };
  } else {
    // The PGlite template is kept between runs, keyed by everything that makes it (template-cache.ts):
    // building it (migrations and seed in WASM) is most of a fast-tier run.
    const key = templateKey(TEST_SEED);
    let location = cachedTemplate(key);
    if (!existsSync(location)) {
      const pglite = new PGlite();
      const db = await openDatabase({ pglite });
      await applyMigrations(db.adapterFactory);
      await seedDemoData(db.prisma, TEST_SEED);
      await db.close();
      const dump = await pglite.dumpDataDir('none');
      location = await storeTemplate(key, new Uint8Array(await dump.arrayBuffer()));
      await pglite.close();
    }
    info = { kind: 'pglite', location };
  }
  process.env[TEMPLATE_INFO_ENV] = JSON.stringify(info);
}

/** The two login roles, NOSUPERUSER; several runs may create them at once (the loser's error is ignored). */
async function ensureTestRoles(admin: Client): Promise<void> {
  for (const role of Object.values(TEST_ROLES)) {
    const exists = (await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role])).rowCount;
    if (exists) continue;
    await admin.query(`CREATE ROLE ${role} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE`).catch((err: { code?: string }) => {
      if (err.code !== '42710' && err.code !== '23505') throw err; // created meanwhile by another run
    });
  }
}
