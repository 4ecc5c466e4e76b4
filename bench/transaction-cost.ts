/**
 * What a money write's transaction costs the gateway's CPU through Prisma, against `pg` alone doing
 * the same statements (docs/benchmarks.md, "Where a money write's CPU goes"). No HTTP, no GraphQL:
 * the data layer only, in this process, on the pool and adapter the gateway opens (openDatabase),
 * with Prisma's production error format (`NODE_ENV=production`, as the gateway runs).
 *
 *   npm run build:bench && node dist-bench/bench/transaction-cost.js [--database-url URL] [--operations N] [--rounds R]
 *
 * Each case runs N operations on 10 concurrent callers (the write benchmark's connections), after
 * 300 not counted; the process's CPU (user + system) per operation is printed for each of R rounds.
 */
import pg from 'pg';
import { openDatabase } from '../src/db/database';
import { Prisma as PrismaNs } from '../src/generated/prisma/client';
import { integerOption, parseCommandLine, runCommand } from '../scripts/command';
import { onContainerRuntime } from './container-runtime';
import { benchDatabaseUrl } from './database-url';

const USAGE = 'Usage: npm run build:bench && node dist-bench/bench/transaction-cost.js [--database-url URL] [--operations N] [--rounds R]';
const CALLERS = 10;
const WARM_UP = 300;
const STATEMENT = 'SELECT 1 AS x';

/** CPU milliseconds per call of `operation`, `count` calls shared by CALLERS concurrent callers. */
async function cpuPerOperation(operation: () => Promise<unknown>, count: number): Promise<number> {
  for (let i = 0; i < WARM_UP; i++) await operation();
  const start = process.cpuUsage();
  let started = 0;
  const caller = async () => {
    while (started < count) {
      started++;
      await operation();
    }
  };
  await Promise.all(Array.from({ length: CALLERS }, caller));
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / count;
}

async function main(): Promise<void> {
  const rerun = await onContainerRuntime();
  if (rerun !== null) process.exit(rerun);
  const values = parseCommandLine({ 'database-url': { type: 'string' }, operations: { type: 'string' }, rounds: { type: 'string' } }, USAGE);
  const url = benchDatabaseUrl(values['database-url']);
  const count = integerOption('operations', values.operations, 1) ?? 4000;
  const rounds = integerOption('rounds', values.rounds, 1) ?? 2;
  // Prisma chooses its error format (and whether each call captures a stack trace) from NODE_ENV.
  process.env.NODE_ENV = 'production';
  const db = await openDatabase({ databaseUrl: url, poolSize: CALLERS });
  const pool = new pg.Pool({ connectionString: url, max: CALLERS });
  // An idle connection's failure (the server restarted) is reported; the case that needs it then fails on its own.
  pool.on('error', (err) => console.error(`pg pool: ${err.message}`));
  const select = (client: Pick<PrismaNs.TransactionClient, '$queryRaw'>) => client.$queryRaw(PrismaNs.raw(STATEMENT));
  const cases: [string, () => Promise<unknown>][] = [
    [
      'Prisma: 3 statements, no transaction',
      async () => {
        for (let i = 0; i < 3; i++) await select(db.prisma);
      },
    ],
    ['Prisma: interactive transaction of 1 statement', () => db.prisma.$transaction((tx) => select(tx))],
    [
      'Prisma: interactive transaction of 3 statements',
      () =>
        db.prisma.$transaction(async (tx) => {
          for (let i = 0; i < 3; i++) await select(tx);
        }),
    ],
    [
      'pg: BEGIN, 3 prepared statements, COMMIT',
      async () => {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          for (let i = 0; i < 3; i++) await client.query({ name: 'transaction-cost', text: STATEMENT });
          await client.query('COMMIT');
        } finally {
          client.release();
        }
      },
    ],
  ];
  console.log(`Node ${process.version}; ${count} operations a case, ${CALLERS} concurrent callers; CPU ms per operation:`);
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const [label, operation] of cases) console.log(`  round ${round}  ${(await cpuPerOperation(operation, count)).toFixed(3)}  ${label}`);
    }
  } finally {
    await db.close();
    await pool.end();
  }
}

runCommand(main);
