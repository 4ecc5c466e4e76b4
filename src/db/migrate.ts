import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { bindMigrationAwareSqlAdapterFactory, type SqlDriverAdapter, type SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { MigrationList, SchemaEngine } from '@prisma/schema-engine-wasm';
import { Client } from 'pg';
import { fromRoot } from '../platform/paths';
import { openDatabase, type Database } from './database';
import { grantRuntimeRole, type RuntimeGrant } from './grants';

/**
 * Migrations run through Prisma's WASM schema engine (the native one cannot be downloaded here).
 * The folder stays in Prisma's standard format, so `prisma migrate deploy` accepts it too.
 */
export const MIGRATIONS_DIR = fromRoot('prisma', 'migrations');
export const SCHEMA_PATH = fromRoot('prisma', 'schema.prisma');
const FILTERS = { externalTables: [], externalEnums: [] };

// @types/node 20 does not declare the WebAssembly global; this is the one call we make.
interface WasmApi {
  instantiate(bytes: Uint8Array, imports: Record<string, unknown>): Promise<unknown>;
}

// The engine's glue is an ES module; a real dynamic import survives CommonJS compilation this way.
// The source is unique per load of this module: V8 reuses a compiled function of identical source
// together with the dynamic-import host of whoever compiled it first, which under Jest is a test
// file's environment that may already be torn down when the next file migrates.
const importEsm = new Function('specifier', `return import(specifier); // ${process.hrtime.bigint()}`) as (s: string) => Promise<Record<string, unknown>>;

/**
 * The engine's glue module is loaded once per process and keeps pointers into the memory of the WASM
 * instance it was given, so the instance is created once and shared by every engine (a second
 * instance under the same glue corrupts the first one's strings).
 */
let engineClass: Promise<typeof SchemaEngine> | undefined;

/**
 * Timers the engine set that have not fired yet. Its glue never clears one (a 10 s lock timeout
 * outlives every migration), so they are cleared once no engine is running; otherwise a finished
 * `npm run migrate` (or a test run that migrated) stays alive until they fire.
 */
const engineTimers = new Set<NodeJS.Timeout>();
let runningEngines = 0;

/** The glue's imports, with setTimeout replaced by one whose timers are tracked in engineTimers. */
function trackingTimers(glue: Record<string, unknown>): Record<string, unknown> {
  const imports = { ...glue };
  for (const name of Object.keys(glue).filter((n) => n.startsWith('__wbg_setTimeout_'))) {
    imports[name] = (callback: () => void, ms: number) => {
      const timer = setTimeout(() => {
        engineTimers.delete(timer);
        callback();
      }, ms >>> 0);
      engineTimers.add(timer);
      return timer;
    };
  }
  return imports;
}

function loadEngineClass(): Promise<typeof SchemaEngine> {
  engineClass ??= (async () => {
    const pkgDir = path.dirname(require.resolve('@prisma/schema-engine-wasm'));
    const glue = await importEsm(pathToFileURL(path.join(pkgDir, 'schema_engine_bg.js')).href);
    const bytes = await readFile(path.join(pkgDir, 'schema_engine_bg.wasm'));
    const { instance } = (await (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly.instantiate(bytes, {
      './schema_engine_bg.js': trackingTimers(glue),
    })) as {
      instance: { exports: Record<string, unknown> };
    };
    (glue.__wbg_set_wasm as (exports: unknown) => void)(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return glue.SchemaEngine as typeof SchemaEngine;
  })();
  return engineClass;
}

/**
 * @prisma/adapter-pg runs a migration script by splitting it at every ";", which cuts function
 * bodies ($$ … $$, the audit trail's triggers) apart. node-postgres sends a whole script as one
 * simple-protocol query instead, as Prisma's native engine does; PGlite's adapter already does.
 */
function wholeScripts(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const pg = adapter as SqlDriverAdapter & { client?: { query(sql: string): Promise<unknown> }; onError?(err: unknown): never };
  const { client, onError } = pg;
  if (adapter.adapterName !== '@prisma/adapter-pg' || !client || !onError) return adapter;
  adapter.executeScript = async (script) => {
    try {
      await client.query(script);
    } catch (err) {
      onError(err);
    }
  };
  return adapter;
}

/**
 * Opens an engine on the factory and runs `work`. The engine does not close the connections it
 * opened (with node-postgres, a pool that would linger until its idle timeout), so they are
 * tracked and disposed of here.
 */
async function withEngine<T>(factory: SqlMigrationAwareDriverAdapterFactory, work: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  const opened: SqlDriverAdapter[] = [];
  const track = async (adapter: Promise<SqlDriverAdapter>) => {
    opened.push(wholeScripts(await adapter));
    return opened[opened.length - 1];
  };
  const tracked: SqlMigrationAwareDriverAdapterFactory = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: () => track(factory.connect()),
    connectToShadowDb: () => track(factory.connectToShadowDb()),
  };
  const Engine = await loadEngineClass();
  const schema = await readFile(SCHEMA_PATH, 'utf8');
  runningEngines++;
  try {
    const engine = await Engine.new({ datamodels: [[SCHEMA_PATH, schema]] }, () => undefined, bindMigrationAwareSqlAdapterFactory(tracked));
    try {
      return await work(engine);
    } finally {
      engine.free();
      // allSettled: the engine may already have disposed of some; a second end() is harmless here.
      await Promise.allSettled(opened.map((a) => a.dispose()));
    }
  } finally {
    if (--runningEngines === 0) {
      for (const timer of engineTimers) clearTimeout(timer);
      engineTimers.clear();
    }
  }
}

export async function loadMigrationList(dir = MIGRATIONS_DIR): Promise<MigrationList> {
  const entries = (await readdir(dir, { withFileTypes: true }).catch(() => []))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const lockPath = path.join(dir, 'migration_lock.toml');
  return {
    baseDir: dir,
    lockfile: { path: 'migration_lock.toml', content: await readFile(lockPath, 'utf8').catch(() => null) },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      entries.map(async (name) => ({
        path: name,
        migrationFile: { path: 'migration.sql', content: { tag: 'ok' as const, value: await readFile(path.join(dir, name, 'migration.sql'), 'utf8') } },
      })),
    ),
  };
}

/** Applies pending migrations; returns the names applied (empty when up to date). */
export async function applyMigrations(adapterFactory: SqlMigrationAwareDriverAdapterFactory): Promise<string[]> {
  const migrationsList = await loadMigrationList();
  return withEngine(adapterFactory, async (engine) => (await engine.applyMigrations({ migrationsList, filters: FILTERS })).appliedMigrationNames);
}

/** The advisory lock every migrator (the migrate job, an instance migrating at start) takes first. */
export const MIGRATION_LOCK = 'investment-gateway:migrations';
/** How often a migrator waiting for the lock asks for it again. */
const MIGRATION_LOCK_POLL_MS = 250;

/**
 * Runs `work` holding a PostgreSQL advisory lock on a dedicated connection, so migrate jobs and
 * instances starting at once take turns: the first applies, the others then find nothing to do.
 * (Prisma's engine takes its own lock too, but gives up after 10 s; this one waits, and also covers
 * what start-up does right after migrating.) The lock goes with the session: a crashed holder frees
 * it. PGlite needs none: one process owns its files.
 */
export async function withMigrationLock<T>(db: Database, work: () => Promise<T>, onWait?: () => void): Promise<T> {
  if (db.kind !== 'postgres' || !db.url) return work();
  const client = new Client({ connectionString: db.url, application_name: 'gateway-migration-lock' });
  // Whole life: the lock's session may drop while `work` runs; unheard, its 'error' would end the process.
  let lost: Error | undefined;
  client.on('error', (err) => (lost ??= err));
  await client.connect();
  try {
    // Polled, never waited for in one statement: a session blocked in pg_advisory_lock holds its
    // statement's snapshot, and a CREATE INDEX CONCURRENTLY that the holder runs waits for every
    // older snapshot to go — the two would wait for each other for ever.
    const tryLock = async () =>
      (await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [MIGRATION_LOCK])).rows[0].locked;
    if (!(await tryLock())) {
      onWait?.();
      while (!(await tryLock())) await new Promise((resolve) => setTimeout(resolve, MIGRATION_LOCK_POLL_MS));
    }
    const result = await work();
    if (lost) throw lost; // the lock went with its session: the run was not the only one it claims to be
    return result;
  } finally {
    await client.end();
  }
}

