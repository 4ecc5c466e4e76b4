/**
 * The subscriptions target of `npm run bench -- --subscriptions` (docs/benchmarks.md, "Subscriptions"): against the gateway as
 * deployed (bench/run.ts's startGateway: production mode, ROLE=api, PostgreSQL),
 *
 *   1. idle: S subscriptions held open (the dashboard's shape: one socket per user session with the
 *      four fields, as the SDK's documents select them; sockets opened OPEN_CONCURRENCY at a time, each awaited until acknowledged), then
 *      the gateway's resident set (VmRSS) before the first socket and once its
 *      graphql_subscriptions_open gauge counts all S, reported as MB per 1 000 subscriptions
 *      (goal < 50 MB); the default S = 4 000 is 1 000 sockets;
 *   2. fan-out: WARM-UP commits not counted (the fan-out's code paths reach the optimizing compiler,
 *      and the heap settles after a thousand connections opened: the slowest of them is reported
 *      apart), then ROUNDS commits, each one transaction that notifies every subscribed user once (the
 *      services' own notify(), so the change goes out by NOTIFY at commit as in production), so every
 *      socket's notificationAdded gets one event per round (1 000 subscribers by default); for each
 *      delivered event the lag from that commit returning to its frame reaching the client (and,
 *      apart, to graphql-ws's client handing it over parsed: that adds this one process's work on
 *      every socket's frames); reported as events/s delivered and p50/p99 lag (goal p99 < 100 ms at
 *      1 000 subscribers), the share of events that left the gateway within 100 ms (its own
 *      delivery-lag histogram), and the gateway's CPU time (utime + stime) per delivered event.
 *
 * Users: the seeded investors (password Password123!), each holding at most the per-user connection
 * limit. The load generator (graphql-ws clients) runs in this process on the same machine.
 */
import os from 'node:os';
import { createClient, type Client } from 'graphql-ws';
import { Client as PgClient } from 'pg';
import WebSocket from 'ws';
import { openDatabase } from '../src/db/database';
import { NotificationType } from '../src/generated/prisma/enums';
import { notify } from '../src/services/notification.service';
import { SUBSCRIPTION_LIMITS } from '../src/graphql/subscriptions';
import { loadPersistedDocuments } from '../src/graphql/trusted-documents';

/** What bench/run.ts lends this target (its child-process and database helpers). */
export interface BenchTools {
  startGateway(databaseUrl: string): Promise<{ base: string; child: { pid?: number } }>;
  login(base: string, email: string): Promise<string>;
  statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number>;
  /** User + system CPU time of a process so far, in ms. */
  cpuMs(pid: number): Promise<number>;
  /** One unlabelled metric of the gateway's /metrics (the bench's metrics token). */
  metricValue(base: string, name: string): Promise<number>;
  writeResults(name: string, out: object): Promise<string>;
}

export interface SubscriptionsOptions {
  databaseUrl: string;
  /** Subscriptions held open. */
  subscriptions: number;
  rounds: number;
  /** Commits before the measured ones, not counted. */
  warmupRounds: number;
}

/** The dashboard's fields: one socket per session, each field once, as the SDK's documents (the persisted-documents manifest) select them. */
const FIELDS = ['NotificationAdded', 'InvestmentRequestUpdated', 'WithdrawalRequestUpdated', 'KycStatusChanged'];
const SUBSCRIPTIONS_PER_SOCKET = FIELDS.length;

/** The SDK's text of each field's subscription, in FIELDS's order. */
function sdkDocuments(): string[] {
  const texts = [...loadPersistedDocuments().values()];
  return FIELDS.map((name) => {
    const text = texts.find((t) => new RegExp(`\\bsubscription ${name}\\b`).test(t));
    if (!text) throw new Error(`the SDK's manifest has no subscription ${name}`);
    return text;
  });
}
/** The gateway's delivery-lag histogram bucket of 100 ms (the goal), from the database clock at NOTIFY to the event leaving. */
const LEFT_IN_TIME = 'graphql_subscription_delivery_lag_seconds_bucket{le="0.1"}';
/** A round waits this long at most for its events; a missing one is reported, not waited for. */
const ROUND_BOUND_MS = 10_000;
/**
 * Sockets opened at once. Each connection_init reads the session from the database: a thousand at
 * once queue past the gateway's pool and most are closed with 1013 (clients retry that with back-off;
 * this bench does not, so it opens them as a ramp, the way reconnecting dashboards spread out).
 */
