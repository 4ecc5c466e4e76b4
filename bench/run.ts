/**
 * The issue's benchmark: how much does the gateway cost on its busiest read?
 *
 *   npm run bench -- [--database-url URL] [--distributions N] [--duration S] [--connections C] [--warmup S] [--reseed]
 *
 * Against PostgreSQL with the large demo data set, it measures, one after the other and with the
 * same autocannon settings:
 *   1. REST     GET  /api/v1/distributions   (demo investor, bearer token, default page)
 *   2. GraphQL  POST /graphql                (the same operation the REST route runs)
 *   3. floor    GET  /api/v1/distributions   on bench/floor.ts: node:http + pg, same JSON
 *   4. writes   POST /api/v1/withdrawals/requests and POST /api/v1/investment-requests, each request a
 *               new valid one (rotating over verified investors; see prepareWriters)
 * and prints req/s, p50 and p99 latency, the gateway/floor ratios, and SQL statements per request
 * (gateway: the `db_queries_sent` gauge from /metrics around each run). Figures are also written to
 * bench/results/latest.json.
 *
 * The database is created if missing and seeded (node dist/scripts/seed.js) only when it holds fewer
 * than N distributions, so reruns start measuring at once. All traffic goes to 127.0.0.1 (the floor
 * binds there; the gateway binds wherever src/main.ts listens, which takes no host), and every child
 * process is stopped at the end, on failure and Ctrl-C too.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { print } from 'graphql';
import { Client, escapeIdentifier } from 'pg';
import { fromRoot } from '../src/paths';
import { present } from '../src/invariant';
import { loadOperations } from '../src/rest/operations';

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

interface Options {
  databaseUrl: string;
  distributions: number;
  duration: number;
  warmup: number;
  connections: number;
  reseed: boolean;
}

const USAGE = `Usage: npm run bench -- [options]

  --database-url URL   PostgreSQL to use (default: BENCH_DATABASE_URL or postgresql://postgres@127.0.0.1:5432/gateway_bench)
  --distributions N    seed until at least N distribution rows exist (default 100000)
  --duration S         seconds measured per target (default 10)
  --warmup S           seconds of unmeasured load before each target (default 2)
  --connections C      concurrent connections (default 10)
  --reseed             empty and seed the database again even if it is big enough`;

function parseArgs(argv: string[]): Options {
  const opts: Options = {
    databaseUrl: process.env.BENCH_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/gateway_bench',
    distributions: 100_000,
    duration: 10,
    warmup: 2,
    connections: 10,
    reseed: false,
  };
  const positive = (flag: string, raw: string | undefined, min = 1): number => {
    const n = Number(raw);
    if (raw === undefined || raw === '' || !Number.isInteger(n) || n < min) throw new Error(`${flag} expects an integer >= ${min}, got "${raw ?? ''}"`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2) as [string, string | undefined];
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case '--database-url': opts.databaseUrl = value() ?? ''; break;
      case '--distributions': opts.distributions = positive(flag, value()); break;
      case '--duration': opts.duration = positive(flag, value()); break;
      case '--warmup': opts.warmup = positive(flag, value(), 0); break;
      case '--connections': opts.connections = positive(flag, value()); break;
      case '--reseed': opts.reseed = true; break;
      case '-h':
      case '--help':
        console.log(USAGE);
        process.exit(0);
        break;
      default:
        throw new Error(`unknown argument "${argv[i]}"\n\n${USAGE}`);
    }
  }
  const url = new URL(opts.databaseUrl);
  if (!/^postgres(ql)?:$/.test(url.protocol)) throw new Error(`--database-url must be a postgresql:// URL, got "${redact(opts.databaseUrl)}"`);
  // The benchmark is loopback-only by design: no load is ever sent off the machine.
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) throw new Error(`--database-url must point at a loopback host, got "${url.hostname}"`);
  return opts;
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'invalid URL';
  }
}

// ---------------------------------------------------------------------------------------------
// Database: create, count, seed
// ---------------------------------------------------------------------------------------------

async function withClient<T>(connectionString: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** CREATE DATABASE through the server's `postgres` database when the target does not exist yet. */
async function ensureDatabase(databaseUrl: string): Promise<boolean> {
  const target = new URL(databaseUrl);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!name) throw new Error('--database-url must name a database');
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  return withClient(admin.toString(), async (client) => {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return false;
    await client.query(`CREATE DATABASE ${escapeIdentifier(name)}`);
    return true;
  });
}

