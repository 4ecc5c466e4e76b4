/**
 * `npm run bench -- --scale`: every distributions list of the contract (the investor's own and the
 * staff's, unfiltered and filtered, first page and page 500) through the gateway at 10k, 100k and
 * 1M distributions, each size in its own database (`<name>_10k`, …, seeded on first use). For each
 * list: p50 latency at 1 connection and req/s at 10 connections, and the 1M / 10k latency ratio
 * (goal: ≤ 2). The lists go through GraphQL `distributions`, the operation the REST route runs.
 */

/** One list: who asks, with which filter. Filter values come from the data set (see filterValues). */
export interface ScaleList {
  name: string;
  as: 'investor' | 'admin';
  filter: (v: FilterValues) => Record<string, unknown>;
}

export interface FilterValues {
  investorId: number;
  unitId: number;
  period: string;
  year: number;
}

export const SCALE_LISTS: ScaleList[] = [
  { name: 'investor: own', as: 'investor', filter: () => ({}) },
  { name: 'investor: own, status distributed', as: 'investor', filter: () => ({ status: 'DISTRIBUTED' }) },
  { name: 'staff: all', as: 'admin', filter: () => ({}) },
  { name: 'staff: status distributed', as: 'admin', filter: () => ({ status: 'DISTRIBUTED' }) },
  { name: 'staff: status pending', as: 'admin', filter: () => ({ status: 'PENDING' }) },
  { name: 'staff: one unit', as: 'admin', filter: (v) => ({ unitId: v.unitId }) },
  { name: 'staff: one investor', as: 'admin', filter: (v) => ({ investorId: v.investorId }) },
  { name: 'staff: one period', as: 'admin', filter: (v) => ({ period: v.period }) },
  { name: 'staff: distributed in one year', as: 'admin', filter: (v) => ({ from: `${v.year}-01-01`, to: `${v.year}-12-31` }) },
];

export const SCALE_PAGES = [1, 500];
export const SCALE_SIZES = [10_000, 100_000, 1_000_000];

/** The busiest unit and period, the demo investor and the last full year of payments. */
export const FILTER_VALUES_SQL = `
  SELECT (SELECT i.id FROM investors i JOIN users u ON u.id = i.user_id WHERE u.email = 'investor@demo.test') AS "investorId",
         (SELECT unit_id FROM distributions GROUP BY unit_id ORDER BY count(*) DESC, unit_id LIMIT 1) AS "unitId",
         (SELECT period FROM distributions GROUP BY period ORDER BY count(*) DESC, period LIMIT 1) AS period,
         (SELECT extract(year FROM max(distributed_at))::int - 1 FROM distributions) AS year`;

/** `gateway_bench` → `gateway_bench_10k`, `_100k`, `_1m`. */
export function scaleDatabaseUrl(databaseUrl: string, size: number): string {
  const url = new URL(databaseUrl);
  const label = size >= 1_000_000 && size % 1_000_000 === 0 ? `${size / 1_000_000}m` : size % 1000 === 0 ? `${size / 1000}k` : String(size);
  url.pathname = `${url.pathname}_${label}`;
  return url.toString();
}