const OPEN_CONCURRENCY = 20;
/** How long the gateway may take to count every subscription after the last subscribe. */
const SETTLE_BOUND_MS = 60_000;

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);

export async function runSubscriptions(opts: SubscriptionsOptions, tools: BenchTools): Promise<void> {
  const loadBefore = os.loadavg();
  const sockets = Math.ceil(opts.subscriptions / SUBSCRIPTIONS_PER_SOCKET);
  const usersNeeded = Math.ceil(sockets / SUBSCRIPTION_LIMITS.connectionsPerUser);
  const users = await withPg(
    opts.databaseUrl,
    async (c) =>
      (
        await c.query<{ id: number; email: string }>(
          `SELECT u.id, u.email FROM users u JOIN investors i ON i.user_id = u.id WHERE u.deleted_at IS NULL ORDER BY u.id LIMIT $1`,
          [usersNeeded],
        )
      ).rows,
  );
  if (users.length < usersNeeded)
    throw new Error(
      `${sockets} sockets need ${usersNeeded} investors (${SUBSCRIPTION_LIMITS.connectionsPerUser} connections each); the database has ${users.length}`,
    );

  const gateway = await tools.startGateway(opts.databaseUrl);
  const pid = gateway.child.pid;
  if (pid === undefined) throw new Error('the gateway has no pid');
  const url = `${gateway.base.replace('http:', 'ws:')}/graphql`;
  const tokens = new Map<number, string>();
  for (const u of users) tokens.set(u.id, await tools.login(gateway.base, u.email));
  const userOf = (socket: number) => users[Math.floor(socket / SUBSCRIPTION_LIMITS.connectionsPerUser)];

  // 1. Idle subscriptions and the resident set they cost.
  const rssBeforeKb = await tools.statusKb(pid, 'VmRSS');
  const clients: Client[] = [];
  /**
   * Per round's title: when each event's frame reached this process (ws's 'message', before the
   * client library parses it) and when graphql-ws handed it over parsed, and what to call once all
   * expected did. The two differ by this one process's own work on a thousand sockets' frames.
   */
  const rounds = new Map<string, { frames: number[]; arrivals: number[]; expected: number; done(): void }>();
  const refusals = new Map<string, number>();
  const refused = (why: string) => refusals.set(why, (refusals.get(why) ?? 0) + 1);
  const open = (i: number) =>
    new Promise<{ client: Client; frame: { at: number } } | undefined>((resolve) => {
      // graphql-ws calls next() within the socket's message event: the frame's time, taken by a listener ahead of graphql-ws's.
      const frame = { at: 0 };
      const client = createClient({
        url,
        webSocketImpl: class extends WebSocket {
          constructor(address: string, protocols?: string | string[]) {
            super(address, protocols);
            this.on('message', () => (frame.at = Date.now()));
          }
        },
        lazy: false,
        retryAttempts: 0,
        connectionParams: { authorization: `Bearer ${tokens.get(userOf(i).id)}` },
        on: {
          connected: () => resolve({ client, frame }),
          closed: (event) => {
            refused(`close ${(event as { code?: number }).code ?? '?'}`);
            resolve(undefined);
          },
        },
      });
    });
  const documents = sdkDocuments();
  const opened: { client: Client; frame: { at: number }; socket: number }[] = [];
  const openStarted = Date.now();
  for (let next = 0; next < sockets;) {
    const batch = Array.from({ length: Math.min(OPEN_CONCURRENCY, sockets - next) }, () => next++);
    const made = await Promise.all(batch.map(open));
    made.forEach((made, k) => made && opened.push({ ...made, socket: batch[k] }));
  }
  const openMs = Date.now() - openStarted;
  let subscribed = 0;
  for (const { client, frame, socket } of opened) {
    clients.push(client);
    for (const query of documents.slice(0, Math.min(SUBSCRIPTIONS_PER_SOCKET, opts.subscriptions - socket * SUBSCRIPTIONS_PER_SOCKET))) {
      subscribed++;
      client.subscribe<{ notificationAdded?: { title: string } }>(
        { query },
        {
          next: ({ data }) => {
            const round = data?.notificationAdded && rounds.get(data.notificationAdded.title);
            if (!round) return;
            round.frames.push(frame.at);
            if (round.arrivals.push(Date.now()) === round.expected) round.done();
          },
          error: (err) => refused(Array.isArray(err) ? String((err[0] as { extensions?: { code?: string } })?.extensions?.code) : 'subscription error'),
          complete: () => undefined,
        },
      );
    }
  }
  // Subscribed once the gateway counts every subscription (graphql-ws has no acknowledgement of a subscribe).
  const counted = await until(async () => (await tools.metricValue(gateway.base, 'graphql_subscriptions_open')) >= subscribed, SETTLE_BOUND_MS);
  if (!counted) throw new Error(`the gateway did not count ${subscribed} open subscriptions within ${SETTLE_BOUND_MS} ms`);
  const rssAfterKb = await tools.statusKb(pid, 'VmRSS');
  const mbPer1000 = ((rssAfterKb - rssBeforeKb) / 1024) * (1000 / subscribed);
  console.log(
    `Idle: ${subscribed} subscriptions on ${opened.length}/${sockets} sockets (opened ${OPEN_CONCURRENCY} at a time in ${openMs} ms; refused: ${JSON.stringify(Object.fromEntries(refusals))}): ` +
      `RSS ${(rssBeforeKb / 1024).toFixed(0)} → ${(rssAfterKb / 1024).toFixed(0)} MB, ${mbPer1000.toFixed(1)} MB per 1 000 subscriptions`,
  );

  // 2. Fan-out: every subscribed user notified once per round, in one transaction.
  const refusedWhileIdle = new Map(refusals);
  const db = await openDatabase({ databaseUrl: opts.databaseUrl, poolSize: 2 });
  const subscribedUsers = [...new Set(opened.map(({ socket }) => userOf(socket).id))];
  // Every opened socket subscribed notificationAdded (the first field).
  const expectedPerRound = opened.length;
  /** Commit to the frame reaching this process, and to the parsed event (see `rounds`). */
  const lags: number[] = [];
  const parsedLags: number[] = [];
  let delivered = 0;
  let missing = 0;
  let busyMs = 0;
  let cpuBeforeMs = 0;
  let queriesBefore = 0;
  let leftInTimeBefore = 0;
  /** The gateway's counters as the measured rounds start. */
  const resetCounters = async () => {
    cpuBeforeMs = await tools.cpuMs(pid);
    queriesBefore = await tools.metricValue(gateway.base, 'db_queries_sent');
    leftInTimeBefore = await tools.metricValue(gateway.base, LEFT_IN_TIME);
  };
  if (opts.warmupRounds === 0) await resetCounters();
  /** Each measured round's slowest frame, and the warm-up's slowest. */
  const roundMaxima: number[] = [];
  let warmupMax = 0;
  for (let round = -opts.warmupRounds; round < opts.rounds; round++) {
    const title = `bench-fanout-${process.pid}-${round}`;
    let done = () => {};
    const all = new Promise<void>((resolve) => (done = resolve));
    const state = { frames: [] as number[], arrivals: [] as number[], expected: expectedPerRound, done };
    rounds.set(title, state);
    await db.prisma.$transaction((tx) =>
      notify(tx, ...subscribedUsers.map((userId) => ({ userId, type: NotificationType.SYSTEM, title, body: 'Subscriptions benchmark.' }))),
    );
    const committedAt = Date.now();
    let bound: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise<void>((resolve) => (bound = setTimeout(resolve, ROUND_BOUND_MS)))]);
    clearTimeout(bound);
    rounds.delete(title);
    const slowest = Math.max(0, ...state.frames.map((at) => at - committedAt));
    if (round < 0) {
      warmupMax = Math.max(warmupMax, slowest);
      if (round === -1) await resetCounters();
      continue;
    }
    roundMaxima.push(slowest);
    const seen = state.arrivals;
    // An event may arrive before this process has read COMMIT's answer: that lag counts as 0.
    for (const at of state.frames) lags.push(Math.max(at - committedAt, 0));
    for (const at of seen) parsedLags.push(Math.max(at - committedAt, 0));
    delivered += seen.length;
    missing += expectedPerRound - seen.length;
    if (seen.length) busyMs += Math.max(...seen) - committedAt;
  }
  // The gateway's own CPU per delivered event (loading, executing and sending it; the NOTIFY and session checks shared).
  const gatewayCpuPerEventMs = ((await tools.cpuMs(pid)) - cpuBeforeMs) / Math.max(delivered, 1);
  // The statements the gateway sent per commit: the subscribers' session check and the loads of what changed.
  const queriesPerCommit = ((await tools.metricValue(gateway.base, 'db_queries_sent')) - queriesBefore) / opts.rounds;
  // The gateway's own side of the lag: its histogram counts an event when it leaves for the socket.
  const leftInTime = ((await tools.metricValue(gateway.base, LEFT_IN_TIME)) - leftInTimeBefore) / Math.max(delivered, 1);
  lags.sort((a, b) => a - b);
  parsedLags.sort((a, b) => a - b);
  const eventsPerSecond = busyMs > 0 ? (delivered / busyMs) * 1000 : NaN;
  console.log(
    `Fan-out: ${opts.rounds} commits × ${expectedPerRound} subscribers (after ${opts.warmupRounds} not counted, slowest frame ${warmupMax} ms): ${delivered} delivered, ${missing} missing; ${eventsPerSecond.toFixed(0)} events/s; ` +
      `lag to the frame p50 ${percentile(lags, 50)} ms, p99 ${percentile(lags, 99)} ms, max ${lags.at(-1)} ms (rounds whose slowest frame took over 100 ms: ${roundMaxima.filter((m) => m > 100).length}); ` +
      `to the parsed event (graphql-ws client) p50 ${percentile(parsedLags, 50)} ms, p99 ${percentile(parsedLags, 99)} ms; gateway CPU ${gatewayCpuPerEventMs.toFixed(2)} ms per event, ${queriesPerCommit.toFixed(1)} statements per commit; ` +
      `${(leftInTime * 100).toFixed(1)} % left the gateway within 100 ms of the commit (its delivery-lag histogram); ` +
      `closes and errors since the idle phase: ${JSON.stringify(Object.fromEntries([...refusals].map(([k, n]) => [k, n - (refusedWhileIdle.get(k) ?? 0)]).filter(([, n]) => n)))}`,
  );

  await Promise.all(clients.map((c) => c.dispose()));
  await db.close();
  const file = await tools.writeResults('subscriptions.json', {
    startedAt: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    loadAverage: { before: loadBefore, after: os.loadavg() },
    idle: {
      subscriptions: subscribed,
      sockets: opened.length,
      socketsAsked: sockets,
      refusals: Object.fromEntries(refusals),
      openMs,
      rssBeforeKb,
      rssAfterKb,
      mbPer1000,
    },
    fanout: {
      rounds: opts.rounds,
      warmupRounds: opts.warmupRounds,
      warmupMaxLagMs: warmupMax,
      roundMaxLagMs: roundMaxima,
      subscribers: expectedPerRound,
      delivered,
      missing,
      eventsPerSecond,
      lagMs: { p50: percentile(lags, 50), p99: percentile(lags, 99), max: lags.at(-1) },
      parsedLagMs: { p50: percentile(parsedLags, 50), p99: percentile(parsedLags, 99), max: parsedLags.at(-1) },
      gatewayCpuPerEventMs,
      queriesPerCommit,
      leftGatewayWithin100Ms: leftInTime,
    },
  });
  console.log(`\nWrote ${file}`);
}

/** Checks `condition` every 100 ms until it holds (true) or `boundMs` passes (false). */
async function until(condition: () => Promise<boolean>, boundMs: number): Promise<boolean> {
  const deadline = Date.now() + boundMs;
  while (!(await condition())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

async function withPg<T>(connectionString: string, fn: (c: PgClient) => Promise<T>): Promise<T> {
  const c = new PgClient({ connectionString });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}
