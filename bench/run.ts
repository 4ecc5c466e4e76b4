/**
 * The benchmark (docs/benchmarks.md): how much does the gateway cost on its busiest read and its money writes?
 *
 *   npm run bench -- [--database-url URL] [--distributions N] [--duration S] [--connections C,C] [--warmup S] [--settle S] [--reseed] [--scale]
 *   npm run bench -- --subscriptions [--idle N] [--rounds R] [--warmup-rounds W]   (bench/subscriptions.ts)
 *
 * Against PostgreSQL with the large demo data set it runs, one server at a time:
 *   1. gateway       REST GET /api/v1/distributions and GraphQL `distributions` (demo investor,
 *                    default page; the fixed text, then the same as free text) at each connection
 *                    count; then the two money writes
 *                    (POST /api/v1/withdrawals/requests, POST /api/v1/investment-requests, each
 *                    request a new valid one, see prepareWriters) at the last connection count (10)
 *   2. services      bench/services.ts: the gateway's own services for the same list behind bare
 *                    node:http (no Express, no GraphQL): the ceiling of any transport over Prisma
 *   3. floor         bench/floor.ts: node:http + pg, the same list JSON and the same writes
 *   4. PostGraphile  bench/postgraphile.ts: PostGraphile 5, amber preset, the same page + totalCount
 * and reports req/s, p50/p99 latency, peak RSS of the server process (VmRSS sampled every 100 ms),
 * server CPU per request (utime + stime delta of the server process / requests), SQL statements per
 * request, and the ratios between them. `--scale` instead measures the lists of bench/scale.ts at
 * 10k, 100k and 1M distributions. Figures are written to bench/results/ (JSON) and printed as a
 * markdown table for docs/benchmarks.md.
 *
 * Everything runs from the bench's own build, dist-bench/ (`npm run build:bench`: src/, scripts/ and
 * bench/ compiled as `npm run build` compiles the product into dist/, which holds no bench). The
 * database is created if missing and seeded (its scripts/seed.js) only when it holds fewer
 * than N distributions, so reruns start measuring at once. All traffic goes to 127.0.0.1, and every
 * child process is stopped at the end, on failure and Ctrl-C too.
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
import { fromRoot } from '../src/platform/paths';
import { loadOperations } from '../src/rest/operations';
import { runSubscriptions } from './subscriptions';
import { FILTER_VALUES_SQL, SCALE_LISTS, SCALE_PAGES, SCALE_SIZES, scaleDatabaseUrl, type FilterValues } from './scale';
import { present } from '../src/platform/invariant';
import { ensurePeer } from './peer';
import { forkedPort } from './forked-server';
import { onContainerRuntime } from './container-runtime';
import { describeSteadiness, probeSteadiness, type Steadiness } from './steadiness';
import { integerListOption, integerOption, parseCommandLine } from '../scripts/command';
import { benchDatabaseUrl } from './database-url';
import { cpuMs, productionNodeFlags, statusKb } from './server-process';

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

interface Options {
  databaseUrl: string;
  distributions: number;
  duration: number;
  warmup: number;
  settle: number;
  connections: number[];
  reseed: boolean;
  scale: boolean;
  sizes: number[];
  subscriptions: boolean;
  idle: number;
  rounds: number;
  warmupRounds: number;
  interleave: number;
}

const USAGE = `Usage: npm run bench -- [options]

  --database-url URL   PostgreSQL to use (default: BENCH_DATABASE_URL or postgresql://postgres@127.0.0.1:5432/gateway_bench)
  --distributions N    seed until at least N distribution rows exist (default 100000)
  --duration S         seconds measured per target (default 10)
  --warmup S           seconds of unmeasured load before each target (default 2)
  --settle S           seconds of load each list target gets once, before its first warm-up, so that
                       it is measured as a process that has served traffic for a while, not while V8
                       is still optimising it (default 20; 0 to skip; not with --scale; the writes
                       follow the lists on a warm process); recorded in 5 s slices as the target's
                       warm-up curve
  --connections C,C    concurrent connections, comma-separated (default 64,10; writes use the last)
  --reseed             empty and seed the database again even if it is big enough
  --scale              the list latency curve at 10k / 100k / 1M distributions instead (bench/scale.ts);
                       there --duration defaults to 3 and --warmup to 1
  --sizes N,N          the data set sizes of --scale (default 10000,100000,1000000)
  --interleave N       the list targets compared with PostGraphile (gateway REST, GraphQL fixed and free
                       text, services ceiling, PostGraphile) and the floor all up at once, measured in
                       turn for N rounds, each round ending with the gateway's and the floor's money
                       writes; each target's median reported (runInterleaved); --duration and
                       --warmup are per turn
  --subscriptions      the WebSocket subscriptions target instead (bench/subscriptions.ts): RSS of
                       --idle N idle subscriptions (default 4000, 4 per socket) and the fan-out lag of
                       --rounds R commits that notify every subscribed user (default 100), after
                       --warmup-rounds W not counted (default 10)`;

function parseBenchArgs(): Options {
  const values = parseCommandLine(
    {
      'database-url': { type: 'string' },
      distributions: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      settle: { type: 'string' },
      connections: { type: 'string' },
      reseed: { type: 'boolean', default: false },
      scale: { type: 'boolean', default: false },
      sizes: { type: 'string' },
      subscriptions: { type: 'boolean', default: false },
      idle: { type: 'string' },
      rounds: { type: 'string' },
      'warmup-rounds': { type: 'string' },
      interleave: { type: 'string' },
    },
    USAGE,
  );
  const opts: Options = {
    databaseUrl: benchDatabaseUrl(values['database-url']),
    distributions: integerOption('distributions', values.distributions, 1) ?? 100_000,
    // --scale measures many short lists: shorter defaults there.
    duration: integerOption('duration', values.duration, 1) ?? (values.scale ? 3 : 10),
    warmup: integerOption('warmup', values.warmup, 0) ?? (values.scale ? 1 : 2),
    settle: integerOption('settle', values.settle, 0) ?? 20,
    connections: integerListOption('connections', values.connections, 1) ?? [64, 10],
    reseed: values.reseed,
    scale: values.scale,
    sizes: integerListOption('sizes', values.sizes, 1) ?? SCALE_SIZES,
    subscriptions: values.subscriptions,
    idle: integerOption('idle', values.idle, 1) ?? 4000,
    rounds: integerOption('rounds', values.rounds, 1) ?? 100,
    warmupRounds: integerOption('warmup-rounds', values['warmup-rounds'], 0) ?? 10,
    interleave: integerOption('interleave', values.interleave, 1) ?? 0,
  };
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

/** A file of the bench's own build (dist-bench/), which holds this file: the gateway and the scripts compiled with it. */
const built = (...parts: string[]) => path.join(__dirname, '..', ...parts);

