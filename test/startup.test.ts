import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from '../src/platform/config';
import { fromRoot } from '../src/platform/paths';
import { openDatabase } from '../src/db/database';
import { migrateDatabase } from '../src/db/migrate';
import { StartupRefused, prepareDatabase } from '../src/db/prepare';
import { hashPassword } from '../src/domain/password';
import { withDatabase } from './support/template';
import { FaultProxy } from './support/fault-proxy';
import { freePort } from './support/nginx';
import { childDatabase, startEntry } from './support/entry-process';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

const PRODUCTION = { NODE_ENV: 'production', JWT_SECRET: 'a-production-secret-of-at-least-32-characters' };

describe('configuration errors', () => {
  it('a bad PORT stops the entry point with one readable line on stderr and a non-zero exit', async () => {
    const server = startEntry({ PORT: 'eighty', DATABASE_URL: '' });
    const code = await server.exited;
    expect(code).not.toBe(0);
    const lines = server.stderr().trim().split('\n');
    expect(lines).toEqual(['Invalid configuration: PORT must be an integer from 0 to 65535 (got "eighty")']);
  });

  it.each([
    [{ NODE_ENV: 'production' }, 'JWT_SECRET must be set (at least 32 characters, not the development default) when NODE_ENV=production'],
    [{ ...PRODUCTION, SEED_ON_START: 'true' }, 'SEED_ON_START cannot be true when NODE_ENV=production'],
    [{ CORS_ORIGINS: 'https://dashboard.example.com/app' }, 'CORS_ORIGINS must be a comma-separated list of origins'],
    [{ MIGRATE_ON_START: 'yes' }, 'MIGRATE_ON_START must be true or false (got "yes")'],
    [{ DATABASE_URL: 'mysql://root:hunter2@db/app' }, 'DATABASE_URL must be a PostgreSQL URL'],
  ])('%j is refused naming the variable and the expected form', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('every variable is documented in .env.example and docs/operations.md', () => {
    const example = readFileSync(fromRoot('.env.example'), 'utf8');
    const operations = readFileSync(fromRoot('docs/operations.md'), 'utf8');
    expect(CONFIG_VARIABLES.filter((name) => !new RegExp(`^${name}=`, 'm').test(example))).toEqual([]);
    expect(CONFIG_VARIABLES.filter((name) => !operations.includes(`| \`${name}\` |`))).toEqual([]);
  });

  it('never echoes a secret back', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://root:hunter2@db/app' })).toThrow(/^(?!.*hunter2)/);
  });

  it('development migrates and seeds at start; production does neither unless asked', () => {
    expect(loadConfig({})).toMatchObject({ migrateOnStart: true, seedOnStart: true, allowDemoAccounts: false, corsOrigins: [] });
    expect(loadConfig(PRODUCTION)).toMatchObject({ migrateOnStart: false, seedOnStart: false });
    expect(loadConfig({ ...PRODUCTION, MIGRATE_ON_START: 'true' }).migrateOnStart).toBe(true);
  });
});

describe('production start-up against the demo data set', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  const logged: Array<{ level: number; msg: string }> = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void logged.push(JSON.parse(line)) });

  it('refuses a database whose demo logins accept the public password', async () => {
    const refused = prepareDatabase(gw.db, loadConfig(PRODUCTION), logger);
    await expect(refused).rejects.toThrow(StartupRefused);
    await expect(prepareDatabase(gw.db, loadConfig(PRODUCTION), logger)).rejects.toThrow(
      `demo accounts (${[DEMO_EMAILS.admin, DEMO_EMAILS.analyst, DEMO_EMAILS.investor].sort().join(', ')}) accept the public demo password`,
    );
  });

  it('starts with ALLOW_DEMO_ACCOUNTS=true, logging a warning', async () => {
    await prepareDatabase(gw.db, loadConfig({ ...PRODUCTION, ALLOW_DEMO_ACCOUNTS: 'true' }), logger);
    expect(logged.filter((l) => l.level === 40).map((l) => l.msg)).toContain('demo accounts accept the public demo password (ALLOW_DEMO_ACCOUNTS=true)');
  });

  it('starts once the demo logins have other passwords', async () => {
    await gw.db.prisma.user.updateMany({
      where: { email: { in: Object.values(DEMO_EMAILS) } },
      data: { passwordHash: await hashPassword('Another-Secret-9') },
    });
    await expect(prepareDatabase(gw.db, loadConfig(PRODUCTION), logger)).resolves.toBeUndefined();
  });
});