interface DataSet {
  distributions: number;
  users: number;
  postgresVersion: string;
}

async function inspect(databaseUrl: string): Promise<DataSet> {
  return withClient(databaseUrl, async (client) => {
    const version = (await client.query<{ v: string }>('SHOW server_version')).rows[0].v;
    const { rows } = await client.query<{ d: boolean; u: boolean }>(
      `SELECT to_regclass('distributions') IS NOT NULL AS d, to_regclass('users') IS NOT NULL AS u`,
    );
    const count = async (table: string) => Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
    return { distributions: rows[0].d ? await count('distributions') : 0, users: rows[0].u ? await count('users') : 0, postgresVersion: version };
  });
}

/** Runs the operators' seed script (it applies migrations first); returns the wall time in ms. */
async function seed(databaseUrl: string, distributions: number, reset: boolean): Promise<number> {
  const args = [fromRoot('dist', 'scripts', 'seed.js'), '--distributions', String(distributions), ...(reset ? ['--reset'] : [])];
  console.log(`\nSeeding: node ${path.relative(process.cwd(), args[0])} ${args.slice(1).join(' ')}`);
  const started = Date.now();
  const child = spawn(process.execPath, args, { env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: ['ignore', 'inherit', 'inherit'] });
  children.add(child);
  const code = await exitOf(child);
  children.delete(child);
  if (code !== 0) throw new Error(`the seed script failed (exit ${code}); see its output above`);
  return Date.now() - started;
}

// ---------------------------------------------------------------------------------------------
// Child processes
// ---------------------------------------------------------------------------------------------

/** A timer that does not keep the process alive by itself. */
const idle = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** Every child still running; stopped on the way out, whatever the way out is. */
const children = new Set<ChildProcess>();
const childNames = new WeakMap<ChildProcess, string>();

function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const exited = await Promise.race([exitOf(child).then(() => true), idle(5000).then(() => false)]);
  if (!exited) {
    console.error(`[bench] ${childNames.get(child) ?? 'child'} still running 5 s after SIGTERM: killed`);
    child.kill('SIGKILL');
  }
}

async function stopAll(): Promise<void> {
  await Promise.all([...children].map(stopChild));
  children.clear();
}

/** A port that was free a moment ago (the gateway takes its port from PORT, not from 0). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Prefixes a child's output lines, so that they can be told apart from the benchmark's. */
function forward(child: ChildProcess, name: string): void {
  for (const stream of [child.stdout, child.stderr]) {
    let partial = '';
    stream?.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line) process.stderr.write(`[${name}] ${line}\n`);
    });
  }
}

async function startGateway(databaseUrl: string): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, [fromRoot('dist', 'src', 'main.js')], {
    cwd: fromRoot(),
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      NODE_ENV: 'production',
      JWT_SECRET: 'bench-only-secret-0123456789abcdef0123456789',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT_PER_MINUTE: '0',
      SEED_ON_START: 'false',
      // The bench logs in as the demo accounts: a staging-like use of production mode.
      ALLOW_DEMO_ACCOUNTS: 'true',
      MIGRATE_ON_START: 'true',
      METRICS_TOKEN: BENCH_METRICS_TOKEN,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  childNames.set(child, 'gateway');
  forward(child, 'gateway');
  const base = `http://127.0.0.1:${port}`;
  // Up to 60 s: migrations may run on the first start.
  for (let attempt = 0; attempt < 240; attempt++) {
    if (child.exitCode !== null) throw new Error(`the gateway exited during start-up (exit ${child.exitCode}); see its output above`);
    try {
      const res = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(1000) });
      if (res.status === 200) return base;
    } catch {
      // Not listening yet.
    }
    await sleep(250);
  }
  throw new Error('the gateway did not report ready (/readyz) within 60 s');
}