/** Runs the operators' seed script (it applies migrations first); returns the wall time in ms. */
async function seed(databaseUrl: string, distributions: number, reset: boolean): Promise<number> {
  const args = [built('scripts', 'seed.js'), '--distributions', String(distributions), ...(reset ? ['--reset'] : [])];
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
  // The gateway drains in-flight requests and closes its pools on SIGTERM: give it time.
  const exited = await Promise.race([exitOf(child).then(() => true), idle(15_000).then(() => false)]);
  if (!exited) {
    console.error(`[bench] ${childNames.get(child) ?? 'child'} still running 15 s after SIGTERM: killed`);
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

/** A server under test: its base URL, its process (for RSS and CPU) and its SQL statement counter. */
interface Server {
  name: string;
  base: string;
  child: ChildProcess;
  queriesSent(): Promise<number>;
}

const BENCH_JWT_SECRET = 'bench-only-secret-0123456789abcdef0123456789';
/** Production mode serves /metrics only with this bearer token. */
const BENCH_METRICS_TOKEN = 'bench-metrics-token';

/** The gateway's production environment, which the services ceiling (bench/services.ts) shares. */
function gatewayEnv(databaseUrl: string): NodeJS.ProcessEnv {
  return {
    DATABASE_URL: databaseUrl,
    NODE_ENV: 'production',
    JWT_SECRET: BENCH_JWT_SECRET,
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT_PER_MINUTE: '0',
    SEED_ON_START: 'false',
    // The bench logs in as the demo accounts: a staging-like use of production mode.
    ALLOW_DEMO_ACCOUNTS: 'true',
    MIGRATE_ON_START: 'true',
    METRICS_TOKEN: BENCH_METRICS_TOKEN,
    // An API instance, as deployed behind a load balancer (docs/operations.md): the background jobs
    // run in the worker role. With ROLE=all the audit sealer caught up on the previous run's ~20k
    // write events during the first target (REST @64: +60 % CPU per request, 3.11 SQL per request).
    ROLE: 'api',
  };
}

async function startGateway(databaseUrl: string): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [...(await productionNodeFlags()), built('src', 'main.js')], {
    cwd: fromRoot(),
    env: { ...process.env, ...gatewayEnv(databaseUrl), PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  childNames.set(child, 'gateway');
  forward(child, 'gateway');
  const base = `http://127.0.0.1:${port}`;
  const server: Server = { name: 'gateway', base, child, queriesSent: () => metricValue(base, 'db_queries_sent') };
  // Up to 120 s: migrations (index builds on a large table) may run on the first start.
  for (let attempt = 0; attempt < 480; attempt++) {
    if (child.exitCode !== null) throw new Error(`the gateway exited during start-up (exit ${child.exitCode}); see its output above`);
    try {
      const res = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(1000) });
      if (res.status === 200) return server;
    } catch {
      // Not listening yet.
    }
    await sleep(250);
  }
  throw new Error('the gateway did not report ready (/readyz) within 120 s');
}

/** bench/services.js, floor.js or postgraphile.js as a forked child speaking the small IPC protocol (forked-server.ts). */
async function startForked(name: string, file: string, env: NodeJS.ProcessEnv, execArgv: string[] = process.execArgv): Promise<Server> {
  const child = fork(path.join(__dirname, file), [], { env: { ...process.env, ...env }, execArgv, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  children.add(child);
  childNames.set(child, name);
  forward(child, name);
  const port = await forkedPort(child, name);
  const queriesSent = () =>
    new Promise<number>((resolve) => {
      const onMessage = (m: unknown) => {
        const q = (m as { queries?: number }).queries;
        if (typeof q === 'number') {
          child.off('message', onMessage);
          resolve(q);
        }
      };
      child.on('message', onMessage);
      child.send('queries');
    });
  return { name, base: `http://127.0.0.1:${port}`, child, queriesSent };
}

/** One unlabelled metric of the gateway's /metrics. */
async function metricValue(base: string, name: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` } })).text();
  const match = new RegExp(`^${name.replace(/[{}.*+?^$()|[\]\\]/g, '\\$&')} (\\S+)$`, 'm').exec(text);
  if (!match) throw new Error(`no ${name} at ${base}/metrics`);
  return Number(match[1]);
}

// ---------------------------------------------------------------------------------------------
// Server process statistics (Linux /proc, bench/server-process.ts)
// ---------------------------------------------------------------------------------------------

/** The largest resident set seen while `during` runs, sampled every 100 ms. */
async function peakRss<T>(pid: number, during: PromiseLike<T>): Promise<{ result: T; peakKb: number }> {
  let peakKb = await statusKb(pid, 'VmRSS');
  const timer = setInterval(() => {
    void statusKb(pid, 'VmRSS').then(
      (kb) => (peakKb = Math.max(peakKb, kb)),
      () => undefined,
    );
  }, 100);
  try {
    const result = await during;
    return { result, peakKb: Math.max(peakKb, await statusKb(pid, 'VmRSS')) };
  } finally {
    clearInterval(timer);
  }
}

// ---------------------------------------------------------------------------------------------
// Targets, sanity check, measurement
// ---------------------------------------------------------------------------------------------

type TargetKey =
  | 'rest'
  | 'graphql'
  | 'graphql-free'
  | 'graphql-distinct'
  | 'services'
  | 'postgraphile'
  | 'floor'
  | 'withdrawal'
  | 'investment'
  | 'floor-withdrawal'
  | 'floor-investment';

interface Target {
  key: TargetKey;
  label: string;
  server: Server;
  request: autocannon.Options;
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

/** PostGraphile's equivalent: the same page (order, size, fields, unit name) and the exact total. */
const POSTGRAPHILE_QUERY = `query Distributions($investorId: Int!) {
  allDistributions(condition: { investorId: $investorId }, orderBy: [CREATED_AT_DESC, PRIMARY_KEY_DESC], first: 15) {
    totalCount
    nodes { rowId unitId unitByUnitId { name } period type grossAmount netAmount fees status distributedAt createdAt }
  }
}`;

async function call(target: Target): Promise<{ status: number; text: string }> {
  const { url, method, headers, body } = target.request;
  const res = await fetch(url, { method, headers, body });
  return { status: res.status, text: await res.text() };
}

/** What every list target must answer: the REST route's ids, total and body. */
interface Reference {
  ids: number[];
  total: number;
  restText: string;
  restOrigin: string;
}

function idsAndTotal(key: TargetKey, text: string): { ids: number[]; total: number } {
  const body = JSON.parse(text) as {
    data?: { id: number }[] & {
      distributions?: { items: { id: number }[]; pageInfo: { total: number } };
      allDistributions?: { nodes: { rowId: number }[]; totalCount: number };
    };
    meta?: { total: number };
    errors?: unknown[];
  };
  if (body.errors) throw new Error(`sanity check: ${key} answered errors: ${JSON.stringify(body.errors).slice(0, 300)}`);
  if (key === 'graphql' || key === 'graphql-free' || key === 'graphql-distinct') {
    const page = present(body.data?.distributions, `${key}: data.distributions`);
    return { ids: page.items.map((d) => d.id), total: page.pageInfo.total };
  }
  if (key === 'postgraphile') {
    const all = present(body.data?.allDistributions, `${key}: data.allDistributions`);
    return { ids: all.nodes.map((d) => d.rowId), total: all.totalCount };
  }
  return { ids: (body.data ?? []).map((d) => d.id), total: present(body.meta, `${key}: meta`).total };
}

/**
 * Same ids in the same order and the same total on every list target, else the comparison is void;
 * the floor must moreover answer byte for byte what the REST route answers, apart from its origin.
 */
async function sanityCheck(target: Target, reference: Reference | null): Promise<Reference> {
  const res = await call(target);
  if (res.status !== 200) throw new Error(`sanity check: ${target.label} answered ${res.status}: ${res.text.slice(0, 300)}`);
  const got = idsAndTotal(target.key, res.text);
  if (!reference) {
    if (got.ids.length === 0) throw new Error('sanity check: the demo investor has no distributions; is the database seeded?');
    return { ...got, restText: res.text, restOrigin: target.server.base };
  }
  if (got.ids.join() !== reference.ids.join() || got.total !== reference.total) {
    throw new Error(
      `sanity check FAILED: ${target.label} disagrees with REST\n  ids:   ${got.ids} vs ${reference.ids}\n  total: ${got.total} vs ${reference.total}`,
    );
  }
  if (target.key === 'floor') {
    const restText = reference.restText.split(reference.restOrigin).join('<origin>');
    const floorText = res.text.split(target.server.base).join('<origin>');
    if (restText !== floorText) {
      const at = [...restText].findIndex((c, i) => c !== floorText[i]);
      throw new Error(
        `sanity check FAILED: the floor's JSON differs from the REST route's at character ${at}:\n  REST:  …${restText.slice(Math.max(0, at - 80), at + 80)}\n  floor: …${floorText.slice(Math.max(0, at - 80), at + 80)}`,
      );
    }
  }
  return reference;
}

/** `GET /api/v1/distributions` on a server that answers the REST route (the gateway, the floor, the services ceiling). */
function restListTarget(key: TargetKey, label: string, server: Server, headers: Record<string, string>): Target {
  return { key, label, server, request: { url: `${server.base}/api/v1/distributions`, method: 'GET', headers } };
}

/** A GraphQL POST of `payload` to a server's /graphql. */
function graphqlPost(server: Server, headers: Record<string, string>, payload: object): autocannon.Options {
  return { url: `${server.base}/graphql`, method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(payload) };
}

function graphqlListTarget(gateway: Server, auth: Record<string, string>): Target {
  const payload = { operationName: 'Distributions', query: distributionsQuery(), variables: {} };
  return { key: 'graphql', label: 'GraphQL distributions', server: gateway, request: graphqlPost(gateway, auth, payload) };
}

/**
 * The same document as free text (a comment line ahead): no fixed document matches it, so it runs as
 * a client's own query does, compiled from its second execution on (src/graphql/compiled-execution.ts).
 */
function freeFormGraphqlListTarget(gateway: Server, auth: Record<string, string>): Target {
  const payload = { operationName: 'Distributions', query: `# free text\n${distributionsQuery()}`, variables: {} };
  return { key: 'graphql-free', label: 'GraphQL distributions, free text', server: gateway, request: graphqlPost(gateway, auth, payload) };
}

/** How many distinct free-form documents the distinct-documents target sends in turn. */
const DISTINCT_DOCUMENTS = 1000;

/**
 * The same document as free text, {@link DISTINCT_DOCUMENTS} different texts in turn (a numbered
 * comment line ahead): a client sending many documents of its own. Each is compiled on its second
 * execution and kept while the compiled documents' byte bound allows; the peak RSS shows that bound.
 */
function distinctDocumentsTarget(gateway: Server, auth: Record<string, string>): Target {
  const query = distributionsQuery();
  const payload = (i: number) => JSON.stringify({ operationName: 'Distributions', query: `# document ${i % DISTINCT_DOCUMENTS}\n${query}`, variables: {} });
  let next = 0;
  const request = graphqlPost(gateway, auth, {});
  return {
    key: 'graphql-distinct',
    label: `GraphQL distributions, ${DISTINCT_DOCUMENTS} distinct free texts`,
    server: gateway,
    request: { ...request, body: payload(0), requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, body: payload(next++) }) }] },
  };
}

