/**
 * `npm run check:upgrade`: a rolling upgrade from the previous release to the working tree and the
 * roll back, on one PostgreSQL, one Redis and one S3-protocol server, behind nginx, under mixed
 * traffic (docs/operations.md, "Upgrades and migrations"):
 *   1. two instances of the previous release serve; traffic starts (lists and GraphQL queries,
 *      logins and refreshes, keyed money POSTs on both faces, KYC uploads, a subscription);
 *   2. the working tree's migrations are applied while they serve;
 *   3. two current instances start and join the balancer once ready (its health check);
 *   4. the previous ones drain (SIGTERM: /readyz 503, the health check takes them out);
 *   5. the roll back: two previous instances start on the expanded schema and join, the current
 *      ones drain; traffic goes on throughout.
 * It holds when no answer was a 5xx and no request failed at the balancer, every acknowledged write
 * is in the database exactly once, tokens and refresh tokens of either version work on the other, an
 * Idempotency-Key first used on one version replays on the other, and the subscription's socket was
 * closed with a code the SDK reconnects on (and reconnected). Exit 0 when it held, 1 with what failed,
 * 2 for bad input (no usable release folder, a missing commit, an unreachable database).
 *
 *   --database-url URL     a PostgreSQL server (a database of its own is made and dropped); default
 *                          CHECK_DATABASE_URL or postgresql://postgres@127.0.0.1:5432/test
 *   --redis-url URL        default REDIS_URL or redis://127.0.0.1:6379 (keys under a prefix of this run)
 *   --previous COMMIT      the previous release's commit; default the latest release folder's
 *   --extra-migration FILE SQL applied after the working tree's migrations (test fixtures: a
 *                          migration that breaks the previous release must fail the check)
 */
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import S3rver from 's3rver';
import { createClient, type Client as WsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { fromRoot } from '../src/platform/paths';
import { DEMO_EMAILS, DEMO_PASSWORD } from '../src/db/seed';
import { ContractError, readRelease } from './contract';
import { buildRelease, startRelease, type ReleaseProcess } from './release';
import { ensureNginx, startNginx } from '../test/support/nginx';
import { budget } from '../test/support/time-budget';

const JWT_SECRET = 'check-upgrade-secret-0123456789abcdef-0123456789';
/** How long each phase lets traffic run on its own (a few hundred requests each). */
const PHASE_MS = 3000;
/** How long an instance may take to start (and the balancer to see it), scaled to the machine's load as the tests' bounds are. */
const START_MS = budget(120_000);
/** SHUTDOWN_GRACE_MS + SHUTDOWN_TIMEOUT_MS (30 s) with room: an instance still running after SIGTERM is a failure. */
const DRAIN_MS = 45_000;
/** Each traffic worker's pause between requests. */
const THINK_MS = 20;

class BadInput extends Error {}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Outcome {
  what: string;
  status: number;
}

interface Ack {
  face: 'REST' | 'GraphQL';
  kind: 'investment' | 'withdrawal' | 'upload';
  key: string;
  id: number;
}

/** What the traffic saw: every answer's status, failures at the balancer, acknowledged writes. */
class Ledger {
  readonly counts = new Map<string, number>();
  readonly failures: string[] = [];
  readonly acks: Ack[] = [];
  /** Keys whose POST got no answer: their outcome is unknown, so they are not counted either way. */
  readonly unknown = new Set<string>();
  /** The phase the traffic is in, for the failures' messages. */
  phase = 'phase 1';
  note({ what, status }: Outcome): void {
    const key = `${what} ${status}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    if (status >= 500) this.failures.push(`${this.phase}: ${what} answered ${status}`);
  }
}

const options = () =>
  parseArgs({
    options: {
      'database-url': { type: 'string' },
      'redis-url': { type: 'string' },
      previous: { type: 'string' },
      'extra-migration': { type: 'string' },
    },
  }).values;

/**
 * A client of the balancer (or of one instance): JSON or a form in, status and JSON out. Each request
 * on a connection of its own: the balancer's reloads (its health check changing the upstreams) then
 * never meet a connection reused across them, a race between client and balancer that is not the
 * gateway's to win.
 */
function http(base: () => string) {
  return async (method: string, route: string, init: { token?: string; body?: unknown; key?: string; form?: FormData } = {}) => {
    const headers: Record<string, string> = {};
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    if (init.key) headers['idempotency-key'] = init.key;
    let payload: Buffer | undefined;
    if (init.form) {
      const encoded = new Request('http://form.invalid/', { method: 'POST', body: init.form });
      payload = Buffer.from(await encoded.arrayBuffer());
      headers['content-type'] = encoded.headers.get('content-type') ?? '';
    } else if (init.body !== undefined) {
      payload = Buffer.from(JSON.stringify(init.body));
      headers['content-type'] = 'application/json';
    }
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(`${base()}${route}`, { method, headers, agent: false, timeout: 30_000 }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: body }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error('no answer within 30 s')));
      req.on('error', reject);
      req.end(payload);
    });
    return { status, text, json: parseJson(text) };
  };
}
type Http = ReturnType<typeof http>;

/** A body as JSON; a balancer's HTML error page (or nothing) as an empty object, its status telling. */
function parseJson(text: string): Json {
  try {
    return text ? (JSON.parse(text) as Json) : {};
  } catch {
    return {};
  }
}

async function login(call: Http): Promise<{ access: string; refresh: string }> {
  const res = await call('POST', '/api/v1/auth/login', { body: { email: DEMO_EMAILS.investor, password: DEMO_PASSWORD } });
  if (res.status !== 200) throw new Error(`login answered ${res.status}: ${res.text.slice(0, 300)}`);
  return { access: res.json.data.access_token, refresh: res.json.data.refresh_token };
}

/** The demo investor's writes that always fit: a unit on sale with room, the largest holding. */
async function writeTargets(sql: Client) {
  const unit = await sql.query<{ id: number; amount: string }>(
    `SELECT u.id, GREATEST(u.min_investment, (SELECT min_investment FROM app_config LIMIT 1))::text AS amount
     FROM units u WHERE u.status = 'AVAILABLE' ORDER BY u.available_percentage DESC, u.id LIMIT 1`,
  );
  const holding = await sql.query<{ unit_id: number }>(
    `SELECT h.unit_id FROM holdings h JOIN investors i ON i.id = h.investor_id JOIN users u ON u.id = i.user_id
     WHERE u.email = $1 ORDER BY h.ownership_percentage DESC LIMIT 1`,
    [DEMO_EMAILS.investor],
  );
  if (!unit.rows[0] || !holding.rows[0]) throw new Error('the seeded data has no unit on sale or no holding of the demo investor');
  return { unitId: unit.rows[0].id, amount: unit.rows[0].amount, holdingUnitId: holding.rows[0].unit_id };
}

type Targets = Awaited<ReturnType<typeof writeTargets>>;

const PDF = () => new Blob([Buffer.from(`%PDF-1.4\n% upgrade check ${randomUUID()}\n%%EOF\n`)], { type: 'application/pdf' });

/** A GraphQL answer as a status: an error the server owns (INTERNAL_SERVER_ERROR, or none named) counts as a 5xx. */
function graphqlOutcome(res: { status: number; json: Json }): { status: number; json: Json } {
  const code = res.json.errors?.[0]?.extensions?.code;
  if (!res.json.errors) return res;
  return { ...res, status: !code || code === 'INTERNAL_SERVER_ERROR' ? 500 : Math.max(res.status, 400) };
}

/** One step of the mixed traffic, chosen by `n`; writes are keyed and recorded when acknowledged. */
async function step(n: number, call: Http, session: { access: string; refresh: string }, t: Targets, ledger: Ledger): Promise<void> {
  const key = randomUUID();
  const record = (what: string, res: { status: number; json: Json }, kind?: Ack['kind'], face: Ack['face'] = 'REST') => {
    ledger.note({ what, status: res.status });
    // A balancer's 502/504 on a write: the instance may have committed it. Neither success nor failure.
    if (kind && (res.status === 502 || res.status === 504)) ledger.unknown.add(key);
    const id = face === 'GraphQL' ? res.json.data?.createInvestmentRequest?.id : res.json.data?.id;
    if (kind && res.status < 300 && typeof id === 'number') ledger.acks.push({ face, kind, key, id });
  };
  switch (n % 8) {
    case 0:
      return record('GET /distributions', await call('GET', '/api/v1/distributions?per_page=15', { token: session.access }));
    case 1: {
      const res = await call('POST', '/graphql', {
        token: session.access,
        body: { query: '{ distributions(perPage: 5) { items { id status } pageInfo { total } } }' },
      });
      return record('GraphQL distributions', graphqlOutcome(res));
    }
    case 2: {
      const res = await call('POST', '/api/v1/auth/refresh', { body: { refresh_token: session.refresh } });
      record('POST /auth/refresh', res);
      if (res.status === 200) Object.assign(session, { access: res.json.data.access_token, refresh: res.json.data.refresh_token });
      return;
    }
    case 3:
      return record(
        'POST /investment-requests',
        await call('POST', '/api/v1/investment-requests', { token: session.access, key, body: { unit_id: t.unitId, amount: Number(t.amount) } }),
        'investment',
      );
    case 4:
      return record(
        'POST /withdrawals/requests',
        await call('POST', '/api/v1/withdrawals/requests', {
          token: session.access,
          key,
          body: { unit_id: t.holdingUnitId, ownership_percentage: 0.000001, reason: `upgrade check ${key}` },
        }),
        'withdrawal',
      );
    case 5: {
      const res = await call('POST', '/graphql', {
        token: session.access,
        key,
        body: { query: `mutation { createInvestmentRequest(input: { unitId: ${t.unitId}, amount: "${t.amount}" }) { id } }` },
      });
      return record('GraphQL createInvestmentRequest', graphqlOutcome(res), 'investment', 'GraphQL');
    }
    case 6: {
      const form = new FormData();
      form.set('document_type', 'other');
      form.set('file', PDF(), 'statement.pdf');
      return record('POST /kyc/documents', await call('POST', '/api/v1/kyc/documents', { token: session.access, key, form }), 'upload');
    }
    default:
      return record('GET /auth/me', await call('GET', '/api/v1/auth/me', { token: session.access }));
  }
}

/** Workers sending `step`s through the balancer until stopped; a request that fails at the balancer is a failure. */
function traffic(call: Http, sessions: { access: string; refresh: string }[], t: Targets, ledger: Ledger) {
  let running = true;
  const workers = sessions.map(async (session, w) => {
    for (let n = w; running; n += sessions.length) {
      try {
        await step(n, call, session, t, ledger);
        // A steady load, not a flood: the check is about what an upgrade breaks, not capacity.
        await pause(THINK_MS);
      } catch (err) {
        const cause = (err as { cause?: { code?: string; message?: string } }).cause;
        ledger.failures.push(
          `${ledger.phase}: step ${n % 8} failed at the balancer: ${(err as Error).message} (${cause?.code ?? cause?.message ?? 'no cause'})`,
        );
      }
    }
  });
  return async () => {
    running = false;
    await Promise.all(workers);
  };
}

/**
 * The balancer's active health check, as a load balancer in front of the gateway runs one: every
 * `everyMs` each instance's /readyz, and the balancer's upstreams set to those answering 200 (a
 * draining instance answers 503 at once, so it is out before it stops serving).
 */
function healthCheck(lb: { reload(ports: number[]): void }, instances: () => ReleaseProcess[], everyMs = 200) {
  let current = '';
  let stopped = false;
  const port = (p: ReleaseProcess) => Number(new URL(p.url).port);
  const ready = async (p: ReleaseProcess) =>
    fetch(`${p.url}/readyz`, { signal: AbortSignal.timeout(1000) }).then(
      (r) => r.status === 200,
      () => false,
    );
  const loop = (async () => {
    while (!stopped) {
      // A copy: a drain removes instances from the live list while the health checks are awaited.
      const list = [...instances()];
      const up = (await Promise.all(list.map(ready))).flatMap((ok, i) => (ok ? [port(list[i])] : []));
      const next = up.sort().join(',');
      if (up.length && next !== current) {
        current = next;
        lb.reload(up);
      }
      await pause(everyMs);
    }
  })();
  return {
    /** Resolves once the balancer's upstreams are exactly `ps` (as long as an instance may take to start, at most). */
    async until(ps: ReleaseProcess[]) {
      const want = ps.map(port).sort().join(',');
      const deadline = Date.now() + START_MS;
      while (current !== want) {
        if (Date.now() > deadline) throw new Error(`the balancer's upstreams stayed ${current}, not ${want}`);
        await pause(50);
      }
    },
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

/** Tokens issued by `from` work on `to`, and an Idempotency-Key first used on `from` replays on `to`. */
async function crossVersion(from: Http, to: Http, t: Targets, label: string, ledger: Ledger): Promise<void> {
  const issued = await login(from);
  const me = await to('GET', '/api/v1/auth/me', { token: issued.access });
  if (me.status !== 200) ledger.failures.push(`${label}: an access token answered ${me.status}`);
  const refreshed = await to('POST', '/api/v1/auth/refresh', { body: { refresh_token: issued.refresh } });
  if (refreshed.status !== 200) ledger.failures.push(`${label}: a refresh token answered ${refreshed.status}`);
  const key = randomUUID();
  const body = { unit_id: t.holdingUnitId, ownership_percentage: 0.000001, reason: `upgrade replay ${key}` };
  const first = await from('POST', '/api/v1/withdrawals/requests', { token: issued.access, key, body });
  const again = await to('POST', '/api/v1/withdrawals/requests', { token: refreshed.json.data?.access_token ?? issued.access, key, body });
  if (first.status !== 201 || again.status !== first.status || again.text !== first.text) {
    ledger.failures.push(
      `${label}: Idempotency-Key replay answered ${again.status} ${again.text.slice(0, 200)} after ${first.status} ${first.text.slice(0, 200)}`,
    );
  } else ledger.acks.push({ face: 'REST', kind: 'withdrawal', key, id: first.json.data.id });
}

/** Every acknowledged write is in the database exactly once, and no keyed write was made twice. */
async function verifyWrites(sql: Client, ledger: Ledger, since: Date): Promise<string[]> {
  const problems: string[] = [];
  const tables = { investment: 'investment_requests', withdrawal: 'withdrawal_requests', upload: 'kyc_documents' } as const;
  for (const [kind, table] of Object.entries(tables) as [Ack['kind'], string][]) {
    const acked = ledger.acks.filter((a) => a.kind === kind);
    const ids = new Set(acked.map((a) => a.id));
    if (ids.size !== acked.length) problems.push(`${table}: two acknowledged writes answered the same id`);
    const { rows } = await sql.query<{ id: number }>(`SELECT id FROM ${table} WHERE created_at >= $1`, [since]);
    const stored = new Set(rows.map((r) => r.id));
    const missing = [...ids].filter((id) => !stored.has(id));
    if (missing.length) problems.push(`${table}: acknowledged but not stored: ${missing.join(', ')}`);
    // Rows no acknowledgement names are writes made twice, unless their request's outcome is unknown.
    const extra = rows.length - ids.size;
    if (extra > ledger.unknown.size) problems.push(`${table}: ${extra} rows that no acknowledged request made`);
  }
  return problems;
}

async function main(): Promise<number> {
  const args = options();
  const serverUrl = args['database-url'] ?? process.env.CHECK_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
  const redisUrl = args['redis-url'] ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const previous = args.previous ? { version: args.previous, commit: args.previous } : readRelease(fromRoot());
  const extraMigration = args['extra-migration'] && readFileSync(args['extra-migration'], 'utf8');
  console.log(`check:upgrade: previous release ${previous.version} (${previous.commit.slice(0, 12)}) ↔ the working tree`);

  const database = `gateway_upgrade_${process.pid}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect().catch((err: Error) => {
    throw new BadInput(`cannot reach PostgreSQL at ${serverUrl}: ${err.message}`);
  });
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  const databaseUrl = url.toString();
  const cleanups: Array<() => Promise<unknown> | unknown> = [];
  const ledger = new Ledger();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${database}`);
    cleanups.push(() => admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));

    console.log('building the previous release and the working tree …');
    execFileSync('npm', ['run', 'build'], { cwd: fromRoot(), stdio: ['ignore', 'pipe', 'pipe'] });
    const release = buildRelease(previous.commit);
    cleanups.push(release.remove);
    const run = (dir: string, argv: string[], env: Record<string, string>) =>
      execFileSync(process.execPath, argv, { cwd: dir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    run(release.dir, ['dist/scripts/migrate.js'], { DATABASE_URL: databaseUrl, NODE_ENV: 'development' });
    run(release.dir, ['dist/scripts/seed.js', '--investors', '20'], { DATABASE_URL: databaseUrl, NODE_ENV: 'development' });

    const s3Dir = await mkdtemp(path.join(os.tmpdir(), 'upgrade-s3-'));
    cleanups.push(() => rm(s3Dir, { recursive: true, force: true }));
    const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir, configureBuckets: [{ name: 'upgrade-kyc', configs: [] }] });
    const { port: s3Port } = (await s3.run()) as AddressInfo;
    cleanups.push(() => s3.close());

    const env = {
      DATABASE_URL: databaseUrl,
      NODE_ENV: 'production',
      JWT_SECRET,
      ALLOW_DEMO_ACCOUNTS: 'true',
      MIGRATE_ON_START: 'false',
      SEED_ON_START: 'false',
      TRUST_PROXY: 'true',
      AUTH_RATE_LIMIT_PER_MINUTE: '0',
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: `check-upgrade:${process.pid}:${randomUUID()}:`,
      STORAGE: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      S3_BUCKET: 'upgrade-kyc',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
      SHUTDOWN_GRACE_MS: '1000',
      DB_POOL_SIZE: '10',
      LOG_LEVEL: 'info',
    };
    const instances: ReleaseProcess[] = [];
    const startPrevious = () => startRelease(release.dir, env, START_MS);
    const startCurrent = () => startRelease(fromRoot(), env, START_MS);
    const all: { label: string; proc: ReleaseProcess }[] = [];
    const started = async (p: Promise<ReleaseProcess>, label: string) => {
      const proc = await p;
      all.push({ label, proc });
      instances.push(proc);
      cleanups.push(() => proc.stop());
      return proc;
    };
    // What the instances logged at warn and above: the first place to look when the check fails.
    const warnings = () =>
      all.flatMap(({ label, proc }) =>
        proc
          .log()
          .split('\n')
          .filter((l) => /"level":(4|5|6)0/.test(l))
          .slice(-10)
          .map((l) => `  ${label}: ${l.slice(0, 400)}`),
      );

    console.log('phase 1: two previous instances behind nginx, traffic on');
    const old1 = [await started(startPrevious(), 'previous #1'), await started(startPrevious(), 'previous #2')];
    const lb = await startNginx(
      ensureNginx(),
      old1.map((p) => Number(new URL(p.url).port)),
    );
    cleanups.push(() => lb.stop());
    lastWords = () => `nginx: ${lb.stderr().slice(-2000)}`;
    const checker = healthCheck(lb, () => instances);
    cleanups.push(() => checker.stop());
    await checker.until(old1);
    const drain = async (procs: ReleaseProcess[], label: string) => {
      for (const p of procs) p.child.kill('SIGTERM');
      await checker.until(instances.filter((i) => !procs.includes(i)));
      const codes = await Promise.all(
        procs.map((p) =>
          Promise.race([p.exited, pause(DRAIN_MS).then(() => 'still running')]).then((code) => {
            if (code === 'still running') p.child.kill('SIGKILL');
            return code;
          }),
        ),
      );
      if (codes.some((c) => c !== 0))
        ledger.failures.push(`${ledger.phase}: ${label} ended with ${codes.join(', ')} after SIGTERM (0 expected within ${DRAIN_MS / 1000} s)`);
      for (const p of procs) instances.splice(instances.indexOf(p), 1);
    };
    const viaLb = http(() => lb.url);
    const sql = new Client({ connectionString: databaseUrl });
    await sql.connect();
    cleanups.push(() => sql.end());
    const targets = await writeTargets(sql);
    const since = new Date();
    const sessions = await Promise.all(Array.from({ length: 6 }, () => login(viaLb)));
    const subscription = subscribe(lb.url.replace('http', 'ws') + '/graphql', sessions[0].access);
    cleanups.push(() => subscription.dispose());
    await subscription.connectedOnce;
    const stopTraffic = traffic(viaLb, sessions, targets, ledger);
    await pause(PHASE_MS);

    console.log((ledger.phase = 'phase 2') + ': the working tree migrates the database while the previous release serves');
    // As the migrate job runs it: the working tree's own command, beside the serving instances.
    await run(fromRoot(), ['-r', fromRoot('scripts/ts-register.cjs'), fromRoot('scripts/migrate.ts')], { DATABASE_URL: databaseUrl, NODE_ENV: 'development' });
    if (extraMigration) await sql.query(extraMigration);
    await pause(PHASE_MS);

    console.log((ledger.phase = 'phase 3') + ': two current instances join; the previous ones drain');
    const new1 = [await started(startCurrent(), 'current #1'), await started(startCurrent(), 'current #2')];
    await checker.until([...old1, ...new1]);
    await crossVersion(
      http(() => old1[0].url),
      http(() => new1[0].url),
      targets,
      'previous → current',
      ledger,
    );
    await pause(PHASE_MS);
    await drain(old1, 'the previous instances');
    await pause(PHASE_MS);

    console.log((ledger.phase = 'phase 4') + ': roll back — two previous instances join on the expanded schema; the current ones drain');
    const old2 = [await started(startPrevious(), 'previous #3'), await started(startPrevious(), 'previous #4')];
    await checker.until([...new1, ...old2]);
    await crossVersion(
      http(() => new1[0].url),
      http(() => old2[0].url),
      targets,
      'current → previous',
      ledger,
    );
    await pause(PHASE_MS);
    await drain(new1, 'the current instances');
    await pause(PHASE_MS);
    // The reconnect after the last drain waits on graphql-ws's back-off (1–4 s, longer when an attempt
    // meets a draining instance): wait for it, bounded, rather than judge it after a fixed pause.
    await Promise.race([subscription.connections(3), pause(START_MS)]);
    await stopTraffic();

    ledger.failures.push(...subscription.problems());
    ledger.failures.push(...(await verifyWrites(sql, ledger, since)));
    const total = [...ledger.counts.values()].reduce((a, b) => a + b, 0);
    console.log(`answers: ${total}; acknowledged writes: ${ledger.acks.length}; subscription closes: ${subscription.closes.join(', ') || 'none'}`);
    for (const [what, n] of [...ledger.counts].sort()) console.log(`  ${what}: ${n}`);
    if (ledger.failures.length) {
      console.error(`check:upgrade: FAILED (${ledger.failures.length}):`);
      for (const f of ledger.failures.slice(0, 30)) console.error(`  - ${f}`);
      console.error(['what the instances logged at warn and above:', ...warnings()].join('\n'));
      return 1;
    }
    console.log('check:upgrade: the rolling upgrade and the roll back held');
    return 0;
  } finally {
    for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
    await admin.end();
  }
}

