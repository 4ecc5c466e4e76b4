import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { Client } from 'pg';
import type { Logger } from 'pino';
import request from 'supertest';
import { createGateway, type Gateway } from '../../src/app';
import { loadConfig, type Config } from '../../src/platform/config';
import { databaseTimeouts, openDatabase, type Database } from '../../src/db/database';
import { DEMO_EMAILS, DEMO_PASSWORD } from '../../src/db/seed';
import { createLogger } from '../../src/platform/logger';
import { createServices, type Services } from '../../src/services';
import { withContract } from './contract';
import { TEMPLATE_INFO_ENV, TEST_ROLES, asRole, clonePrefix, withDatabase, type TemplateInfo } from './template';

export { DEMO_EMAILS, DEMO_PASSWORD };

export interface TestGateway {
  gateway: Gateway;
  db: Database;
  services: Services;
  config: Config;
  /** The embedded database (PGlite runs only), e.g. for a test that closes it under the gateway. */
  pglite?: PGlite;
  /** The read replica's embedded database (PGlite runs with `readReplica` only). */
  replicaPglite?: PGlite;
  http: ReturnType<typeof request>;
  /** Logs in through the REST face; returns the access token. */
  token(email: string, password?: string): Promise<string>;
  /** POST /graphql with an optional bearer token; returns the parsed body. */
  gql<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    token?: string,
  ): Promise<{ data?: T; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> }>;
  /** Runs `statements` in one transaction as the tables' owner or a superuser (PGlite: its one role). */
  sqlAs(role: SqlRole, ...statements: string[]): Promise<void>;
  /** PostgreSQL: this copy's URL as the owner or a superuser; undefined on PGlite. */
  urlAs?: (role: SqlRole) => string;
  /** A second gateway instance (own services, own connection pool) on this one's database; close it first. */
  twin(): Promise<TestGateway>;
  close(): Promise<void>;
}

let counter = 0;

/** Opens this test file's own copy of the seeded template database. */
async function cloneTemplate(
  config: Config,
  options: GatewayOptions,
): Promise<{
  db: Database;
  pglite?: PGlite;
  replicaPglite?: PGlite;
  reopen: () => Promise<Database>;
  drop: () => Promise<void>;
  urlAs?: (role: SqlRole) => string;
}> {
  const info = JSON.parse(process.env[TEMPLATE_INFO_ENV] ?? 'null') as TemplateInfo | null;
  if (!info) throw new Error('test template missing: run through jest (globalSetup)');
  if (info.kind === 'pglite') {
    const template = new Blob([await readFile(info.location)]);
    const pglite = await PGlite.create({ loadDataDir: template });
    // PGlite has no replication: the "replica" is a second copy that the gateway reads from.
    const replicaPglite = options.readReplica ? await PGlite.create({ loadDataDir: template }) : undefined;
    const replica = replicaPglite && (await openDatabase({ pglite: replicaPglite }));
    const open = async () => ({ ...(await openDatabase({ pglite, timeouts: databaseTimeouts(config) })), replicas: replica ? [replica.prisma] : [] });
    return {
      db: await open(),
      pglite,
      replicaPglite,
      reopen: open,
      drop: async () => {
        if (!pglite.closed) await pglite.close();
        await replica?.close();
        if (replicaPglite && !replicaPglite.closed) await replicaPglite.close(); // a PGlite passed in is the caller's to close (its timers keep a worker alive)
      },
    };
  }
  // Unique within the run even when files share a process (--runInBand, --detectOpenHandles).
  const name = `${clonePrefix(info)}${process.pid}_${++counter}_${randomBytes(4).toString('hex')}`;
  // A "replica" is a second copy of the template (DATABASE_READ_URLS), changed by the test on one side only.
  const names = options.readReplica ? [name, `${name}_replica`] : [name];
  const admin = new Client({ connectionString: info.serverUrl });
  await admin.connect();
  for (const n of names) await admin.query(`CREATE DATABASE ${n} TEMPLATE ${info.location} OWNER ${TEST_ROLES.owner}`);
  await admin.end();
  // The gateway serves as the runtime role (template.ts TEST_ROLES), the whole PostgreSQL suite through.
  const runtimeUrl = (n: string) => asRole(withDatabase(info.serverUrl!, n), TEST_ROLES.runtime);
  const url = (await options.databaseUrl?.(runtimeUrl(name))) ?? runtimeUrl(name);
  const readUrls = await Promise.all(names.slice(1).map(async (n) => (await options.readUrl?.(runtimeUrl(n))) ?? runtimeUrl(n)));
  const open = () => openDatabase({ databaseUrl: url, readUrls, poolSize: 10, timeouts: databaseTimeouts(config) });
  // Dropped (the replica too: same prefix) by the global teardown with the other copies of this run, not here (see clonePrefix).
  return {
    db: await open(),
    reopen: open,
    drop: async () => undefined,
    urlAs: (role) => (role === 'superuser' ? withDatabase(info.serverUrl!, name) : asRole(withDatabase(info.serverUrl!, name), TEST_ROLES[role])),
  };
}