function postgraphileTarget(pgl: Server, investorId: number): Target {
  const payload = { query: POSTGRAPHILE_QUERY, variables: { investorId } };
  return { key: 'postgraphile', label: 'PostGraphile 5 amber (no auth)', server: pgl, request: graphqlPost(pgl, {}, payload) };
}

const CEILING_LABEL = 'services ceiling node:http + services';

/** The services ceiling, with the gateway's node flags and environment. */
async function startCeiling(databaseUrl: string): Promise<Server> {
  return startForked('services', 'services.js', gatewayEnv(databaseUrl), await productionNodeFlags());
}

function startPostGraphile(databaseUrl: string): Promise<Server> {
  return startForked('postgraphile', 'postgraphile.js', { DATABASE_URL: databaseUrl, NODE_ENV: 'production' });
}

/** A list target: checked against the REST route's answer, settled, then measured at each connection count. */
async function measureList(target: Target, reference: Reference, opts: Options): Promise<Measurement[]> {
  await sanityCheck(target, reference);
  await settle(target, opts.connections[0], opts.settle);
  const out: Measurement[] = [];
  for (const c of opts.connections) out.push(await measure(target, c, opts));
  return out;
}

/** One slice of a target's settle: what its process spent per request, seconds after the settle began. */
interface SettleSlice {
  endsAtSeconds: number;
  requestsPerSecond: number;
  cpuMsPerRequest: number;
}