async function startFloor(databaseUrl: string): Promise<{ base: string; queriesPerRequest: number }> {
  const child = fork(path.join(__dirname, 'floor.js'), [], { env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  children.add(child);
  childNames.set(child, 'floor');
  forward(child, 'floor');
  const ready = new Promise<{ port: number; queriesPerRequest: number }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { port: number; queriesPerRequest: number }));
    child.once('exit', (code) => reject(new Error(`the floor server exited during start-up (exit ${code})`)));
  });
  const timeout = idle(10_000).then(() => {
    throw new Error('the floor server did not start within 10 s');
  });
  const { port, queriesPerRequest } = await Promise.race([ready, timeout]);
  return { base: `http://127.0.0.1:${port}`, queriesPerRequest };
}

// ---------------------------------------------------------------------------------------------
// Targets, sanity check, measurement
// ---------------------------------------------------------------------------------------------

interface Target {
  key: 'rest' | 'graphql' | 'floor' | 'withdrawal' | 'investment';
  label: string;
  request: autocannon.Options;
  /** The gateway's /metrics, to count SQL statements; absent for the floor (known count). */
  metricsUrl?: string;
  knownQueriesPerRequest?: number;
}

async function login(base: string, email = 'investor@demo.test'): Promise<string> {
  const res = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'Password123!' }),
  });
  const body = (await res.json()) as { data?: { access_token?: string } };
  const token = body.data?.access_token;
  if (res.status !== 200 || !token) throw new Error(`login as ${email} failed (${res.status}): ${JSON.stringify(body).slice(0, 300)}`);
  return token;
}

/** The REST route's own document (operation + fragments), so both faces select the same fields. */
function distributionsQuery(): string {
  const document = loadOperations().get('Distributions');
  if (!document) throw new Error('no Distributions operation in src/rest/operations');
  return print(document);
}

async function call(target: Target): Promise<{ status: number; text: string }> {
  const { url, method, headers, body } = target.request;
  const res = await fetch(url, { method, headers, body });
  return { status: res.status, text: await res.text() };
}

interface RestBody {
  data: { id: number }[];
  meta: { total: number };
}
interface GraphqlBody {
  data?: { distributions: { items: { id: number }[]; pageInfo: { total: number } } };
  errors?: unknown[];
}

/**
 * Same ids in the same order (and the same total) on all three, else the comparison is void. The
 * floor must moreover answer byte for byte what the REST route answers, apart from its own origin.
 */
async function sanityCheck(rest: Target, graphql: Target, floor: Target, gatewayBase: string, floorBase: string): Promise<{ ids: number[]; total: number; bytes: number }> {
  const [r, g, f] = await Promise.all([call(rest), call(graphql), call(floor)]);
  for (const [name, res] of [['REST', r], ['GraphQL', g], ['floor', f]] as const) {
    if (res.status !== 200) throw new Error(`sanity check: ${name} answered ${res.status}: ${res.text.slice(0, 300)}`);
  }
  const restBody = JSON.parse(r.text) as RestBody;
  const gqlBody = JSON.parse(g.text) as GraphqlBody;
  const floorBody = JSON.parse(f.text) as RestBody;
  if (!gqlBody.data || gqlBody.errors?.length) throw new Error(`sanity check: GraphQL errors: ${JSON.stringify(gqlBody.errors).slice(0, 300)}`);
  const ids = {
    REST: restBody.data.map((d) => d.id),
    GraphQL: gqlBody.data.distributions.items.map((d) => d.id),
    floor: floorBody.data.map((d) => d.id),
  };
  const totals = { REST: restBody.meta.total, GraphQL: gqlBody.data.distributions.pageInfo.total, floor: floorBody.meta.total };
  const same = (a: number[], b: number[]) => a.length === b.length && a.every((v, i) => v === b[i]);
  if (ids.REST.length === 0) throw new Error('sanity check: the demo investor has no distributions; is the database seeded?');
  if (!same(ids.REST, ids.GraphQL) || !same(ids.REST, ids.floor) || totals.REST !== totals.GraphQL || totals.REST !== totals.floor) {
    throw new Error(`sanity check FAILED: the three targets disagree\n  ids:    ${JSON.stringify(ids)}\n  totals: ${JSON.stringify(totals)}`);
  }
  const restText = r.text.split(gatewayBase).join('<origin>');
  const floorText = f.text.split(floorBase).join('<origin>');
  if (restText !== floorText) {
    const at = [...restText].findIndex((c, i) => c !== floorText[i]);
    throw new Error(`sanity check FAILED: the floor's JSON differs from the REST route's at character ${at}:\n  REST:  …${restText.slice(Math.max(0, at - 80), at + 80)}\n  floor: …${floorText.slice(Math.max(0, at - 80), at + 80)}`);
  }
  return { ids: ids.REST, total: totals.REST, bytes: Buffer.byteLength(r.text) };
}

