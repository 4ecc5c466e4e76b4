import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { MIGRATIONS_DIR } from '../src/db/migrate';
import { childDatabase, startEntry } from './support/entry-process';
import { eventually } from './support/eventually';
import { closeCode, liveClient } from './support/live';

const migrationNames = () =>
  readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();

const started: ReturnType<typeof startEntry>['child'][] = [];

/** Starts the real entry point (src/main.ts) in a child process on a fresh embedded database. */
function startServer(dataDir: string, env: Record<string, string> = {}) {
  const server = startEntry({ DATA_DIR: dataDir, SEED_ON_START: 'false', NODE_ENV: 'development', DATABASE_URL: '', AUTH_RATE_LIMIT_PER_MINUTE: '0', ...env });
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
  const PROCESS_TEST_MS = 150_000;

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
});
