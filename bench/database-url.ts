/** The bench's database: `--database-url`, else BENCH_DATABASE_URL, else a local `gateway_bench` (docs/benchmarks.md). */
export const benchDatabaseUrl = (option: string | undefined): string =>
  option ?? (process.env.BENCH_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/gateway_bench');