/** Production mode serves /metrics only with this bearer token. */
const BENCH_METRICS_TOKEN = 'bench-metrics-token';

async function queriesSent(metricsUrl: string): Promise<number> {
  const text = await (await fetch(metricsUrl, { headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` } })).text();
  const match = /^db_queries_sent (\S+)$/m.exec(text);
  if (!match) throw new Error(`no db_queries_sent gauge at ${metricsUrl}`);
  return Number(match[1]);
}

/** Nearest-rank percentile over sorted values. */
const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);

interface Measurement {
  target: Target['key'];
  label: string;
  url: string;
  requests: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p99: number; mean: number; max: number };
  /** autocannon's own figures (its latency histogram has 1 ms resolution). */
  autocannon: { requestsAverage: number; latencyP50: number; latencyP99: number; sent: number };
  errors: number;
  timeouts: number;
  sqlStatements: number | null;
  sqlPerRequest: number;
  sqlPerCompletedRequest: number;
  sqlPerRequestSource: 'db_queries_sent gauge / requests sent' | 'known (floor)';
}

function load(target: Target, opts: Options, duration: number): autocannon.Instance {
  return autocannon({ ...target.request, connections: opts.connections, duration, timeout: 10 });
}

async function measure(target: Target, opts: Options): Promise<Measurement> {
  process.stdout.write(`  ${target.label}: warm-up ${opts.warmup} s… `);
  if (opts.warmup > 0) await load(target, opts, opts.warmup);
  // In-flight warm-up requests may still be running their queries; let them land before the reading.
  await sleep(500);
  const before = target.metricsUrl ? await queriesSent(target.metricsUrl) : null;

  process.stdout.write(`measuring ${opts.duration} s… `);
  // autocannon's latency histogram counts whole milliseconds; the floor answers in less, so the
  // percentiles are computed here from each 2xx response's sub-millisecond time instead.
  const latencies: number[] = [];
  const run = load(target, opts, opts.duration);
  run.on('response', (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) latencies.push(ms);
  });
  const result = await run;
  await sleep(500);
  const after = target.metricsUrl ? await queriesSent(target.metricsUrl) : null;
  console.log(`${result.requests.total} requests`);

  if (result.non2xx > 0) {
    throw new Error(`${target.label}: ${result.non2xx} non-2xx answers during the run (${JSON.stringify(result.statusCodeStats)}); figures would be meaningless`);
  }
  if (result.requests.total === 0) throw new Error(`${target.label}: no request completed`);
  latencies.sort((a, b) => a - b);
  const sqlStatements = before !== null && after !== null ? after - before : null;
  return {
    target: target.key,
    label: target.label,
    url: target.request.url,
    requests: result.requests.total,
    requestsPerSecond: result.requests.total / result.duration,
    latencyMs: {
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      mean: latencies.reduce((a, b) => a + b, 0) / latencies.length,
      max: latencies[latencies.length - 1],
    },
    autocannon: { requestsAverage: result.requests.average, latencyP50: result.latency.p50, latencyP99: result.latency.p99, sent: result.requests.sent },
    errors: result.errors,
    timeouts: result.timeouts,
    sqlStatements,
    // Requests still in flight when autocannon stops (up to `connections`) are not "completed", yet
    // the server runs them to the end, queries included. Dividing by completed requests overstates
    // the figure by up to connections/requests (6.27 instead of 6 on a 2 s run), so the headline
    // figure divides by requests sent; the per-completed one is kept for reference.
    sqlPerRequest: sqlStatements !== null ? sqlStatements / result.requests.sent : present(target.knownQueriesPerRequest, 'knownQueriesPerRequest'),
    sqlPerCompletedRequest: sqlStatements !== null ? sqlStatements / result.requests.total : present(target.knownQueriesPerRequest, 'knownQueriesPerRequest'),
    sqlPerRequestSource: sqlStatements !== null ? 'db_queries_sent gauge / requests sent' : 'known (floor)',
  };
}

// ---------------------------------------------------------------------------------------------
// Writes: money requests at the same concurrency
// ---------------------------------------------------------------------------------------------

const WRITERS = 50;
const BENCH_UNIT = 'BENCH-WRITES';

interface Writer {
  email: string;
  /** A unit the investor holds at least 0.01 % of: room for 10,000 withdrawals of 0.000001 %. */
  unitId: number;
}

/**
 * Makes every write valid, whatever earlier runs left: up to 50 investors with a holding of at
 * least 0.01 % get an approved KYC document if they have none (money requests need a verified
 * identity), and the unit BENCH-WRITES is (re)opened with a total value so large that the minimum
 * investment buys a share of about 0.00001 %, so no run can sell it out.
 */
async function prepareWriters(databaseUrl: string): Promise<{ writers: Writer[]; unitId: number; amount: string }> {
  return withClient(databaseUrl, async (client) => {
    const { rows: writers } = await client.query<{ email: string; unit_id: number; investor_id: number }>(
      `SELECT DISTINCT ON (h.investor_id) u.email, h.unit_id, h.investor_id
       FROM holdings h JOIN investors i ON i.id = h.investor_id JOIN users u ON u.id = i.user_id
       WHERE h.ownership_percentage >= 0.01 AND u.deleted_at IS NULL
       ORDER BY h.investor_id, h.ownership_percentage DESC LIMIT $1`,
      [WRITERS],
    );
    if (writers.length === 0) throw new Error('no investor holds 0.01 % of a unit; is the database seeded?');
    await client.query(
      `INSERT INTO kyc_documents (investor_id, document_type, storage_key, mime_type, size_bytes, checksum, status, reviewed_at, updated_at)
       SELECT id, 'PASSPORT', 'bench/kyc-' || id, 'application/pdf', 1, repeat('0', 64), 'APPROVED', now(), now() FROM investors
       WHERE id = ANY($1::int[]) AND NOT EXISTS (SELECT 1 FROM kyc_documents k WHERE k.investor_id = investors.id AND k.status = 'APPROVED')`,
      [writers.map((w) => w.investor_id)],
    );
    const { rows: [config] } = await client.query<{ min_investment: string }>('SELECT min_investment FROM app_config WHERE id = 1');
    const amount = Math.max(Number(config?.min_investment ?? 0), 100).toFixed(2);
    const { rows: [unit] } = await client.query<{ id: number }>(
      `INSERT INTO units (code, name, description, location, category_id, status, total_value, available_percentage, min_investment, expected_return, updated_at)
       VALUES ($1, 'Benchmark writes', 'Target of the write benchmark', 'Loopback', (SELECT min(id) FROM categories), 'AVAILABLE', $2, 100, 1, 5, now())
       ON CONFLICT (code) DO UPDATE SET status = 'AVAILABLE', available_percentage = 100, updated_at = now() RETURNING id`,
      [BENCH_UNIT, (Number(amount) * 10_000_000).toFixed(2)],
    );
    return { writers: writers.map((w) => ({ email: w.email, unitId: w.unit_id })), unitId: unit.id, amount };
  });
}

/** A POST whose bearer token and body rotate over the writers, so each request is a new valid one. */
function writeTarget(key: 'withdrawal' | 'investment', label: string, url: string, tokens: string[], body: (i: number) => object, metricsUrl: string): Target {
  let next = 0;
  const request = (i: number) => ({ authorization: `Bearer ${tokens[i % tokens.length]}`, 'content-type': 'application/json' });
  return {
    key,
    label,
    request: {
      url,
      method: 'POST',
      headers: request(0),
      body: JSON.stringify(body(0)),
      requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, headers: request(next), body: JSON.stringify(body(next++)) }) }],
    },
    metricsUrl,
  };
}

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------

function table(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('   ')).join('\n');
}

function report(results: Measurement[]): { restVsFloor: Ratios; graphqlVsFloor: Ratios } {
  const by = (key: Target['key']) => present(results.find((r) => r.target === key), key);
  const [rest, graphql, floor] = [by('rest'), by('graphql'), by('floor')];
  const fmt = (n: number, digits = 2) => n.toFixed(digits);
  console.log(
    '\n' +
      table([
        ['target', 'req/s', 'p50 ms', 'p99 ms', 'SQL/req', 'requests'],
        ...results.map((r) => [r.label, fmt(r.requestsPerSecond, 0), fmt(r.latencyMs.p50), fmt(r.latencyMs.p99), fmt(r.sqlPerRequest) + (r.target === 'floor' ? '*' : ''), String(r.requests)]),
      ]),
  );
  const ratios = (gw: Measurement): Ratios => ({ requestsPerSecond: gw.requestsPerSecond / floor.requestsPerSecond, p99: gw.latencyMs.p99 / floor.latencyMs.p99 });
  const restVsFloor = ratios(rest);
  const graphqlVsFloor = ratios(graphql);
  console.log('\nGateway / floor:');
  console.log(
    table([
      ['', 'req/s ratio', 'p99 ratio'],
      ['REST / floor', fmt(restVsFloor.requestsPerSecond), fmt(restVsFloor.p99)],
      ['GraphQL / floor', fmt(graphqlVsFloor.requestsPerSecond), fmt(graphqlVsFloor.p99)],
    ]),
  );
  console.log(
    `\nSQL/req: gateway = db_queries_sent (GET /metrics) delta over the run / requests sent; requests = completed.\n` +
      `* floor: known count (session lookup + page + count). The floor decodes the bearer token without verifying its\n` +
      `  signature, but does one session-lookup query per request; it serves only the default page.`,
  );
  return { restVsFloor, graphqlVsFloor };
}

interface Ratios {
  requestsPerSecond: number;
  p99: number;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const startedAt = new Date();
  console.log(`Database: ${redact(opts.databaseUrl)}`);

  const created = await ensureDatabase(opts.databaseUrl);
  if (created) console.log('Created the database.');
  let data = await inspect(opts.databaseUrl);
  let seedMs: number | null = null;
  let seedReset = false;
  if (opts.reseed || data.distributions < opts.distributions) {
    console.log(`It holds ${data.distributions} distributions (${opts.reseed ? '--reseed' : `< ${opts.distributions}`}): seeding.`);
    // The seed script refuses a database that already has the demo data unless told to empty it.
    seedReset = data.users > 0;
    seedMs = await seed(opts.databaseUrl, opts.distributions, seedReset);
    console.log(`Seeding took ${(seedMs / 1000).toFixed(1)} s (wall time of the seed script, migrations included).`);
    data = await inspect(opts.databaseUrl);
    if (data.distributions < opts.distributions) throw new Error(`after seeding there are only ${data.distributions} distributions (< ${opts.distributions})`);
  } else {
    console.log(`It holds ${data.distributions} distributions (>= ${opts.distributions}): no seeding needed.`);
  }

  const [gatewayBase, floor] = await Promise.all([startGateway(opts.databaseUrl), startFloor(opts.databaseUrl)]);
  console.log(`Gateway at ${gatewayBase}, floor at ${floor.base}.`);
  const token = await login(gatewayBase);
  const auth = { authorization: `Bearer ${token}` };

  const rest: Target = {
    key: 'rest',
    label: 'REST GET /api/v1/distributions',
    request: { url: `${gatewayBase}/api/v1/distributions`, method: 'GET', headers: auth },
    metricsUrl: `${gatewayBase}/metrics`,
  };
  const graphql: Target = {
    key: 'graphql',
    label: 'GraphQL POST /graphql',
    request: {
      url: `${gatewayBase}/graphql`,
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ operationName: 'Distributions', query: distributionsQuery(), variables: {} }),
    },
    metricsUrl: `${gatewayBase}/metrics`,
  };
  const floorTarget: Target = {
    key: 'floor',
    label: 'floor node:http + pg',
    request: { url: `${floor.base}/api/v1/distributions`, method: 'GET', headers: auth },
    knownQueriesPerRequest: floor.queriesPerRequest,
  };

  const sanity = await sanityCheck(rest, graphql, floorTarget, gatewayBase, floor.base);
  console.log(`Sanity check passed: REST, GraphQL and floor return the same ${sanity.ids.length} ids in the same order (of ${sanity.total}); the floor's JSON equals REST's (${sanity.bytes} bytes).`);

  // Everything (load generator, gateway, floor, PostgreSQL) shares this machine; a busy one skews the figures.
  const loadAverage = os.loadavg()[0];
  console.log(`\nLoad: ${opts.connections} connections, ${opts.warmup} s warm-up + ${opts.duration} s per target, on ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}); 1-min load average before: ${loadAverage.toFixed(2)}.`);
  const results: Measurement[] = [];
  for (const target of [rest, graphql, floorTarget]) results.push(await measure(target, opts));

  const prepared = await prepareWriters(opts.databaseUrl);
  const tokens: string[] = [];
  for (const w of prepared.writers) tokens.push(await login(gatewayBase, w.email));
  const writes = [
    writeTarget('withdrawal', 'REST POST /api/v1/withdrawals/requests', `${gatewayBase}/api/v1/withdrawals/requests`, tokens,
      (i) => ({ unit_id: prepared.writers[i % tokens.length].unitId, ownership_percentage: 0.000001, reason: 'benchmark' }), `${gatewayBase}/metrics`),
    writeTarget('investment', 'REST POST /api/v1/investment-requests', `${gatewayBase}/api/v1/investment-requests`, tokens,
      () => ({ unit_id: prepared.unitId, amount: Number(prepared.amount) }), `${gatewayBase}/metrics`),
  ];
  for (const target of writes) {
    const res = await call(target);
    if (res.status !== 201) throw new Error(`sanity check: ${target.label} answered ${res.status}: ${res.text.slice(0, 300)}`);
  }
  console.log(`Writes: ${tokens.length} verified investors take turns; every answer must be 201.`);
  for (const target of writes) results.push(await measure(target, opts));

  const ratios = report(results);

  const out = {
    startedAt: startedAt.toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? null,
    loadAverageBefore: loadAverage,
    postgres: data.postgresVersion,
    database: redact(opts.databaseUrl),
    dataSet: { distributions: data.distributions, demoInvestorDistributions: sanity.total, responseBytes: sanity.bytes },
    seeding: seedMs === null ? null : { ms: seedMs, reset: seedReset },
    options: { duration: opts.duration, warmup: opts.warmup, connections: opts.connections },
    results,
    ratios,
    notes: [
      'floor: node:http + pg in a separate process; bearer token decoded, not verified; one session-lookup query per request',
      'latency percentiles: nearest rank over every 2xx response time (sub-millisecond), not autocannon\'s 1 ms histogram',
      'sqlPerRequest (gateway): db_queries_sent delta over the measured run / requests sent (in-flight ones at the end still run); sqlPerCompletedRequest divides by completed requests',
    ],
  };
  const file = fromRoot('bench', 'results', 'latest.json');
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(out, null, 2) + '\n');
  console.log(`\nWrote ${path.relative(process.cwd(), file)}`);
}

// Stop the children on Ctrl-C / SIGTERM as well as on success or failure.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping`);
    void stopAll().finally(() => process.exit(130));
  });
}

main()
  .then(stopAll)
  .catch(async (err: unknown) => {
    console.error(`\nbench failed: ${err instanceof Error ? err.message : String(err)}`);
    await stopAll();
    process.exit(1);
  });
