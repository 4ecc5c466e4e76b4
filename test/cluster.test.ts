import { randomBytes, randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import S3rver from 's3rver';
import { DEMO_EMAILS, DEMO_PASSWORD } from '../src/db/seed';
import { childDatabase, startEntry } from './support/entry-process';
import { eventually } from './support/eventually';
import { closeCode, liveClient } from './support/live';
import { ensureNginx, startNginx, writeNginxConfig } from './support/nginx';
import { budget } from './support/time-budget';

/**
 * Scale-out (docs/scaling.md): three gateway processes (the real entry point) on one PostgreSQL
 * database, one Redis and one S3-protocol server, behind a real nginx doing round-robin. Shared
 * state must live in those engines, never in one process: limits, sessions, files, idempotency keys,
 * the push outbox. Instance 0 runs ROLE=api, instances 1 and 2 ROLE=all, so two processes drain the
 * push outbox at once.
 */
const nginx = ensureNginx();

it('the load balancer configuration is valid nginx: round-robin over every instance, POSTs never retried once sent', () => {
  const { dir, file } = writeNginxConfig(8080, [4001, 4002, 4003]);
  try {
    const checked = spawnSync(nginx, ['-t', '-e', 'stderr', '-p', dir, '-c', file], { encoding: 'utf8' });
    expect(checked.stderr).toContain('test is successful');
    expect(checked.status).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// PostgreSQL only: the embedded PGlite belongs to the one process that opened it; several gateways
// need a database server (the convention of test/production-path.test.ts).
if (process.env.TEST_DATABASE_URL) {
  describe('three gateways behind nginx on PostgreSQL, Redis and S3', () => {
    const BUCKET = 'cluster-kyc';
    const JWT_SECRET = 'cluster-test-secret-0123456789abcdef-0123456789';
    let s3: S3rver;
    let s3Dir: string;
    let db: Awaited<ReturnType<typeof childDatabase>>;
    let sql: Client;
    let gateways: Array<ReturnType<typeof startEntry> & { port: number; url: string }>;
    let lb: Awaited<ReturnType<typeof startNginx>>;

    beforeAll(async () => {
      s3Dir = await mkdtemp(path.join(os.tmpdir(), 'cluster-s3-'));
      s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir, configureBuckets: [{ name: BUCKET, configs: [] }] });
      const { port: s3Port } = (await s3.run()) as AddressInfo;
      db = await childDatabase(s3Dir, 'cluster');
      sql = new Client({ connectionString: db.url });
      await sql.connect();
      const env = {
        ...db.env,
        NODE_ENV: 'development',
        JWT_SECRET,
        SEED_ON_START: 'false',
        MIGRATE_ON_START: 'false',
        TRUST_PROXY: 'true',
        AUTH_RATE_LIMIT_PER_MINUTE: '10',
        REDIS_URL: 'redis://127.0.0.1:6379',
        // Keys of this run only: other runs (and other suites) share the Redis server.
        REDIS_KEY_PREFIX: `cluster-test:${process.pid}:${randomUUID()}:`,
        STORAGE: 's3',
        S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
        S3_BUCKET: BUCKET,
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        S3_FORCE_PATH_STYLE: 'true',
        PUSH_WORKER_INTERVAL_MS: '50',
        // Small claims, so both workers take turns at the outbox instead of one taking it all at once.
        PUSH_BATCH_SIZE: '4',
        DB_POOL_SIZE: '5',
      };
      const started = ['api', 'all', 'all'].map((ROLE) => startEntry({ ...env, ROLE }));
      gateways = await Promise.all(
        started.map(async (g) => {
          const port = (await g.logged((l) => typeof l.port === 'number')).port as number;
          await g.logged((l) => l.msg === 'ready');
          return Object.assign(g, { port, url: `http://127.0.0.1:${port}` });
        }),
      );
      lb = await startNginx(
        nginx,
        gateways.map((g) => g.port),
      );
    }, budget(120_000));

    afterAll(async () => {
      for (const g of gateways ?? []) {
        if (g.child.exitCode === null) g.child.kill('SIGKILL');
        await g.exited;
      }
      await lb?.stop();
      await sql?.end();
      await db?.drop();
      await s3?.close();
      await rm(s3Dir, { recursive: true, force: true });
    });

    const json = async (res: Response) => ({ status: res.status, headers: res.headers, text: await res.text() });
    const post = (base: string, p: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${base}${p}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }).then(json);
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    /** Logs in through the load balancer, as a client of its own (the per-client limit is not what these use up). */
    const login = async (email: string) => {
      const res = await post(
        lb.url,
        '/api/v1/auth/login',
        { email, password: DEMO_PASSWORD },
        { 'x-forwarded-for': `198.51.100.${1 + Math.floor(Math.random() * 250)}` },
      );
      expect(res.status).toBe(200);
      return (JSON.parse(res.text) as { data: { access_token: string } }).data.access_token;
    };
    /** Which instances answered requests for `url` (pino-http's request lines). */
    const servedBy = (url: string) =>
      gateways.map((g) => g.lines.filter((l) => (l.req as { url?: string } | undefined)?.url === url && l.msg === 'request completed').length);

    /** Resolves once `done()` holds, asking again whenever a running gateway writes a log line. */
    const untilLogged = async (done: () => Promise<boolean>) => {
      for (;;) {
        const running = gateways.filter((g) => g.child.exitCode === null);
        const marks = running.map((g) => g.lines.length);
        if (await done()) return;
        await Promise.race(running.map((g, i) => g.logged((l) => g.lines.indexOf(l) >= marks[i])));
      }
    };

    it('the login limit holds across instances: the same answers as one instance, though every instance served some', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 15; i++) {
        const res = await post(lb.url, '/api/v1/auth/login', { email: `spray${i}@example.com`, password: 'Guess1234!' }, { 'x-forwarded-for': '203.0.113.77' });
        statuses.push(res.status);
      }
      // One instance allows AUTH_RATE_LIMIT_PER_MINUTE (10) attempts per client; three must not allow 30.
      expect(statuses).toEqual([...Array<number>(10).fill(422), ...Array<number>(5).fill(429)]);
      expect(servedBy('/api/v1/auth/login').every((n) => n > 0)).toBe(true);
    });

    it('logout through one instance ends the session on every instance at once', async () => {
      const token = await login(DEMO_EMAILS.analyst);
      const me = () => Promise.all(gateways.map((g) => fetch(`${g.url}/api/v1/auth/me`, { headers: bearer(token) }).then((r) => r.status)));
      expect(await me()).toEqual([200, 200, 200]);
      expect((await post(gateways[1].url, '/api/v1/auth/logout', {}, bearer(token))).status).toBe(200);
      expect(await me()).toEqual([401, 401, 401]);
    });

    it('a subscriber behind nginx gets a change written through another instance, and logout through a third closes its socket within 5 s', async () => {
      const token = await login(DEMO_EMAILS.investor);
      const admin = await login(DEMO_EMAILS.admin);
      const live = liveClient(`${lb.url.replace('http:', 'ws:')}/graphql`, token);
      try {
        const requests = live.subscribe<{ investmentRequestUpdated: { id: number; status: string } }>(
          'subscription { investmentRequestUpdated { id status } }',
        );
        // Which instance holds the socket: the one whose subscription gauge counts it.
        const open = (g: (typeof gateways)[number]) =>
          fetch(`${g.url}/metrics`)
            .then((r) => r.text())
            .then((text) => Number(/^graphql_subscriptions_open (\d+)/m.exec(text)?.[1] ?? 0));
        let holder = -1;
        await eventually(async () => {
          holder = (await Promise.all(gateways.map(open))).findIndex((n) => n === 1);
          return holder >= 0;
        });
        const [writer, revoker] = [1, 2].map((k) => gateways[(holder + k) % gateways.length]);
        const {
          rows: [request],
        } = await sql.query<{ id: number }>(
          `INSERT INTO investment_requests (investor_id, unit_id, amount, ownership_percentage, updated_at)
           SELECT i.id, (SELECT min(id) FROM units WHERE status = 'AVAILABLE' AND available_percentage >= 1), 1000, 0.000001, now()
           FROM investors i JOIN users u ON u.id = i.user_id WHERE u.email = $1 RETURNING id`,
          [DEMO_EMAILS.investor],
        );
        const approved = await post(writer.url, '/graphql', { query: `mutation { approveInvestmentRequest(id: ${request.id}) { id } }` }, bearer(admin));
        expect(approved.status).toBe(200);
        await eventually(async () => requests.results.length === 1);
        expect(requests.results[0].data?.investmentRequestUpdated).toEqual({ id: request.id, status: 'APPROVED' });

        const started = Date.now();
        expect((await post(revoker.url, '/api/v1/auth/logout', {}, bearer(token))).status).toBe(200);
        expect(await closeCode(live, 5000)).toBe(4401);
        expect(Date.now() - started).toBeLessThan(5000);
      } finally {
        await live.dispose();
      }
    });

    it('a KYC file uploaded through one instance downloads, byte for byte, through each of the others', async () => {
      const token = await login(DEMO_EMAILS.investor);
      const bytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(64 * 1024)]);
      const form = new FormData();
      form.append('document_type', 'passport');
      form.append('file', new Blob([bytes], { type: 'application/pdf' }), 'passport.pdf');
      const uploaded = await fetch(`${gateways[0].url}/api/v1/kyc/documents`, { method: 'POST', headers: bearer(token), body: form });
      expect(uploaded.status).toBe(201);
      const { id } = ((await uploaded.json()) as { data: { id: number } }).data;
      for (const g of gateways.slice(1)) {
        const res = await fetch(`${g.url}/api/v1/kyc/documents/${id}/download`, { headers: bearer(token) });
        expect(res.status).toBe(200);
        expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
      }
    });

    it('an Idempotency-Key retry through another instance replays the first answer instead of writing again', async () => {
      const token = await login(DEMO_EMAILS.investor);
      const {
        rows: [unit],
      } = await sql.query<{ id: number }>(
        `INSERT INTO units (code, name, description, location, category_id, status, total_value, available_percentage, min_investment, expected_return, updated_at)
         VALUES ($1, 'Cluster unit', 'Made by the cluster test.', 'Testville', (SELECT min(id) FROM categories), 'AVAILABLE', 100000, 50, 1000, 5, now()) RETURNING id`,
        [`CLUSTER-${process.pid}`],
      );
      const key = randomUUID();
      const body = { unit_id: unit.id, amount: 1500 };
      const first = await post(gateways[0].url, '/api/v1/investment-requests', body, { ...bearer(token), 'idempotency-key': key });
      const retry = await post(gateways[2].url, '/api/v1/investment-requests', body, { ...bearer(token), 'idempotency-key': key });
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(retry).toMatchObject({ status: 201, text: first.text });
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      const { rows } = await sql.query('SELECT id FROM investment_requests WHERE unit_id = $1', [unit.id]);
      expect(rows).toHaveLength(1);
    });

    it('with two worker processes draining the push outbox, each push is delivered exactly once', async () => {
      const PUSHES = 60;
      const token = `cluster-device-${randomUUID()}`;
      // Queued as notify() queues them: a notification and its outbox row, for a registered device.
      const { rows: ids } = await sql.query<{ id: number }>(
        `WITH u AS (SELECT id FROM users WHERE email = $1),
              d AS (INSERT INTO device_tokens (user_id, token, platform, updated_at) SELECT id, $2, 'ANDROID', now() FROM u),
              n AS (INSERT INTO notifications (user_id, type, title, body) SELECT u.id, 'SYSTEM', 'Cluster ' || g, 'Body' FROM u, generate_series(1, $3::int) g RETURNING id)
         INSERT INTO push_deliveries (notification_id, token) SELECT id, $2 FROM n RETURNING notification_id AS id`,
        [DEMO_EMAILS.investor, token, PUSHES],
      );
      expect(ids).toHaveLength(PUSHES);
      const mine = new Set(ids.map((r) => String(r.id)));
      const deliveredBy = () =>
        gateways.map((g) =>
          g.lines
            .filter((l) => l.msg === 'push notification (log sender)')
            .map((l) => (l.push as { data: { notificationId: string } }).data.notificationId)
            .filter((id) => mine.has(id)),
        );
      // Done when the database says every row is SENT and every send's log line has been read from
      // the workers' pipes (a line can still be in transit when the row's update commits); checked
      // again after each line the gateways log (a worker logs after every drain).
      await untilLogged(async () => {
        const { rows } = await sql.query<{ open: number }>(`SELECT count(*)::int AS open FROM push_deliveries WHERE token = $1 AND status <> 'SENT'`, [token]);
        return rows[0].open === 0 && deliveredBy().flat().length >= PUSHES;
      });
      const delivered = deliveredBy();
      // ROLE=api delivers nothing; the two workers between them deliver every push once.
      expect(delivered[0]).toEqual([]);
      // Both workers took part (claims of 4 from a queue of 60), and no push went out twice.
      expect(delivered.slice(1).map((d) => d.length > 0)).toEqual([true, true]);
      const all = [...delivered[1], ...delivered[2]];
      expect(all).toHaveLength(PUSHES);
      expect(new Set(all).size).toBe(PUSHES);
      const { rows: attempts } = await sql.query(`SELECT DISTINCT attempts FROM push_deliveries WHERE token = $1`, [token]);
      expect(attempts).toEqual([{ attempts: 1 }]);
    });

    it('killing one instance (SIGKILL) under load loses no acknowledged write; only requests it held may fail', async () => {
      const token = await login(DEMO_EMAILS.investor);
      const TOTAL = 150;
      const CONCURRENCY = 6;
      const run = randomUUID().slice(0, 8);
      const acknowledged: string[] = [];
      const failed: number[] = [];
      let next = 0;
      let servedAfterKill = 0;
      let killed: Promise<unknown> | undefined;
      const victim = gateways[0];
      const client = async () => {
        while (next < TOTAL) {
          const device = `kill-${run}-${next++}-${'x'.repeat(32)}`;
          const res = await post(lb.url, '/api/v1/notifications/fcm-token', { token: device, platform: 'android' }, bearer(token));
          if (res.status >= 200 && res.status < 300) {
            acknowledged.push(device);
            if (killed) servedAfterKill++;
          } else failed.push(res.status);
          // A third of the way in, with requests in flight on every instance, instance 0 dies.
          if (!killed && acknowledged.length >= TOTAL / 3) {
            victim.child.kill('SIGKILL');
            killed = victim.exited;
          }
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, client));
      await killed;
      expect(victim.child.signalCode).toBe('SIGKILL');
      const { rows } = await sql.query<{ token: string }>(`SELECT token FROM device_tokens WHERE token LIKE $1`, [`kill-${run}-%`]);
      const stored = new Set(rows.map((r) => r.token));
      expect(acknowledged.filter((d) => !stored.has(d))).toEqual([]);
      // nginx passes a POST to the next instance only when it never reached the dead one: at most the
      // requests the victim held fail (502), and the rest of the load is served by the survivors.
      expect(failed.every((s) => s === 502)).toBe(true);
      expect(failed.length).toBeLessThanOrEqual(CONCURRENCY);
      expect(servedAfterKill).toBeGreaterThan(TOTAL / 3);
    });
  });
}