/**
 * Applies pending migrations under the migration lock; returns the names applied. `db` is the
 * owner's connection; with `runtime`, the runtime role's grants are then made to match
 * src/db/grants.ts, still under the lock (two concurrent GRANTs on a table fail each other).
 */
export function migrateDatabase(db: Database, onWait?: () => void, runtime?: RuntimeGrant): Promise<string[]> {
  return withMigrationLock(
    db,
    async () => {
      // The WASM schema engine stays resident once loaded: ~10-30 MB that an up-to-date database does not need.
      const applied = (await pendingMigrations(db)).length ? await applyMigrations(db.adapterFactory) : [];
      if (runtime && db.url) {
        const changes = await grantRuntimeRole(db.url, runtime.role);
        runtime.onGranted?.(changes);
      }
      return applied;
    },
    onWait,
  );
}

/**
 * The connection migrations run on: the owner's (MIGRATE_DATABASE_URL) when the deployment has two
 * roles, else `db` itself. The caller closes what it gets when it is not `db`.
 */
export async function ownerDatabase(db: Database, migrateUrl: string | undefined): Promise<Database> {
  return migrateUrl && db.kind === 'postgres' ? openDatabase({ databaseUrl: migrateUrl, poolSize: 1 }) : db;
}

/** Checked-in migrations the database has not applied yet (all of them on an empty database). */
export async function pendingMigrations(db: Database): Promise<string[]> {
  const { migrationDirectories } = await loadMigrationList();
  const [{ exists }] = await db.prisma.$queryRaw<Array<{ exists: boolean }>>`SELECT to_regclass('_prisma_migrations') IS NOT NULL AS exists`;
  const done = exists
    ? new Set(
        (
          await db.prisma.$queryRaw<
            Array<{ name: string }>
          >`SELECT migration_name AS name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`
        ).map((r) => r.name),
      )
    : new Set<string>();
  return migrationDirectories.map((d) => d.path).filter((name) => !done.has(name));
}

/** SQL that takes the checked-in migrations to the current schema.prisma ('' when they match). */
export async function diffMigrationsToSchema(adapterFactory: SqlMigrationAwareDriverAdapterFactory): Promise<string> {
  const from = { tag: 'migrations' as const, ...(await loadMigrationList()) };
  const content = await readFile(SCHEMA_PATH, 'utf8');
  const { stdout } = await withEngine(adapterFactory, (engine) =>
    engine.diff({ from, to: { tag: 'schemaDatamodel', files: [{ path: SCHEMA_PATH, content }] }, script: true, exitCode: null, filters: FILTERS }),
  );
  return stdout && !stdout.includes('This is an empty migration') ? stdout : '';
}