/**
 * Statements run in one transaction as a role other than the gateway's: the tables' `owner`, or a
 * `superuser` (what an attacker holding those credentials could do). PGlite has one role: its own.
 */
async function sqlAs(db: Database, url: string | undefined, statements: string[]): Promise<void> {
  if (!url) {
    await db.prisma.$transaction(async (tx) => {
      for (const sql of statements) await tx.$executeRawUnsafe(sql);
    });
    return;
  }
  const client = new Client({ connectionString: url });
  client.on('error', () => undefined); // a failed statement rejects its query, which the caller sees
  await client.connect();
  try {
    await client.query('BEGIN');
    for (const sql of statements) await client.query(sql);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await client.end();
  }
}

export type SqlRole = 'owner' | 'superuser';

export interface GatewayOptions {
  /** PostgreSQL: the URL the gateway connects to, given its database's own (e.g. through a test proxy). */
  databaseUrl?: (url: string) => string | Promise<string>;
  /** Where the gateway logs (tests that read log lines pass a capturing one). */
  logger?: Logger;
  /** Give the gateway a read replica (`db.replicas[0]`): a separate copy of the seeded database. */
  readReplica?: boolean;
  /** PostgreSQL: the URL the gateway reads the replica through, given the replica's own (like `databaseUrl`). */
  readUrl?: (url: string) => string | Promise<string>;
}

const testConfig = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', AUTH_RATE_LIMIT_PER_MINUTE: '0', ...env });

export async function startTestGateway(env: Record<string, string> = {}, options: GatewayOptions = {}): Promise<TestGateway> {
  const { db, pglite, replicaPglite, reopen, drop, urlAs } = await cloneTemplate(testConfig(env), options);
  return { ...(await gatewayOn(db, env, reopen, drop, pglite, options.logger, urlAs)), replicaPglite };
}

async function gatewayOn(
  db: Database,
  env: Record<string, string>,
  reopen: () => Promise<Database>,
  drop: () => Promise<void>,
  pglite?: PGlite,
  logger: Logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
  urlAs?: (role: SqlRole) => string,
): Promise<TestGateway> {
  const config = testConfig(env);
  const services = createServices(db, config, logger);
  const gateway = await createGateway(config, db, services, logger);
  gateway.setReady(true);
  // Every REST answer a test receives is checked against docs/openapi.json (test/support/contract.ts).
  const http = withContract(request(gateway.app));
  return {
    gateway,
    db,
    services,
    config,
    pglite,
    http,
    urlAs,
    sqlAs: (role, ...statements) => sqlAs(db, urlAs?.(role), statements),
    async token(email, password = DEMO_PASSWORD) {
      const res = await http.post('/api/v1/auth/login').send({ email, password });
      if (res.status !== 200) throw new Error(`login ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data.access_token as string;
    },
    async gql(query, variables, token) {
      const req = http.post('/graphql').set('content-type', 'application/json');
      if (token) req.set('authorization', `Bearer ${token}`);
      const res = await req.send({ query, variables });
      return res.body;
    },
    async twin() {
      return gatewayOn(await reopen(), env, reopen, async () => undefined, pglite, logger, urlAs);
    },
    async close() {
      await gateway.stop();
      await db.close();
      await drop();
    },
  };
}