const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The balancer's error log, for a check that failed before it could say why. */
let lastWords = () => '';

/**
 * notificationAdded over the balancer with graphql-ws's own reconnect (as the SDK's client): the
 * socket a draining instance closes must be closed with a code graphql-ws retries, and come back.
 */
function subscribe(url: string, token: string) {
  const closes: number[] = [];
  let connects = 0;
  let connected!: () => void;
  const connectedOnce = new Promise<void>((resolve) => (connected = resolve));
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const errors: string[] = [];
  let disposed = false;
  const client: WsClient = createClient({
    url,
    webSocketImpl: WebSocket,
    lazy: false,
    // graphql-ws's own back-off between attempts, as the SDK's client uses it (client/src/subscriptions.ts).
    retryAttempts: 10,
    connectionParams: { authorization: `Bearer ${token}` },
    // Retries that ran out while the check runs are a failure; after it, the balancer is gone.
    onNonLazyError: (err) => disposed || errors.push(`gave up reconnecting: ${String((err as { message?: string }).message ?? err)}`),
    on: {
      connected: () => {
        connects++;
        connected();
        for (const w of waiters.filter((w) => connects >= w.n)) w.resolve();
      },
      closed: (event) => closes.push((event as { code: number }).code),
    },
  });
  client.subscribe(
    { query: 'subscription { notificationAdded { id } }' },
    { next: () => undefined, error: (e) => disposed || errors.push(String(e)), complete: () => undefined },
  );
  /** graphql-ws's terminal close codes: the SDK would not reconnect after these. */
  const TERMINAL = new Set([1002, 1011, 4400, 4401, 4403, 4406, 4409, 4429, 4499, 4500]);
  return {
    dispose: async () => {
      disposed = true;
      await client.dispose();
    },
    closes,
    connectedOnce,
    /** Resolves once the socket has connected `n` times in all: graphql-ws's back-off after a drain takes seconds. */
    connections: (n: number) => new Promise<void>((resolve) => (connects >= n ? resolve() : waiters.push({ n, resolve }))),
    problems: () => [
      ...closes.filter((c) => TERMINAL.has(c)).map((c) => `the subscription's socket was closed with ${c}, which the SDK does not reconnect on`),
      ...(connects < 3 ? [`the subscription connected ${connects} time(s): it should have reconnected after each drain`] : []),
      ...errors.map((e) => `the subscription failed: ${e}`),
    ],
  };
}

// A hang anywhere is a failure with a line, never a CI run that waits out its own limit.
setTimeout(() => {
  console.error('check:upgrade: did not finish within 15 minutes');
  process.exit(1);
}, 15 * 60_000).unref();

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof BadInput || err instanceof ContractError) {
      console.error(`check:upgrade: ${err.message}`);
      process.exit(2);
    }
    console.error('check:upgrade: the check itself failed:', err);
    console.error(lastWords());
    process.exit(1);
  },
);
