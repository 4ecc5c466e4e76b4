import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { MIGRATIONS_DIR } from '../src/db/migrate';
import { childDatabase, startEntry } from './support/entry-process';
import { budget } from './support/time-budget';
import { eventually } from './support/eventually';
import { closeCode, liveClient } from './support/live';

const migrationNames = () =>
  readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();

const started: ReturnType<typeof startEntry>['child'][] = [];

/** Starts the real entry point (src/main.ts, or `command`) in a child process on a fresh embedded database. */
function startServer(dataDir: string, env: Record<string, string> = {}, command?: string[]) {
  const server = startEntry(
    { DATA_DIR: dataDir, SEED_ON_START: 'false', NODE_ENV: 'development', DATABASE_URL: '', AUTH_RATE_LIMIT_PER_MINUTE: '0', ...env },
    { command },
  );
  started.push(server.child);
  return server;
}

type Answer = { status: number; complete: boolean; connection?: string } | { error: string };

/**
 * One POST on its own connection. `sent` resolves once the whole request is handed to the kernel;
 * `answer` with the complete response, or the socket error (ECONNRESET…) that replaced it.
 */
function post(port: number, path: string, token: string, body: object) {
  const payload = JSON.stringify(body);
  let markSent!: () => void;
  const sent = new Promise<void>((resolve) => (markSent = resolve));
  const answer = new Promise<Answer>((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), authorization: `Bearer ${token}` },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, complete: res.complete, connection: res.headers.connection }));
        res.on('error', (err) => resolve({ error: String((err as NodeJS.ErrnoException).code ?? err.message) }));
      },
    );
    req.on('error', (err) => resolve({ error: String((err as NodeJS.ErrnoException).code ?? err.message) }));
    req.end(payload, markSent);
  });
  return { sent, answer };
}

/** A WebSocket upgrade of /graphql on its own connection: the status of the answer that is not a 101, or the socket's error. */
function upgrade(port: number): Promise<Answer> {
  return new Promise((resolve) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      path: '/graphql',
      agent: false,
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        'sec-websocket-protocol': 'graphql-transport-ws',
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, complete: res.complete, connection: res.headers.connection }));
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, complete: true, connection: res.headers.connection });
    });
    req.on('error', (err) => resolve({ error: String((err as NodeJS.ErrnoException).code ?? err.message) }));
    req.end();
  });
}

/**
 * A POST sent in two steps: its headers now (with `Expect: 100-continue`, so `received` resolves once
 * the server has taken the request up), its body when `finish()` is called. Its own connection.
 */
function postInTwoSteps(port: number, path: string, body: object) {
  const payload = JSON.stringify(body);
  let markReceived!: () => void;
  const received = new Promise<void>((resolve) => (markReceived = resolve));
  let req!: http.ClientRequest;
  const answer = new Promise<Answer>((resolve) => {
    req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), expect: '100-continue' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, complete: res.complete, connection: res.headers.connection }));
        res.on('error', (err) => resolve({ error: String((err as NodeJS.ErrnoException).code ?? err.message) }));
      },
    );
    req.on('continue', markReceived);
    req.on('error', (err) => resolve({ error: String((err as NodeJS.ErrnoException).code ?? err.message) }));
    req.flushHeaders();
  });
  return { received, answer, finish: () => void req.end(payload) };
}

/** A GET on its own connection: the answer, or the socket error that replaced it. */
function get(port: number, path: string): Promise<Answer> {
  return new Promise((resolve) => {
    http
      .get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, complete: res.complete, connection: res.headers.connection }));
        res.on('error', (err) => resolve({ error: String((err as NodeJS.ErrnoException).code ?? err.message) }));
      })
      .on('error', (err) => resolve({ error: String((err as NodeJS.ErrnoException).code ?? err.message) }));
  });
}

async function register(port: number, email: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Shutdown Test', email, password: 'Secret123!', password_confirmation: 'Secret123!' }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { access_token: string } }).data.access_token;
}

