import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { Logger } from 'pino';
import type { Config } from '../platform/config';
import { PrismaClient } from '../generated/prisma/client';
import { present } from '../platform/invariant';
import { listenPglite, listenPostgres, type ListenHandlers, type NotifyListener } from './notify-listener';
import { ResilientPool, statementNames, type PgTimeouts } from './pg-pool';

export type Prisma = PrismaClient;

export interface Database {
  kind: 'postgres' | 'pglite';
  /** The PostgreSQL connection string (unset for PGlite), for work that needs its own session. */
  url?: string;
  prisma: PrismaClient;
  /** Clients of the read replicas (DATABASE_READ_URLS; PostgreSQL only), for list, detail and aggregate reads. */
  replicas: PrismaClient[];
  /** For the schema engine (migrations). PostgreSQL: a pool of its own per engine connection, see openDatabase. */
  adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  /**
   * One read past Prisma, as a prepared statement (PostgreSQL: parsed and planned once per
   * connection, by name): only the bearer token's session, which every request reads and where
   * Prisma's query machinery cost as much CPU again as the statement (docs/benchmarks.md). Counted in
   * queryCount. Every other read and write goes through Prisma.
   */
  read<Row>(statement: PreparedRead, values: unknown[]): Promise<Row[]>;
  /** SQL statements sent so far (the /metrics counter and the benchmark read it). */
  queryCount(): number;
  /** Connection pool usage for /metrics; undefined where there is no pool (PGlite). */
  poolStats(): PoolStats | undefined;
  /** One round trip outside Prisma (not counted in queryCount); rejects after `timeoutMs`. */
  ping(timeoutMs: number): Promise<void>;
  /** LISTEN on `channel` (the change feed): one connection of its own on PostgreSQL, reconnecting by itself. */
  listen(channel: string, handlers: ListenHandlers): Promise<NotifyListener>;
  close(): Promise<void>;
}

