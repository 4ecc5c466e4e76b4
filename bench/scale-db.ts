/**
 * The database side of `npm run bench -- --scale`: for every list of bench/scale.ts at each size,
 * the statements DistributionService.list really sends (captured from the pg pool under the Prisma
 * adapter, parameters included), each run under EXPLAIN (ANALYZE, BUFFERS) 7 times; the median
 * execution time per statement, summed per list. Unlike the end-to-end curve, this does not depend
 * on the gateway's CPU or on what else the machine runs, so it shows what grows with the table.
 *
 *   npm run build:bench && node dist-bench/bench/scale-db.js [--database-url URL] [--sizes N,N] [--pages N,N] [--runs N] [--plans] [--combos]
 *
 * The databases are those of --scale (`<name>_10k`, …), seeded by it or by `npm run seed`.
 * --plans prints each statement's plan (text, from the last run) under its list. --combos measures
 * staff lists on two or more filters instead (COMBOS): the totals distribution_totals answers with
 * one row (status with one other) and those only distribution_counts answers.
 */
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../src/generated/prisma/client';
import { Role } from '../src/generated/prisma/enums';
import type { AuthUser } from '../src/domain/auth-user';
import type { ReadReplicas } from '../src/db/read-replicas';
import { DistributionService, type DistributionFilterInput } from '../src/services/distribution.service';
import { integerListOption, integerOption, parseCommandLine } from '../scripts/command';
import { benchDatabaseUrl } from './database-url';
import { FILTER_VALUES_SQL, SCALE_LISTS, SCALE_PAGES, SCALE_SIZES, scaleDatabaseUrl, type FilterValues, type ScaleList } from './scale';

const COMBOS: ScaleList[] = [
  { name: 'staff: pending, one unit', as: 'admin', filter: (v) => ({ status: 'PENDING', unitId: v.unitId }) },
  { name: 'staff: distributed, one period', as: 'admin', filter: (v) => ({ status: 'DISTRIBUTED', period: v.period }) },
  { name: 'staff: distributed, rental income', as: 'admin', filter: () => ({ status: 'DISTRIBUTED', type: 'RENTAL_INCOME' }) },
  {
    name: 'staff: distributed in one year, status distributed',
    as: 'admin',
    filter: (v) => ({ status: 'DISTRIBUTED', from: `${v.year}-01-01`, to: `${v.year}-12-31` }),
  },
  { name: 'staff: rental income, one unit', as: 'admin', filter: (v) => ({ type: 'RENTAL_INCOME', unitId: v.unitId }) },
  { name: 'staff: rental income, one period', as: 'admin', filter: (v) => ({ type: 'RENTAL_INCOME', period: v.period }) },
  { name: 'staff: one unit, one period', as: 'admin', filter: (v) => ({ unitId: v.unitId, period: v.period }) },
  { name: 'staff: rental income, paid in one year', as: 'admin', filter: (v) => ({ type: 'RENTAL_INCOME', from: `${v.year}-01-01`, to: `${v.year}-12-31` }) },
];

interface Statement {
  text: string;
  values: unknown[];
}

interface ExplainRoot {
  'Execution Time': number;
  Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number };
}

const USAGE = `Usage: npm run build:bench && node dist-bench/bench/scale-db.js [--database-url URL] [--sizes N,N] [--pages N,N] [--runs N] [--plans] [--combos]`;