interface Settle {
  target: TargetKey;
  label: string;
  connections: number;
  slices: SettleSlice[];
}

/** Every target's settle of this run, in order: the warm-up curves of the report. */
const settles: Settle[] = [];
const SETTLE_SLICE_SECONDS = 5;

/**
 * `seconds` of the target's load before its first measurement, in 5 s slices. A fresh gateway keeps
 * optimising for ~20 s of load (888 functions optimised in the 10 s after a 3 s warm-up, 136 in the
 * next 10 s, ~70 in each later 10 s; docs/benchmarks.md, "A new process warms up"), so a 2 s warm-up measured
 * it half cold. Every list target gets the same settle, and its slices are reported: they are what
 * a freshly started process costs.
 */
async function settle(target: Target, connections: number, seconds: number): Promise<void> {
  if (seconds <= 0) return;
  const pid = present(target.server.child.pid, 'the server process id');
  process.stdout.write(`  ${target.label} @${connections}: settling ${seconds} s… `);
  const slices: SettleSlice[] = [];
  for (let done = 0; done < seconds;) {
    const length = Math.min(SETTLE_SLICE_SECONDS, seconds - done);
    const cpuBefore = await cpuMs(pid);
    const result = await load(target, connections, length);
    done += length;
    slices.push({
      endsAtSeconds: done,
      requestsPerSecond: result.requests.total / result.duration,
      cpuMsPerRequest: ((await cpuMs(pid)) - cpuBefore) / Math.max(1, result.requests.total),
    });
  }
  console.log(slices.map((s) => fmt(s.cpuMsPerRequest)).join(' → ') + ' ms/req');
  settles.push({ target: target.key, label: target.label, connections, slices });
}

/** Nearest-rank percentile over sorted values. */
const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);

interface Measurement {
  target: TargetKey;
  label: string;
  server: string;
  connections: number;
  url: string;
  /** 2xx answers; the others are in non2xx. */
  requests: number;
  non2xx: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p99: number; mean: number; max: number };
  /** Largest VmRSS of the server process sampled during the measured run, and its VmHWM after it. */
  peakRssMb: number;
  lifetimePeakRssMb: number;
  /** Server process CPU time (user + system) over the measured run / requests completed. */
  cpuMsPerRequest: number;
  /** Server process CPU time / wall time: 1 = one core busy. */
  cpuCores: number;
  sqlPerRequest: number;
  /** autocannon's own figures (its latency histogram has 1 ms resolution). */
  autocannon: { requestsAverage: number; latencyP50: number; latencyP99: number; sent: number };
  errors: number;
  timeouts: number;
}

function load(target: Target, connections: number, duration: number): autocannon.Instance {
  return autocannon({ ...target.request, connections, duration, timeout: 10 });
}