/** A statement for Database.read: its name (unique per text) and its SQL. */
export interface PreparedRead {
  name: string;
  text: string;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** Timeouts (ms, 0 = none). Connection ones apply to PostgreSQL; the transaction ones to both. */
export interface DatabaseTimeouts extends PgTimeouts {
  /** Prisma interactive transactions: longest wait to start one, and longest life of one. */
  transactionMaxWaitMs: number;
  transactionMs: number;
}

export interface DatabaseOptions {
  /** postgresql://… → PostgreSQL through node-postgres; unset → embedded PGlite. */
  databaseUrl?: string;
  /** The change feed's LISTEN connection, when `databaseUrl` is a transaction pooler (PgBouncer), which cannot hold one; default `databaseUrl`. */
  listenUrl?: string;
  /** Read replicas of `databaseUrl` (PostgreSQL), each with a pool of `poolSize`. */
  readUrls?: string[];
  /** Where PGlite keeps its files; ignored for PostgreSQL. */
  dataDir?: string;
  /** An already open PGlite (tests clone one per file). */
  pglite?: PGlite;
  poolSize?: number;
  /** Unset → Prisma's and the server's defaults (scripts such as the seed run long statements). */
  timeouts?: DatabaseTimeouts;
  logger?: Logger;
}

export function databaseTimeouts(config: Config): DatabaseTimeouts {
  return {
    connectMs: config.dbConnectTimeoutMs,
    statementMs: config.dbStatementTimeoutMs,
    idleInTransactionMs: config.dbIdleInTransactionTimeoutMs,
    transactionMaxWaitMs: config.dbTransactionMaxWaitMs,
    transactionMs: config.dbTransactionTimeoutMs,
  };
}

function countingClient(adapter: SqlMigrationAwareDriverAdapterFactory, timeouts: DatabaseTimeouts | undefined) {
  const prisma = new PrismaClient({
    adapter: adapter as never,
    log: [{ emit: 'event', level: 'query' }],
    ...(timeouts && { transactionOptions: { maxWait: timeouts.transactionMaxWaitMs || undefined, timeout: timeouts.transactionMs || undefined } }),
  });
  let count = 0;
  prisma.$on('query', () => void count++);
  return { prisma: prisma as PrismaClient, queryCount: () => count };
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const url = options.databaseUrl;
    // Our own pool (the adapter accepts one and leaves it open): timeouts, error listeners and retries, see pg-pool.ts.
    const pool = new ResilientPool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10, timeouts: options.timeouts, logger: options.logger });
    // Prepared statements, one per distinct SQL text and connection (statementNames).
    // (The adapter types the name as a string; undefined, past the limit, runs the statement unnamed.)
    const appFactory = new PrismaPg(pool, { statementNameGenerator: statementNames() as (query: { sql: string }) => string });
    const { prisma, queryCount } = countingClient(appFactory, options.timeouts);
    const replicaPools = (options.readUrls ?? []).map(
      (url) => new ResilientPool({ connectionString: url, max: options.poolSize ?? 10, timeouts: options.timeouts, logger: options.logger }),
    );
    const replicas = replicaPools.map((p) => countingClient(new PrismaPg(p), options.timeouts));
    // The schema engine gets pools of its own, with the same error listeners but no statement timeouts
    // (a migration may rewrite a large table), ended when the engine lets go of them; session settings
    // it makes never reach the application's connections.
    const connectOnly = options.timeouts && { connectMs: options.timeouts.connectMs, statementMs: 0, idleInTransactionMs: 0 };
    const enginePool = () =>
      new PrismaPg(
        new ResilientPool({
          connectionString: present(options.databaseUrl, 'databaseUrl'),
          max: options.poolSize ?? 10,
          timeouts: connectOnly,
          logger: options.logger,
        }),
        { disposeExternalPool: true },
      );
    const adapterFactory: SqlMigrationAwareDriverAdapterFactory = {
      provider: appFactory.provider,
      adapterName: appFactory.adapterName,
      connect: () => enginePool().connect(),
      connectToShadowDb: () => enginePool().connectToShadowDb(),
    };
    let reads = 0;
    return {
      kind: 'postgres',
      url: options.databaseUrl,
      prisma,
      replicas: replicas.map((r) => r.prisma),
      adapterFactory,
      read: async <Row>({ name, text }: PreparedRead, values: unknown[]) => {
        reads++;
        return (await pool.query({ name, text, values })).rows as Row[];
      },
      queryCount: () => replicas.reduce((n, r) => n + r.queryCount(), queryCount() + reads),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      ping: (timeoutMs) => withTimeout(pool.query('SELECT 1'), timeoutMs),
      listen: (channel, handlers) =>
        listenPostgres({ connectionString: options.listenUrl ?? url, channel, connectMs: options.timeouts?.connectMs ?? 0, logger: options.logger }, handlers),
      close: async () => {
        await Promise.all([prisma, ...replicas.map((r) => r.prisma)].map((client) => client.$disconnect()));
        await Promise.all([pool, ...replicaPools].map((p) => p.end()));
      },
    };
  }
  // Loaded only without DATABASE_URL: the embedded database and its adapter are of no use to a PostgreSQL gateway.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { PrismaPGlite } = require('pglite-prisma-adapter') as typeof import('pglite-prisma-adapter');
  let pglite = options.pglite;
  if (!pglite) {
    const dir = path.join(options.dataDir ?? './data', 'pglite');
    await mkdir(dir, { recursive: true });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    pglite = await (require('@electric-sql/pglite') as typeof import('@electric-sql/pglite')).PGlite.create(dir);
  }
  const client = pglite;
  const adapterFactory = new PrismaPGlite(client) as unknown as SqlMigrationAwareDriverAdapterFactory;
  const { prisma, queryCount } = countingClient(adapterFactory, options.timeouts);
  let reads = 0;
  return {
    kind: 'pglite',
    prisma,
    replicas: [],
    adapterFactory,
    read: async <Row>({ text }: PreparedRead, values: unknown[]) => {
      reads++;
      return (await client.query<Row>(text, values)).rows;
    },
    queryCount: () => queryCount() + reads,
    poolStats: () => undefined,
    ping: (timeoutMs) => withTimeout(client.query('SELECT 1'), timeoutMs),
    listen: (channel, handlers) => listenPglite(client, channel, handlers),
    close: async () => {
      await prisma.$disconnect();
      if (!options.pglite) await client.close();
    },
  };
}

/** Rejects when `work` takes longer than `ms` (the work itself is not cancelled). */
export async function withTimeout(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  try {
    await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