function parseScaleArgs() {
  const values = parseCommandLine(
    {
      'database-url': { type: 'string' },
      sizes: { type: 'string' },
      pages: { type: 'string' },
      runs: { type: 'string' },
      plans: { type: 'boolean', default: false },
      combos: { type: 'boolean', default: false },
    },
    USAGE,
  );
  return {
    databaseUrl: benchDatabaseUrl(values['database-url']),
    sizes: integerListOption('sizes', values.sizes, 1) ?? SCALE_SIZES,
    pages: integerListOption('pages', values.pages, 1) ?? SCALE_PAGES,
    runs: integerOption('runs', values.runs, 1) ?? 7,
    plans: values.plans,
    lists: values.combos ? COMBOS : SCALE_LISTS,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The GraphQL filter of a list as the service receives it (Date scalars are UTC midnights). */
function toInput(filter: Record<string, unknown>): DistributionFilterInput {
  const day = (s: unknown) => (typeof s === 'string' ? new Date(`${s}T00:00:00Z`) : undefined);
  return { ...filter, from: day(filter.from), to: day(filter.to) } as DistributionFilterInput;
}

interface Row {
  size: number;
  distributions: number;
  list: string;
  page: number;
  ms: number;
  buffers: number;
}

async function measureSize(databaseUrl: string, size: number, lists: ScaleList[], pages: number[], runs: number, plans: boolean): Promise<Row[]> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  let captured: Statement[] | null = null;
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  // Every statement the adapter sends goes through pool.query with a config object.
  (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (config: unknown, ...rest: unknown[]) => {
    if (captured && typeof config === 'object' && config && 'text' in config) {
      const c = config as { text: string; values?: unknown[] };
      captured.push({ text: c.text, values: c.values ?? [] });
    }
    return query(config, ...rest);
  };
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const service = new DistributionService(prisma, { client: prisma } as unknown as ReadReplicas);
  const client = await pool.connect();
  try {
    const values = (await client.query<FilterValues>(FILTER_VALUES_SQL)).rows[0];
    const distributions = Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM distributions')).rows[0].n);
    const users: Record<'admin' | 'investor', AuthUser> = {
      admin: { id: 0, role: Role.ADMIN, investorId: null, sessionId: '' },
      investor: { id: 0, role: Role.INVESTOR, investorId: values.investorId, sessionId: '' },
    };
    client.release();
    const rows: Row[] = [];
    for (const list of lists) {
      for (const page of pages) {
        captured = [];
        await service.list(users[list.as], toInput(list.filter(values)), page);
        const statements: Statement[] = captured;
        captured = null;
        let ms = 0;
        let buffers = 0;
        for (const s of statements) {
          const times: number[] = [];
          let root: ExplainRoot | undefined;
          for (let r = 0; r < runs; r++) {
            const res = await pool.query<{ 'QUERY PLAN': ExplainRoot[] }>({ text: `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${s.text}`, values: s.values });
            root = res.rows[0]['QUERY PLAN'][0];
            times.push(root['Execution Time']);
          }
          ms += median(times);
          buffers += (root?.Plan['Shared Hit Blocks'] ?? 0) + (root?.Plan['Shared Read Blocks'] ?? 0);
          if (plans) {
            const text = await pool.query<{ 'QUERY PLAN': string }>({ text: `EXPLAIN (ANALYZE, BUFFERS) ${s.text}`, values: s.values });
            console.log(`\n-- ${size}: ${list.name}, page ${page}\n${s.text}\n${JSON.stringify(s.values)}`);
            console.log(text.rows.map((r) => r['QUERY PLAN']).join('\n'));
          }
        }
        rows.push({ size, distributions, list: list.name, page, ms, buffers });
        console.error(`${size} ${list.name}, page ${page}: ${ms.toFixed(2)} ms, ${buffers} buffers (${statements.length} statements)`);
      }
    }
    return rows;
  } finally {
    await prisma.$disconnect();
    await pool.end();
  }
}

async function main(): Promise<void> {
  const opts = parseScaleArgs();
  const rows: Row[] = [];
  for (const size of opts.sizes)
    rows.push(...(await measureSize(scaleDatabaseUrl(opts.databaseUrl, size), size, opts.lists, opts.pages, opts.runs, opts.plans)));
  const sizes = opts.sizes;
  const first = sizes[0];
  const last = sizes[sizes.length - 1];
  const cell = (list: string, page: number, size: number) => rows.find((r) => r.list === list && r.page === page && r.size === size);
  const lines = [
    `| list | page | ${sizes.map((s) => `${cell(opts.lists[0].name, opts.pages[0], s)?.distributions ?? s} ms`).join(' | ')} | ${last} / ${first} | buffers ${sizes.join(' / ')} |`,
    `|---|---|${sizes.map(() => '---|').join('')}---|---|`,
  ];
  for (const list of opts.lists) {
    for (const page of opts.pages) {
      const cells = sizes.map((s) => cell(list.name, page, s));
      const ratio = (cells[cells.length - 1]?.ms ?? NaN) / (cells[0]?.ms ?? NaN);
      lines.push(
        `| ${list.name} | ${page} | ${cells.map((c) => (c ? c.ms.toFixed(2) : '–')).join(' | ')} | ${ratio.toFixed(2)} | ${cells.map((c) => c?.buffers ?? '–').join(' / ')} |`,
      );
    }
  }
  console.log(lines.join('\n'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