async function measure(target: Target, connections: number, opts: Pick<Options, 'warmup' | 'duration'>): Promise<Measurement> {
  const pid = present(target.server.child.pid, 'the server process id');
  process.stdout.write(`  ${target.label} @${connections}: warm-up ${opts.warmup} s… `);
  if (opts.warmup > 0) await load(target, connections, opts.warmup);
  // In-flight warm-up requests may still be running their queries; let them land before the reading.
  await sleep(500);
  const [queriesBefore, cpuBefore] = [await target.server.queriesSent(), await cpuMs(pid)];

  process.stdout.write(`measuring ${opts.duration} s… `);
  // autocannon's latency histogram counts whole milliseconds; the floor answers in less, so the
  // percentiles are computed here from each 2xx response's sub-millisecond time instead.
  const latencies: number[] = [];
  const run = load(target, connections, opts.duration);
  run.on('response', (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) latencies.push(ms);
  });
  const { result, peakKb } = await peakRss(pid, run);
  const cpuAfter = await cpuMs(pid);
  await sleep(500);
  const queriesAfter = await target.server.queriesSent();
  console.log(`${result.requests.total} requests`);

  // Failed answers (e.g. 503 when the server's pool wait times out under overload) are reported, not
  // counted: req/s and latencies are those of 2xx answers only.
  if (result.non2xx > 0) console.warn(`  ! ${target.label} @${connections}: ${result.non2xx} non-2xx answers (${JSON.stringify(result.statusCodeStats)})`);
  if (latencies.length === 0) throw new Error(`${target.label}: no request succeeded`);
  latencies.sort((a, b) => a - b);
  return {
    target: target.key,
    label: target.label,
    server: target.server.name,
    connections,
    url: target.request.url,
    requests: latencies.length,
    non2xx: result.non2xx,
    requestsPerSecond: latencies.length / result.duration,
    latencyMs: {
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      mean: latencies.reduce((a, b) => a + b, 0) / latencies.length,
      max: latencies[latencies.length - 1],
    },
    peakRssMb: peakKb / 1024,
    lifetimePeakRssMb: (await statusKb(pid, 'VmHWM')) / 1024,
    cpuMsPerRequest: (cpuAfter - cpuBefore) / result.requests.total,
    cpuCores: (cpuAfter - cpuBefore) / (result.duration * 1000),
    // Requests still in flight when autocannon stops (up to `connections`) are not "completed", yet
    // the server runs them to the end, queries included: divide by requests sent.
    sqlPerRequest: (queriesAfter - queriesBefore) / result.requests.sent,
    autocannon: { requestsAverage: result.requests.average, latencyP50: result.latency.p50, latencyP99: result.latency.p99, sent: result.requests.sent },
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

// ---------------------------------------------------------------------------------------------
// Writes: money requests
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
    const {
      rows: [config],
    } = await client.query<{ min_investment: string }>('SELECT min_investment FROM app_config WHERE id = 1');
    const amount = Math.max(Number(config?.min_investment ?? 0), 100).toFixed(2);
    const {
      rows: [unit],
    } = await client.query<{ id: number }>(
      `INSERT INTO units (code, name, description, location, category_id, status, total_value, available_percentage, min_investment, expected_return, updated_at)
       VALUES ($1, 'Benchmark writes', 'Target of the write benchmark', 'Loopback', (SELECT min(id) FROM categories), 'AVAILABLE', $2, 100, 1, 5, now())
       ON CONFLICT (code) DO UPDATE SET status = 'AVAILABLE', available_percentage = 100, updated_at = now() RETURNING id`,
      [BENCH_UNIT, (Number(amount) * 10_000_000).toFixed(2)],
    );
    // Every run starts from the same state: the earlier runs' requests are never reviewed, and each
    // write sums the pending ones of its unit (investments) or holding (withdrawals), so they would
    // pile up and slow every later run down (measured: the floor's investments 488 → 184 req/s
    // after four runs on one database).
    await client.query(`UPDATE investment_requests SET status = 'CANCELLED', updated_at = now() WHERE unit_id = $1 AND status = 'PENDING'`, [unit.id]);
    await client.query(`UPDATE withdrawal_requests SET status = 'CANCELLED', updated_at = now() WHERE investor_id = ANY($1::int[]) AND status = 'PENDING'`, [
      writers.map((w) => w.investor_id),
    ]);
    return { writers: writers.map((w) => ({ email: w.email, unitId: w.unit_id })), unitId: unit.id, amount };
  });
}

/** A POST whose bearer token and body rotate over the writers, so each request is a new valid one. */
function writeTarget(key: TargetKey, label: string, server: Server, route: string, tokens: string[], body: (i: number) => object): Target {
  let next = 0;
  const request = (i: number) => ({ authorization: `Bearer ${tokens[i % tokens.length]}`, 'content-type': 'application/json' });
  return {
    key,
    label,
    server,
    request: {
      url: `${server.base}${route}`,
      method: 'POST',
      headers: request(0),
      body: JSON.stringify(body(0)),
      requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, headers: request(next), body: JSON.stringify(body(next++)) }) }],
    },
  };
}

interface WriteSetup {
  writers: Writer[];
  unitId: number;
  amount: string;
  tokens: string[];
}

/** The writers made ready (prepareWriters) and logged in through the gateway; their tokens serve the floor too. */
async function writeSetup(databaseUrl: string, gateway: Server): Promise<WriteSetup> {
  const prepared = await prepareWriters(databaseUrl);
  const tokens: string[] = [];
  for (const w of prepared.writers) tokens.push(await login(gateway.base, w.email));
  console.log(`  Writes: ${tokens.length} verified investors take turns; every answer must be 201.`);
  return { ...prepared, tokens };
}

/** The withdrawal and investment targets on one server (the gateway or the floor). */
function writeTargets(server: Server, w: WriteSetup, floor: boolean): Target[] {
  const prefix = floor ? 'floor ' : 'REST ';
  return [
    writeTarget(
      floor ? 'floor-withdrawal' : 'withdrawal',
      `${prefix}POST /api/v1/withdrawals/requests`,
      server,
      '/api/v1/withdrawals/requests',
      w.tokens,
      (i) => ({ unit_id: w.writers[i % w.tokens.length].unitId, ownership_percentage: 0.000001, reason: 'benchmark' }),
    ),
    writeTarget(
      floor ? 'floor-investment' : 'investment',
      `${prefix}POST /api/v1/investment-requests`,
      server,
      '/api/v1/investment-requests',
      w.tokens,
      () => ({ unit_id: w.unitId, amount: Number(w.amount) }),
    ),
  ];
}

async function measureWrites(targets: Target[], connections: number, opts: Options): Promise<Measurement[]> {
  for (const target of targets) {
    const res = await call(target);
    if (res.status !== 201) throw new Error(`sanity check: ${target.label} answered ${res.status}: ${res.text.slice(0, 300)}`);
  }
  const out: Measurement[] = [];
  // Not settled: the process is warm from the lists, and a settle's writes would pile up pending
  // requests that each later write sums (measured: investments 512 → 351 req/s over a 20 s settle).
  for (const target of targets) out.push(await measure(target, connections, opts));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------

const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : '–');

