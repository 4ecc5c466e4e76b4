import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { Client } from 'pg';
import { openDatabase } from '../../src/db/database';
import { applyMigrations } from '../../src/db/migrate';
import { seedDemoData } from '../../src/db/seed';
import { TEMPLATE_INFO_ENV, TEST_SEED, withDatabase, type TemplateInfo } from './template';
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
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const db = await openDatabase({ databaseUrl: withDatabase(url, name), poolSize: 2 });
    await applyMigrations(db.adapterFactory);
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
