import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from '../generated/prisma/client';

export type Prisma = PrismaClient;

export interface Database {
  kind: 'postgres' | 'pglite';
  prisma: PrismaClient;
  /** The same connection, for the schema engine (migrations). */
  adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  /** SQL statements sent so far (the /metrics counter and the benchmark read it). */
  queryCount(): number;
  /** Connection pool usage for /metrics; undefined where there is no pool (PGlite). */
  poolStats(): PoolStats | undefined;
  close(): Promise<void>;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface DatabaseOptions {
  /** postgresql://… → PostgreSQL through node-postgres; unset → embedded PGlite. */
  databaseUrl?: string;
  /** Where PGlite keeps its files; ignored for PostgreSQL. */
  dataDir?: string;
  /** An already open PGlite (tests clone one per file). */
  pglite?: PGlite;
  poolSize?: number;
}

function countingClient(adapter: SqlMigrationAwareDriverAdapterFactory) {
  const prisma = new PrismaClient({ adapter: adapter as never, log: [{ emit: 'event', level: 'query' }] });
  let count = 0;
  prisma.$on('query', () => void count++);
  return { prisma: prisma as PrismaClient, queryCount: () => count };
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const poolConfig = { connectionString: options.databaseUrl, max: options.poolSize ?? 10 };
    // The client's pool is ours, so that /metrics can read its counters (closed here, after Prisma). The
    // schema engine keeps a factory that opens pools of its own: sharing the client's pool, a migration
    // holding its connections could wait forever for one more (with a pool of 1, it did).
    const pool = new pg.Pool(poolConfig);
    const { prisma, queryCount } = countingClient(new PrismaPg(pool));
    const adapterFactory = new PrismaPg(poolConfig);
    return {
      kind: 'postgres',
      prisma,
      adapterFactory,
      queryCount,
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: async () => {
        await prisma.$disconnect();
        await pool.end();
      },
    };
  }
  let pglite = options.pglite;
  if (!pglite) {
    const dir = path.join(options.dataDir ?? './data', 'pglite');
    await mkdir(dir, { recursive: true });
    pglite = await PGlite.create(dir);
  }
  const client = pglite;
  const adapterFactory = new PrismaPGlite(client) as unknown as SqlMigrationAwareDriverAdapterFactory;
  const { prisma, queryCount } = countingClient(adapterFactory);
  return {
    kind: 'pglite',
    prisma,
    adapterFactory,
    queryCount,
    poolStats: () => undefined,
    close: async () => {
      await prisma.$disconnect();
      if (!options.pglite) await client.close();
    },
  };
}