function markdown(rows: string[][]): string {
  return [`| ${rows[0].join(' | ')} |`, `|${rows[0].map(() => '---').join('|')}|`, ...rows.slice(1).map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

interface Ratio {
  name: string;
  connections: number;
  requestsPerSecond: number;
  p99: number;
}

function ratios(results: Measurement[]): Ratio[] {
  const pairs: [TargetKey, TargetKey, string][] = [
    ['rest', 'floor', 'REST / floor'],
    ['graphql', 'floor', 'GraphQL / floor'],
    ['rest', 'postgraphile', 'REST / PostGraphile'],
    ['graphql', 'postgraphile', 'GraphQL / PostGraphile'],
    ['graphql-free', 'postgraphile', 'GraphQL free text / PostGraphile'],
    ['postgraphile', 'floor', 'PostGraphile / floor'],
    ['services', 'floor', 'services ceiling / floor'],
    ['services', 'postgraphile', 'services ceiling / PostGraphile'],
    ['withdrawal', 'floor-withdrawal', 'withdrawal: REST / floor'],
    ['investment', 'floor-investment', 'investment: REST / floor'],
  ];
  const out: Ratio[] = [];
  for (const [a, b, name] of pairs) {
    for (const x of results.filter((r) => r.target === a)) {
      const y = results.find((r) => r.target === b && r.connections === x.connections);
      if (y)
        out.push({ name, connections: x.connections, requestsPerSecond: x.requestsPerSecond / y.requestsPerSecond, p99: x.latencyMs.p99 / y.latencyMs.p99 });
    }
  }
  return out;
}

/** The settle slices of every target: how CPU per request falls as a fresh process warms. */
function settleReport(): string {
  if (settles.length === 0) return '';
  return markdown([
    ['settling target (a fresh process first)', 'conns', `CPU ms/req per ${SETTLE_SLICE_SECONDS} s slice`, 'req/s per slice'],
    ...settles.map((s) => [
      s.label,
      String(s.connections),
      s.slices.map((x) => fmt(x.cpuMsPerRequest)).join(' → '),
      s.slices.map((x) => fmt(x.requestsPerSecond, 0)).join(' → '),
    ]),
  ]);
}

/** The machine's steadiness before the first server started and after the last stopped (bench/steadiness.ts). */
function steadinessReport(s: { before: Steadiness; after: Steadiness }): string {
  return `Machine steadiness (the same CPU work, repeated): before the servers ${describeSteadiness(s.before)}; after them ${describeSteadiness(s.after)}.`;
}

function report(results: Measurement[], rs: Ratio[]): string {
  const text =
    markdown([
      ['target', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'peak RSS MB', 'server CPU ms/req', 'SQL/req', 'non-2xx'],
      ...results.map((r) => [
        r.label,
        String(r.connections),
        fmt(r.requestsPerSecond, 0),
        fmt(r.latencyMs.p50),
        fmt(r.latencyMs.p99),
        fmt(r.peakRssMb, 0),
        fmt(r.cpuMsPerRequest),
        fmt(r.sqlPerRequest),
        String(r.non2xx),
      ]),
    ]) +
    '\n\n' +
    markdown([['ratio', 'conns', 'req/s ratio', 'p99 ratio'], ...rs.map((r) => [r.name, String(r.connections), fmt(r.requestsPerSecond), fmt(r.p99)])]);
  console.log('\n' + text);
  console.log(
    `\nSQL/req: statements the server sent (gateway: db_queries_sent on /metrics; floor and PostGraphile: counted in the\n` +
      `process) over the run / requests sent. CPU: utime + stime of the server process over the run / requests completed.\n` +
      `Peak RSS: largest VmRSS sampled every 100 ms during the run. PostGraphile runs without authentication.`,
  );
  return text;
}

async function writeResults(name: string, out: object): Promise<string> {
  const file = fromRoot('bench', 'results', name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(out, null, 2) + '\n');
  return path.relative(process.cwd(), file);
}

// ---------------------------------------------------------------------------------------------

/** Creates the database if needed and seeds it up to `distributions` rows; returns what it holds. */
async function prepareDatabase(
  databaseUrl: string,
  distributions: number,
  reseed: boolean,
): Promise<{ data: DataSet; seeding: { ms: number; reset: boolean } | null }> {
  if (await ensureDatabase(databaseUrl)) console.log('Created the database.');
  let data = await inspect(databaseUrl);
  if (!reseed && data.distributions >= distributions) {
    console.log(`It holds ${data.distributions} distributions (>= ${distributions}): no seeding needed.`);
    await vacuum(databaseUrl);
    return { data, seeding: null };
  }
  console.log(`It holds ${data.distributions} distributions (${reseed ? '--reseed' : `< ${distributions}`}): seeding.`);
  // The seed script refuses a database that already has the demo data unless told to empty it.
  const reset = data.users > 0;
  const ms = await seed(databaseUrl, distributions, reset);
  console.log(`Seeding took ${(ms / 1000).toFixed(1)} s (wall time of the seed script, migrations included).`);
  data = await inspect(databaseUrl);
  if (data.distributions < distributions) throw new Error(`after seeding there are only ${data.distributions} distributions (< ${distributions})`);
  await vacuum(databaseUrl);
  return { data, seeding: { ms, reset } };
}

/**
 * What autovacuum would have done by the time a freshly loaded database serves traffic: planner
 * statistics and the visibility map (index-only scans). Cheap when nothing changed since.
 */
async function vacuum(databaseUrl: string): Promise<void> {
  await withClient(databaseUrl, (client) => client.query('VACUUM (ANALYZE) distributions, distribution_counts, distribution_totals'));
}

/**
 * The lists' comparison with PostGraphile, with the machine's drift taken out: on this shared two-vCPU machine every
 * server's req/s and even CPU per request drift by tens of per cent over minutes, and the default
 * run measures one server after another (PostGraphile last). Here the gateway, the services ceiling
 * and PostGraphile are all up (idle between turns) and measured in turn, `--interleave` rounds of
 * the same order at each connection count, so each ratio compares neighbours in time. Reported: each
 * target's median run by req/s (with the largest peak RSS of its runs), the ratios of those, and
 * each round's own ratios.
 */
async function runInterleaved(opts: Options): Promise<void> {
  ensurePeer();
  const startedAt = new Date();
  console.log(`Database: ${redact(opts.databaseUrl)}`);
  await prepareDatabase(opts.databaseUrl, opts.distributions, opts.reseed);
  const investorId = await demoInvestorId(opts.databaseUrl);
  const loadAverage = os.loadavg()[0];
  const steadyBefore = probeSteadiness();
  const gateway = await startGateway(opts.databaseUrl);
  const auth = { authorization: `Bearer ${await login(gateway.base)}` };
  const rest = restListTarget('rest', 'REST GET /api/v1/distributions', gateway, auth);
  const reference = await sanityCheck(rest, null);
  const floor = await startForked('floor', 'floor.js', { DATABASE_URL: opts.databaseUrl, JWT_SECRET: BENCH_JWT_SECRET });
  const targets = [
    rest,
    graphqlListTarget(gateway, auth),
    freeFormGraphqlListTarget(gateway, auth),
    restListTarget('services', CEILING_LABEL, await startCeiling(opts.databaseUrl), auth),
    postgraphileTarget(await startPostGraphile(opts.databaseUrl), investorId),
  ];
  for (const target of targets) await sanityCheck(target, reference);
  const writes = await writeSetup(opts.databaseUrl, gateway);
  const writeConnections = opts.connections[opts.connections.length - 1];
  console.log(
    `\nInterleaved: ${opts.interleave} rounds × connections ${opts.connections.join(', ')} × ${targets.length} targets, ${opts.warmup} s + ${opts.duration} s each, after ${opts.settle} s of settling each; before the servers, ${describeSteadiness(steadyBefore)}`,
  );
  for (const target of targets) await settle(target, opts.connections[0], opts.settle);
  const runs: Measurement[] = [];
  const perRound: { round: number; connections: number; ratios: Ratio[] }[] = [];
  for (let round = 1; round <= opts.interleave; round++) {
    for (const c of opts.connections) {
      const turn: Measurement[] = [];
      for (const target of targets) turn.push(await measure(target, c, opts));
      runs.push(...turn);
      perRound.push({ round, connections: c, ratios: ratios(turn) });
    }
    // The writes, each server's from the same state (prepareWriters cancels what the last turn left).
    const turn: Measurement[] = [];
    for (const server of [gateway, floor]) {
      await prepareWriters(opts.databaseUrl);
      turn.push(...(await measureWrites(writeTargets(server, writes, server === floor), writeConnections, opts)));
    }
    runs.push(...turn);
    perRound.push({ round, connections: writeConnections, ratios: ratios(turn) });
  }
  await stopAll();
  const steadiness = { before: steadyBefore, after: probeSteadiness() };
  const measured = [...new Set(runs.map((r) => `${r.target}@${r.connections}`))];
  const results = measured.map((key) => {
    const mine = runs.filter((r) => `${r.target}@${r.connections}` === key).sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
    return { ...mine[Math.floor(mine.length / 2)], peakRssMb: Math.max(...mine.map((r) => r.peakRssMb)) };
  });
  const rs = ratios(results);
  const roundLines = perRound.map(
    ({ round, connections, ratios: r }) =>
      `round ${round} @${connections}: ${r.map((x) => `${x.name} ${x.requestsPerSecond.toFixed(2)} (p99 ${x.p99.toFixed(2)}×)`).join('; ')}`,
  );
  const text = `${report(results, rs)}\nEach round's own ratios (req/s, and p99 as a multiple):\n${roundLines.join('\n')}\n\n${settleReport()}\n\n${steadinessReport(steadiness)}\n`;
  console.log(`\n${text}`);
  const file = await writeResults('interleaved.json', {
    startedAt: startedAt.toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    loadAverageBefore: loadAverage,
    loadAverageAfter: os.loadavg()[0],
    options: { interleave: opts.interleave, duration: opts.duration, warmup: opts.warmup, settle: opts.settle, connections: opts.connections },
    steadiness,
    settles,
    runs,
    results,
    ratios: rs,
    perRound,
    markdown: text,
  });
  console.log(`Wrote ${file}`);
}

async function demoInvestorId(databaseUrl: string): Promise<number> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ id: number }>('SELECT i.id FROM investors i JOIN users u ON u.id = i.user_id WHERE u.email = $1', [
      'investor@demo.test',
    ]);
    if (!rows[0]) throw new Error('no demo investor; is the database seeded?');
    return rows[0].id;
  });
}