describe('process lifecycle', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gateway-lifecycle-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  // A failed test must not leave its gateway running.
  afterEach(() => void (started.at(-1)?.exitCode === null && started.at(-1)?.kill('SIGKILL')));

  // Starting the real entry point (TypeScript transpiled on the fly, a fresh database migrated) is slow on a busy machine.
  const PROCESS_TEST_MS = budget(150_000);

  it(
    'migrates a fresh embedded database, reports ready, and on SIGTERM closes the database and exits 0',
    async () => {
      const server = startServer(dataDir);
      const port = (await server.logged((l) => typeof l.port === 'number')).port as number;
      await server.logged((l) => l.msg === 'ready');
      expect((await server.logged((l) => l.msg === 'migrations applied')).applied).toEqual(migrationNames());
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

      server.child.kill('SIGTERM');
      await server.logged((l) => l.msg === 'stopped');
      expect(await server.exited).toBe(0);
    },
    PROCESS_TEST_MS,
  );

  it(
    'on SIGTERM with 200 writes in flight answers every fully sent request completely, then exits 0',
    async () => {
      const db = await childDatabase(dataDir, 'shutdown');
      try {
        // Generous connect and drain bounds: the requests wait for the pool instead of failing fast, and
        // the drain's bound is not what is under test (a busy machine may need long for 200 writes).
        const server = startServer(dataDir, { ...db.env, DB_CONNECT_TIMEOUT_MS: '60000', DB_TRANSACTION_MAX_WAIT_MS: '60000', SHUTDOWN_TIMEOUT_MS: '120000' });
        const port = (await server.logged((l) => typeof l.port === 'number')).port as number;
        await server.logged((l) => l.msg === 'ready');
        const token = await register(port, 'drain@example.com');

        const requests = Array.from({ length: 200 }, (_, i) =>
          post(port, '/api/v1/notifications/fcm-token', token, { token: `drain-${i}-${'x'.repeat(40)}`, platform: 'android' }),
        );
        await Promise.all(requests.map((r) => r.sent));
        server.child.kill('SIGTERM');
        const answers = await Promise.all(requests.map((r) => r.answer));
        expect(await server.exited).toBe(0);

        expect({
          cutOrSilent: server.lines.filter((l) => l.msg === 'shutting down: connections closed without an answer'),
          resets: answers.filter((a) => 'error' in a),
          incompleteOrUnexpected: answers.filter((a) => 'status' in a && (!a.complete || ![201, 503].includes(a.status))),
          stopped: server.lines.some((l) => l.msg === 'stopped'),
        }).toEqual({ cutOrSilent: [], resets: [], incompleteOrUnexpected: [], stopped: true });
      } finally {
        await db.drop();
      }
    },
    PROCESS_TEST_MS,
  );

  // Runs on the database migrated above. What a supervisor of the README's development command does:
  // signal the npm process it started; the gateway (exec'd by npm's shell) must get it and stop.
  it(
    'npm start: SIGTERM to the npm process stops the gateway, npm exits with its status 0',
    async () => {
      const server = startServer(dataDir, { LOG_FORMAT: 'json' }, ['npm', 'start']);
      const port = (await server.logged((l) => typeof l.port === 'number')).port as number;
      await server.logged((l) => l.msg === 'ready');

      server.child.kill('SIGTERM');
      await server.logged((l) => l.msg === 'stopped');
      expect(await server.exited).toBe(0);
      const refused = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        () => false,
        () => true,
      );
      expect(refused).toBe(true);
    },
    PROCESS_TEST_MS,
  );

  // Runs on the database migrated above (a second start finds the schema up to date).
  it(
    'on SIGTERM says not ready at once but keeps serving (subscriptions too) for SHUTDOWN_GRACE_MS, then closes WebSockets with 1001, stops and exits 0',
    async () => {
      const server = startServer(dataDir, { SHUTDOWN_GRACE_MS: '3000' });
      const port = (await server.logged((l) => typeof l.port === 'number')).port as number;
      await server.logged((l) => l.msg === 'ready');
      const base = `http://127.0.0.1:${port}`;
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      const live = liveClient(`ws://127.0.0.1:${port}/graphql`, await register(port, 'grace@example.com'));
      live.subscribe('subscription { notificationAdded { id } }');
      await eventually(async () => live.acknowledged);

      server.child.kill('SIGTERM');
      await server.logged((l) => l.msg === 'shutting down: not ready, still serving');
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ status: 'shutting down', checks: { migrations: 'done', database: 'ok', shutting_down: true } });
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const served = await fetch(`${base}/api/v1/public/categories`);
      expect(served.status).toBe(200);
      // Still inside the grace: the drain has not begun, the subscription is still open.
      expect(server.lines.some((l) => l.msg === 'shutting down: draining requests')).toBe(false);
      expect(live.closed).toBeUndefined();

      await server.logged((l) => l.msg === 'stopped');
      expect(await server.exited).toBe(0);
      // Closed cleanly (going away: the client reconnects elsewhere), not cut by the HTTP drain.
      expect(await closeCode(live)).toBe(1001);
      expect(server.lines.filter((l) => l.msg === 'shutting down: connections closed without an answer')).toEqual([]);
    },
    PROCESS_TEST_MS,
  );

  // Runs on the database migrated above. A load balancer keeps probing /readyz while an instance drains:
  // answers express sends synchronously must not meet the drain's own header handling (issue 22, finding 11).
  it(
    'while draining answers health checks, other synchronous routes and WebSocket upgrades with Connection: close, completes the request in flight, and exits 0',
    async () => {
      const server = startServer(dataDir);
      const port = (await server.logged((l) => typeof l.port === 'number')).port as number;
      await server.logged((l) => l.msg === 'ready');
      const inFlight = postInTwoSteps(port, '/api/v1/auth/register', {
        name: 'Drain Probe',
        email: 'drain-probe@example.com',
        password: 'Secret123!',
        password_confirmation: 'Secret123!',
      });
      await inFlight.received;

      server.child.kill('SIGTERM');
      await server.logged((l) => l.msg === 'shutting down: draining requests');
      // Sequential: each is answered while the request above still holds the drain open.
      const probes: Record<string, Answer> = {};
      for (const path of ['/readyz', '/healthz', '/no-such-route', '/api/v1/openapi.json']) probes[path] = await get(port, path);
      // A subscription's socket is refused at once (the load balancer tries another instance), never left without an answer.
      probes['upgrade /graphql'] = await upgrade(port);
      inFlight.finish();

      expect({ probes, inFlight: await inFlight.answer, exit: await server.exited }).toEqual({
        probes: {
          '/readyz': { status: 503, complete: true, connection: 'close' },
          '/healthz': { status: 200, complete: true, connection: 'close' },
          '/no-such-route': { status: 404, complete: true, connection: 'close' },
          '/api/v1/openapi.json': { status: 200, complete: true, connection: 'close' },
          'upgrade /graphql': { status: 503, complete: true, connection: 'close' },
        },
        inFlight: { status: 201, complete: true, connection: 'close' },
        exit: 0,
      });
      expect(server.lines.some((l) => l.msg === 'stopped')).toBe(true);
    },
    PROCESS_TEST_MS,
  );
});