describe('what is running', () => {
  it("the start-up line, /healthz and build_info name package.json's version, the commit (unknown from the sources) and Node", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gateway-version-'));
    // Production on an unmigrated embedded database: it listens and stays not ready, which is all this needs.
    const server = startEntry({ ...PRODUCTION, DATABASE_URL: '', DATA_DIR: dataDir, METRICS_TOKEN: 'version-test-token', SHUTDOWN_GRACE_MS: '0' });
    try {
      const { version } = JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')) as { version: string };
      const listening = await server.logged((l) => typeof l.port === 'number');
      expect(listening).toMatchObject({ version, commit: 'unknown', node: process.version });
      expect(listening.msg).toMatch(/^listening on /);
      const base = `http://127.0.0.1:${String(listening.port)}`;
      expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok', version, commit: 'unknown' });
      const metrics = await (await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer version-test-token' } })).text();
      expect(metrics).toContain(`build_info{version="${version}",commit="unknown",node_version="${process.version}"} 1`);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('production start on an unmigrated database', () => {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gateway-unmigrated-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('says so, stays not ready, and becomes ready (PostgreSQL: until the migrate job has run)', async () => {
    let databaseUrl = '';
    let dropDatabase = async () => undefined as unknown;
    if (serverUrl) {
      const { Client } = await import('pg');
      const admin = new Client({ connectionString: serverUrl });
      await admin.connect();
      const name = `gateway_unmigrated_${process.pid}`;
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${name}`);
      databaseUrl = withDatabase(serverUrl, name);
      dropDatabase = async () => {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      };
    }
    const server = startEntry({ ...PRODUCTION, DATABASE_URL: databaseUrl, DATA_DIR: dataDir });
    try {
      const { port } = await server.logged((l) => typeof l.port === 'number');
      const notMigrated = await server.logged((l) => String(l.msg).startsWith('database not migrated'));
      expect(notMigrated.msg).toContain('run `npm run migrate` or set MIGRATE_ON_START=true');
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(503);
      if (serverUrl) {
        // PGlite's files belong to the one process that opened them: only a server has a migrate job.
        const db = await openDatabase({ databaseUrl, poolSize: 1 });
        await migrateDatabase(db);
        await db.close();
        await server.logged((l) => l.msg === 'ready');
        expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      }
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      await dropDatabase();
    }
  });
});

describe('start-up while the database is unreachable', () => {
  const serverUrl = process.env.TEST_DATABASE_URL;

  it('tries again with back-off, one log line per attempt and /readyz 503, then exits 1 with one line naming DATABASE_WAIT_SECONDS', async () => {
    // Nothing listens on a port just freed: every connection is refused.
    const url = `postgresql://gateway@127.0.0.1:${await freePort()}/invest`;
    const server = startEntry({ ...PRODUCTION, DATABASE_URL: url, DATABASE_WAIT_SECONDS: '2' });
    try {
      const { port } = await server.logged((l) => typeof l.port === 'number');
      await server.logged((l) => l.attempt === 2);
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(503);
      expect(await server.exited).toBe(1);
      const retries = server.lines.filter((l) => l.level === 40 && String(l.msg).startsWith('database unreachable ('));
      expect(retries.map((l) => l.attempt)).toEqual(retries.map((_, i) => i + 1));
      // Back-off: each wait at least as long as the one before, but for the last (cut at the deadline).
      const waits = retries.slice(0, -1).map((l) => l.retryInMs as number);
      expect(waits).toEqual([...waits].sort((a, b) => a - b));
      const fatal = server.lines.filter((l) => l.level === 60);
      expect(fatal).toHaveLength(1);
      expect(fatal[0].msg).toMatch(
        /^database unreachable after \d+ attempts in 2 s \(DATABASE_WAIT_SECONDS\): .+; check DATABASE_URL and that the server is up$/,
      );
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  });

  if (serverUrl) {
    it('becomes ready once the database accepts connections (PostgreSQL)', async () => {
      const db = await childDatabase('', 'database_wait');
      const { proxy, url } = await FaultProxy.start(db.url!);
      proxy.refuse();
      const server = startEntry({ ...PRODUCTION, DATABASE_URL: url, ALLOW_DEMO_ACCOUNTS: 'true' });
      try {
        const { port } = await server.logged((l) => typeof l.port === 'number');
        await server.logged((l) => l.attempt === 2);
        expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(503);
        proxy.restore();
        expect((await server.logged((l) => l.msg === 'database reachable')).attempts).toBeGreaterThan(2);
        await server.logged((l) => l.msg === 'ready');
        expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      } finally {
        server.child.kill('SIGTERM');
        await server.exited;
        await proxy.close();
        await db.drop();
      }
    });
  }
});