async function main(): Promise<void> {
  const opts = parseBenchArgs();
  if (opts.scale) return runScale(opts);
  if (opts.interleave) return runInterleaved(opts);
  if (opts.subscriptions) {
    console.log(`Database: ${redact(opts.databaseUrl)}`);
    await prepareDatabase(opts.databaseUrl, opts.distributions, opts.reseed);
    return runSubscriptions(
      { databaseUrl: opts.databaseUrl, subscriptions: opts.idle, rounds: opts.rounds, warmupRounds: opts.warmupRounds },
      { startGateway, login, statusKb, cpuMs, metricValue, writeResults },
    );
  }
  ensurePeer();
  const startedAt = new Date();
  console.log(`Database: ${redact(opts.databaseUrl)}`);
  const { data, seeding } = await prepareDatabase(opts.databaseUrl, opts.distributions, opts.reseed);
  const investorId = await demoInvestorId(opts.databaseUrl);
  const writeConnections = opts.connections[opts.connections.length - 1];
  // Everything (load generator, servers, PostgreSQL) shares this machine; a busy one skews the figures.
  const loadAverage = os.loadavg()[0];
  const steadyBefore = probeSteadiness();
  console.log(
    `\nLoad: connections ${opts.connections.join(' and ')} (writes ${writeConnections}), ${opts.settle} s of settling before each list target's first measurement, ${opts.warmup} s warm-up + ${opts.duration} s per measurement, on ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}); 1-min load average before: ${loadAverage.toFixed(2)}; before the servers, ${describeSteadiness(steadyBefore)}.`,
  );
  const results: Measurement[] = [];

  // 1. The gateway: REST and GraphQL lists, then the writes. Its tokens stay valid for the floor
  //    (same secret, sessions in the database) after it stops.
  console.log('\nGateway');
  const gateway = await startGateway(opts.databaseUrl);
  const token = await login(gateway.base);
  const auth = { authorization: `Bearer ${token}` };
  const rest = restListTarget('rest', 'REST GET /api/v1/distributions', gateway, auth);
  const graphql = graphqlListTarget(gateway, auth);
  const graphqlFree = freeFormGraphqlListTarget(gateway, auth);
  const reference = await sanityCheck(rest, null);
  for (const target of [rest, graphql, graphqlFree]) results.push(...(await measureList(target, reference, opts)));
  const distinct = distinctDocumentsTarget(gateway, auth);
  await sanityCheck(distinct, reference);
  results.push(await measure(distinct, opts.connections[0], opts));
  const writes = await writeSetup(opts.databaseUrl, gateway);
  results.push(...(await measureWrites(writeTargets(gateway, writes, false), writeConnections, opts)));
  await stopChild(gateway.child);

  // 2. The services ceiling: the gateway's own services (Prisma) for the same list behind bare node:http,
  //    with the gateway's node flags and environment.
  console.log('\nServices ceiling');
  const ceiling = await startCeiling(opts.databaseUrl);
  results.push(...(await measureList(restListTarget('services', CEILING_LABEL, ceiling, auth), reference, opts)));
  await stopChild(ceiling.child);

  // 3. The floor: the same list and writes.
  console.log('\nFloor');
  const floor = await startForked('floor', 'floor.js', { DATABASE_URL: opts.databaseUrl, JWT_SECRET: BENCH_JWT_SECRET });
  results.push(...(await measureList(restListTarget('floor', 'floor node:http + pg', floor, auth), reference, opts)));
  await prepareWriters(opts.databaseUrl);
  results.push(...(await measureWrites(writeTargets(floor, writes, true), writeConnections, opts)));
  await stopChild(floor.child);

  // 4. PostGraphile: the same page and totalCount, no authentication.
  console.log('\nPostGraphile');
  const pgl = await startPostGraphile(opts.databaseUrl);
  const postgraphile = postgraphileTarget(pgl, investorId);
  results.push(...(await measureList(postgraphile, reference, opts)));
  await stopChild(pgl.child);
  const steadiness = { before: steadyBefore, after: probeSteadiness() };

  const rs = ratios(results);
  const settleText = `${settleReport()}\n\n${steadinessReport(steadiness)}`;
  console.log(`\n${settleText}`);
  const markdownText = `${report(results, rs)}\n\n${settleText}`;
  const file = await writeResults('latest.json', {
    startedAt: startedAt.toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? null,
    loadAverageBefore: loadAverage,
    loadAverageAfter: os.loadavg()[0],
    postgres: data.postgresVersion,
    database: redact(opts.databaseUrl),
    dataSet: { distributions: data.distributions, demoInvestorDistributions: reference.total, responseBytes: Buffer.byteLength(reference.restText) },
    seeding,
    options: { duration: opts.duration, warmup: opts.warmup, settle: opts.settle, connections: opts.connections },
    steadiness,
    settles,
    results,
    ratios: rs,
    markdown: markdownText,
  });
  console.log(`\nWrote ${file}`);
}

