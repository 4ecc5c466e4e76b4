/**
 * The subscriptions target of `npm run bench -- --subscriptions` (issue 23): against the gateway as
 * deployed (bench/run.ts's startGateway: production mode, ROLE=api, PostgreSQL),
 *
 *   1. idle: S subscriptions held open (the dashboard's shape: one socket per user session with the
 *      four fields), then the gateway's resident set (VmRSS) before and after, reported as MB per
 *      1 000 subscriptions (goal < 50 MB); the default S = 4 000 is 1 000 sockets;
 *   2. fan-out: ROUNDS commits, each one transaction that notifies every subscribed user once (the
 *      services' own notify(), so the change goes out by NOTIFY at commit as in production), so every
 *      socket's notificationAdded gets one event per round (1 000 subscribers by default); for each
 *      delivered event the lag from that commit returning to the event reaching the client;
 *      reported as events/s delivered and p50/p99 lag (goal p99 < 100 ms at 1 000 subscribers).
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

/** What bench/run.ts lends this target (its child-process and database helpers). */
export interface BenchTools {
  startGateway(databaseUrl: string): Promise<{ base: string; child: { pid?: number } }>;
  login(base: string, email: string): Promise<string>;
  statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number>;
  writeResults(name: string, out: object): Promise<string>;
}

export interface SubscriptionsOptions {
  databaseUrl: string;
  /** Subscriptions held open. */
  subscriptions: number;
  rounds: number;
}

/** The dashboard's fields: one socket per session, each field once. */
const SUBSCRIPTIONS_PER_SOCKET = 4;
const FIELDS = [
  'subscription { notificationAdded { id title } }',
  'subscription { investmentRequestUpdated { id status } }',
  'subscription { withdrawalRequestUpdated { id status } }',
  'subscription { kycStatusChanged { status } }',
];
/** A round waits this long at most for its events; a missing one is reported, not waited for. */
const ROUND_BOUND_MS = 10_000;

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);

export async function runSubscriptions(opts: SubscriptionsOptions, tools: BenchTools): Promise<void> {
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

  // 1. Idle subscriptions and the resident set they cost.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const rssBeforeKb = await tools.statusKb(pid, 'VmRSS');
  const clients: Client[] = [];
  const arrivals = new Map<string, number[]>();
  let subscribed = 0;
  for (let i = 0; i < sockets; i++) {
    const user = users[Math.floor(i / SUBSCRIPTION_LIMITS.connectionsPerUser)];
    const client = createClient({
      url,
      webSocketImpl: WebSocket,
      lazy: false,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${tokens.get(user.id)}` },
    });
    clients.push(client);
    for (const query of FIELDS.slice(0, Math.min(SUBSCRIPTIONS_PER_SOCKET, opts.subscriptions - subscribed))) {
      subscribed++;
      client.subscribe<{ notificationAdded?: { title: string } }>(
        { query },
        {
          next: ({ data }) => {
            const title = data?.notificationAdded?.title;
            if (title) arrivals.get(title)?.push(Date.now());
          },
          error: (err) => console.error('[bench] subscription failed', err),
          complete: () => undefined,
        },
      );
    }
  }
  // Subscribed once the gateway counts them (its /metrics gauge would need the metrics token; the count of acks is enough).
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const rssAfterKb = await tools.statusKb(pid, 'VmRSS');
  const mbPer1000 = ((rssAfterKb - rssBeforeKb) / 1024) * (1000 / subscribed);
  console.log(
    `Idle: ${subscribed} subscriptions on ${sockets} sockets: RSS ${(rssBeforeKb / 1024).toFixed(0)} → ${(rssAfterKb / 1024).toFixed(0)} MB, ${mbPer1000.toFixed(1)} MB per 1 000 subscriptions`,
  );

  // 2. Fan-out: every subscribed user notified once per round, in one transaction.
  const db = await openDatabase({ databaseUrl: opts.databaseUrl, poolSize: 2 });
  const subscribedUsers = [...new Set(Array.from({ length: sockets }, (_, i) => users[Math.floor(i / SUBSCRIPTION_LIMITS.connectionsPerUser)].id))];
  const expectedPerRound = Array.from({ length: sockets }, (_, i) => i).filter((i) => i * SUBSCRIPTIONS_PER_SOCKET < subscribed).length;
  const lags: number[] = [];
  let delivered = 0;
  let missing = 0;
  let busyMs = 0;
  for (let round = 0; round < opts.rounds; round++) {
    const title = `bench-fanout-${process.pid}-${round}`;
    const seen: number[] = [];
    arrivals.set(title, seen);
    await db.prisma.$transaction((tx) =>
      notify(tx, ...subscribedUsers.map((userId) => ({ userId, type: NotificationType.SYSTEM, title, body: 'Subscriptions benchmark.' }))),
    );
    const committedAt = Date.now();
    const deadline = committedAt + ROUND_BOUND_MS;
    while (seen.length < expectedPerRound && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    // An event may arrive before this process has read COMMIT's answer: that lag counts as 0.
    for (const at of seen) lags.push(Math.max(at - committedAt, 0));
    delivered += seen.length;
    missing += expectedPerRound - seen.length;
    if (seen.length) busyMs += Math.max(...seen) - committedAt;
    arrivals.delete(title);
  }
  lags.sort((a, b) => a - b);
  const eventsPerSecond = busyMs > 0 ? (delivered / busyMs) * 1000 : NaN;
  console.log(
    `Fan-out: ${opts.rounds} commits × ${expectedPerRound} subscribers: ${delivered} delivered, ${missing} missing; ${eventsPerSecond.toFixed(0)} events/s; lag p50 ${percentile(lags, 50)} ms, p99 ${percentile(lags, 99)} ms`,
  );

  await Promise.all(clients.map((c) => c.dispose()));
  await db.close();
  const file = await tools.writeResults('subscriptions.json', {
    startedAt: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    loadAverage: os.loadavg(),
    idle: { subscriptions: subscribed, sockets, rssBeforeKb, rssAfterKb, mbPer1000 },
    fanout: {
      rounds: opts.rounds,
      subscribers: expectedPerRound,
      delivered,
      missing,
      eventsPerSecond,
      lagMs: { p50: percentile(lags, 50), p99: percentile(lags, 99), max: lags.at(-1) },
    },
  });
  console.log(`\nWrote ${file}`);
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
