import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { Client } from 'pg';
import type { Logger } from 'pino';
import request from 'supertest';
import { createGateway, type Gateway } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import { databaseTimeouts, openDatabase, type Database } from '../../src/db/database';
import { DEMO_EMAILS, DEMO_PASSWORD } from '../../src/db/seed';
import { createLogger } from '../../src/logger';
import { createServices, type Services } from '../../src/services';
import { TEMPLATE_INFO_ENV, clonePrefix, withDatabase, type TemplateInfo } from './template';

export { DEMO_EMAILS, DEMO_PASSWORD };

export interface TestGateway {
  gateway: Gateway;
  db: Database;
  services: Services;
  config: Config;
  /** The embedded database (PGlite runs only), e.g. for a test that closes it under the gateway. */
  pglite?: PGlite;
  http: ReturnType<typeof request>;
  /** Logs in through the REST face; returns the access token. */
  token(email: string, password?: string): Promise<string>;
  /** POST /graphql with an optional bearer token; returns the parsed body. */
  gql<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>, token?: string): Promise<{ data?: T; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> }>;
  /** A second gateway instance (own services, own connection pool) on this one's database; close it first. */
  twin(): Promise<TestGateway>;
  close(): Promise<void>;
}

let counter = 0;

/** Opens this test file's own copy of the seeded template database. */
async function cloneTemplate(config: Config, options: GatewayOptions): Promise<{ db: Database; pglite?: PGlite; reopen: () => Promise<Database>; drop: () => Promise<void> }> {
  const info = JSON.parse(process.env[TEMPLATE_INFO_ENV] ?? 'null') as TemplateInfo | null;
  if (!info) throw new Error('test template missing: run through jest (globalSetup)');
  if (info.kind === 'pglite') {
    const pglite = await PGlite.create({ loadDataDir: new Blob([await readFile(info.location)]) });
    const open = () => openDatabase({ pglite, timeouts: databaseTimeouts(config) });
    return { db: await open(), pglite, reopen: open, drop: async () => void (pglite.closed || (await pglite.close())) };
  }
  // Unique within the run even when files share a process (--runInBand, --detectOpenHandles).
  const name = `${clonePrefix(info)}${process.pid}_${++counter}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: info.serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${info.location}`);
  await admin.end();
  const ownUrl = withDatabase(info.serverUrl!, name);
  const url = (await options.databaseUrl?.(ownUrl)) ?? ownUrl;
  const open = () => openDatabase({ databaseUrl: url, poolSize: 10, timeouts: databaseTimeouts(config) });
  // Dropped by the global teardown with the other copies of this run, not here (see clonePrefix).
  return { db: await open(), reopen: open, drop: async () => undefined };
}

export interface GatewayOptions {
  /** PostgreSQL: the URL the gateway connects to, given its database's own (e.g. through a test proxy). */
  databaseUrl?: (url: string) => string | Promise<string>;
  /** Where the gateway logs (tests that read log lines pass a capturing one). */
  logger?: Logger;
}

const testConfig = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', AUTH_RATE_LIMIT_PER_MINUTE: '0', ...env });

export async function startTestGateway(env: Record<string, string> = {}, options: GatewayOptions = {}): Promise<TestGateway> {
  const { db, pglite, reopen, drop } = await cloneTemplate(testConfig(env), options);
  return gatewayOn(db, env, reopen, drop, pglite, options.logger);
}

async function gatewayOn(
  db: Database,
  env: Record<string, string>,
  reopen: () => Promise<Database>,
  drop: () => Promise<void>,
  pglite?: PGlite,
  logger: Logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
): Promise<TestGateway> {
  const config = testConfig(env);
  const services = createServices(db.prisma, config, logger);
  const gateway = await createGateway(config, db, services, logger);
  gateway.setReady(true);
  const http = request(gateway.app);
  return {
    gateway,
    db,
    services,
    config,
    pglite,
    http,
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
      return gatewayOn(await reopen(), env, reopen, async () => undefined, pglite, logger);
    },
    async close() {
      await gateway.stop();
      await db.close();
      await drop();
    },
  };
}