interface ScaleRow {
  size: number;
  distributions: number;
  list: string;
  page: number;
  total: number;
  p50At1: number;
  requestsPerSecondAt10: number;
  sqlPerRequest: number;
}

/** `--scale`: the lists of bench/scale.ts at each size, one gateway per database. */
async function runScale(opts: Options): Promise<void> {
  const startedAt = new Date();
  const rows: ScaleRow[] = [];
  const query = distributionsQuery();
  for (const size of opts.sizes) {
    const databaseUrl = scaleDatabaseUrl(opts.databaseUrl, size);
    console.log(`\n${size} distributions: ${redact(databaseUrl)}`);
    const { data } = await prepareDatabase(databaseUrl, size, opts.reseed);
    const values = await withClient(databaseUrl, async (c) => (await c.query<FilterValues>(FILTER_VALUES_SQL)).rows[0]);
    const gateway = await startGateway(databaseUrl);
    const tokens = { investor: await login(gateway.base), admin: await login(gateway.base, 'admin@demo.test') };
    for (const list of SCALE_LISTS) {
      for (const page of SCALE_PAGES) {
        const target: Target = {
          key: 'graphql',
          label: `${list.name}, page ${page}`,
          server: gateway,
          request: {
            url: `${gateway.base}/graphql`,
            method: 'POST',
            headers: { authorization: `Bearer ${tokens[list.as]}`, 'content-type': 'application/json' },
            body: JSON.stringify({ operationName: 'Distributions', query, variables: { page, filter: list.filter(values) } }),
          },
        };
        const res = await call(target);
        if (res.status !== 200) throw new Error(`${target.label}: ${res.status} ${res.text.slice(0, 300)}`);
        const { total } = idsAndTotal('graphql', res.text);
        const one = await measure(target, 1, opts);
        const ten = await measure(target, 10, { warmup: 0, duration: opts.duration });
        rows.push({
          size,
          distributions: data.distributions,
          list: list.name,
          page,
          total,
          p50At1: one.latencyMs.p50,
          requestsPerSecondAt10: ten.requestsPerSecond,
          sqlPerRequest: one.sqlPerRequest,
        });
      }
    }
    await stopChild(gateway.child);
  }
  const sizes = [...new Set(rows.map((r) => r.size))];
  const keys = [...new Set(rows.map((r) => `${r.list}|${r.page}`))];
  const cell = (key: string, size: number) => rows.find((r) => `${r.list}|${r.page}` === key && r.size === size);
  const text = markdown([
    ['list', 'page', ...sizes.map((s) => `p50 ms @1 (${s})`), ...sizes.map((s) => `req/s @10 (${s})`), `p50 ${sizes[sizes.length - 1]} / ${sizes[0]}`],
    ...keys.map((key) => {
      const [list, page] = key.split('|');
      const first = cell(key, sizes[0]);
      const last = cell(key, sizes[sizes.length - 1]);
      return [
        list,
        page,
        ...sizes.map((s) => fmt(cell(key, s)?.p50At1 ?? NaN)),
        ...sizes.map((s) => fmt(cell(key, s)?.requestsPerSecondAt10 ?? NaN, 0)),
        fmt((last?.p50At1 ?? NaN) / (first?.p50At1 ?? NaN)),
      ];
    }),
  ]);
  console.log('\n' + text);
  const file = await writeResults('scale.json', {
    startedAt: startedAt.toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    options: { duration: opts.duration, warmup: opts.warmup },
    rows,
    markdown: text,
  });
  console.log(`\nWrote ${file}`);
}

async function start(): Promise<void> {
  const rerun = await onContainerRuntime();
  if (rerun !== null) process.exit(rerun);
  console.log(`Runtime: Node ${process.version} (${process.execPath})`);
  // Stop the children on Ctrl-C / SIGTERM as well as on success or failure.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping`);
      void stopAll().finally(() => process.exit(130));
    });
  }
  await main();
}

start()
  .then(stopAll)
  .catch(async (err: unknown) => {
    console.error(`\nbench failed: ${err instanceof Error ? err.message : String(err)}`);
    await stopAll();
    process.exit(1);
  });
