import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from '../generated/prisma/client';

export type Prisma = PrismaClient;

export interface Database {
  kind: 'postgres' | 'pglite';
  /** The PostgreSQL connection string (unset for PGlite), for work that needs its own session. */
  url?: string;
  prisma: PrismaClient;
  /** The same connection, for the schema engine (migrations). */
  adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  /** SQL statements sent so far (the /metrics counter and the benchmark read it). */
  queryCount(): number;
  close(): Promise<void>;
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
    const adapterFactory = new PrismaPg({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    const { prisma, queryCount } = countingClient(adapterFactory);
    return { kind: 'postgres', url: options.databaseUrl, prisma, adapterFactory, queryCount, close: () => prisma.$disconnect() };
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
    close: async () => {
      await prisma.$disconnect();
      if (!options.pglite) await client.close();
    },
  };
}
