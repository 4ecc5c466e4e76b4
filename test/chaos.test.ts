import { createHmac, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import S3rver from 's3rver';
import { DEMO_EMAILS, DEMO_PASSWORD } from '../src/db/seed';
import { childDatabase, startEntry } from './support/entry-process';
import { eventually } from './support/eventually';
import { FaultProxy, commitAfterInsertInto, insertsInto } from './support/fault-proxy';
import { budget } from './support/time-budget';

/**
 * Chaos (issue 22): two gateway processes (the real entry point) under a mixed load, with every
 * dependency behind a fault proxy — PostgreSQL, a read replica, Redis and S3 — cut, silenced and reset, PostgreSQL
 * also right after a COMMIT was sent and in the middle of a transaction. Every answer is a 2xx, a
 * documented 4xx or a 503 within the documented bound; no process exits; every acknowledged write
 * is there exactly once; and every key retried until it got a final answer has exactly one row.
 */

it('the fault proxy forwards the matched chunk, then resets the client before the answer returns', async () => {
  const received: string[] = [];
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.on('data', (d) => (received.push(d.toString()), socket.write(`ok ${d.toString()}`)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { proxy, url } = await FaultProxy.start(`tcp://127.0.0.1:${(server.address() as AddressInfo).port}`);
  try {
    const cut = proxy.cutAfter((chunk) => chunk.toString() === 'COMMIT');
    const client = net.connect(Number(new URL(url).port), '127.0.0.1');
    const heard: string[] = [];
    client.on('data', (d) => heard.push(d.toString()));
    const closed = new Promise<void>((resolve) => client.on('close', () => resolve()));
    client.on('error', () => undefined);
    client.write('BEGIN');
    await eventually(async () => heard.length === 1);
    client.write('COMMIT');
    await cut;
    await closed;
    expect(received).toEqual(['BEGIN', 'COMMIT']);
    expect(heard).toEqual(['ok BEGIN']);
  } finally {
    await proxy.close();
    await new Promise((resolve) => server.close(resolve));
  }
});

// Several gateway processes need a database server (the convention of test/cluster.test.ts).
if (process.env.TEST_DATABASE_URL) {
  describe('two gateways under load while PostgreSQL, Redis and S3 fail', () => {
    const BUCKET = 'chaos-kyc';
    const JWT_SECRET = 'chaos-test-secret-0123456789abcdef-0123456789abcdef';
    /** Small timeouts so faults are noticed quickly (as test/db-faults.test.ts). */
    const FAST = { DB_CONNECT_TIMEOUT_MS: '500', DB_STATEMENT_TIMEOUT_MS: '1000', DB_TRANSACTION_MAX_WAIT_MS: '1000', DB_TRANSACTION_TIMEOUT_MS: '3000' };
    /**
     * The documented bound with those timeouts (docs/api.md, "Database timeouts"): connect 500 +
     * statement 1000 + the client's 1000 margin, a transaction's wait 1000 + life 3000, plus 2 s for a
     * busy machine — the bound of test/db-faults.test.ts.
     */
    const ANSWER_BOUND_MS = budget(500 + 2000 + 1000 + 3000 + 2000);
    let s3: S3rver;
    let s3Dir: string;
    let db: Awaited<ReturnType<typeof childDatabase>>;
    let sql: Client;
    const proxies: Record<'pg' | 'replica' | 'redis' | 's3', FaultProxy> = {} as never;
    let gateways: Array<ReturnType<typeof startEntry> & { url: string }>;

    beforeAll(async () => {
      s3Dir = await mkdtemp(path.join(os.tmpdir(), 'chaos-s3-'));
      s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir, configureBuckets: [{ name: BUCKET, configs: [] }] });
      const { port: s3Port } = (await s3.run()) as AddressInfo;
      db = await childDatabase(s3Dir, 'chaos');
      sql = new Client({ connectionString: db.url });
      await sql.connect();
      const pg = await FaultProxy.start(db.url!);
      // The read replica (DATABASE_READ_URLS): the same database through a proxy of its own, so it can fail alone.
      const replica = await FaultProxy.start(db.url!);
      const redis = await FaultProxy.start('redis://127.0.0.1:6379');
      const s3Proxy = await FaultProxy.start(`http://127.0.0.1:${s3Port}`);
      Object.assign(proxies, { pg: pg.proxy, replica: replica.proxy, redis: redis.proxy, s3: s3Proxy.proxy });
      const env = {
        ...FAST,
        DATABASE_URL: pg.url,
        DATABASE_READ_URLS: replica.url,
        NODE_ENV: 'development',
        ROLE: 'api',
        JWT_SECRET,
        SEED_ON_START: 'false',
        MIGRATE_ON_START: 'false',
        AUTH_RATE_LIMIT_PER_MINUTE: '1000',
        REDIS_URL: redis.url,
        REDIS_KEY_PREFIX: `chaos-test:${process.pid}:${randomUUID()}:`,
        STORAGE: 's3',
        S3_ENDPOINT: s3Proxy.url.replace(/\/$/, ''),
        S3_BUCKET: BUCKET,
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        S3_FORCE_PATH_STYLE: 'true',
        // A silent store is given up after 2 × this (docs/api.md), well within the bound below.
        S3_SOCKET_TIMEOUT_MS: '1000',
        // A key whose release could not reach the database is free again after this (docs/api.md).
        IDEMPOTENCY_LOCK_SECONDS: '3',
        DB_POOL_SIZE: '5',
      };
      gateways = await Promise.all(
        [0, 1].map(async () => {
          const g = startEntry(env);
          const port = (await g.logged((l) => typeof l.port === 'number')).port as number;
          await g.logged((l) => l.msg === 'ready');
          return Object.assign(g, { url: `http://127.0.0.1:${port}` });
        }),
      );
    }, budget(120_000));

    afterAll(async () => {
      for (const p of Object.values(proxies)) p.restore();
      for (const g of gateways ?? []) {
        if (g.child.exitCode === null) g.child.kill('SIGKILL');
        await g.exited;
      }
      await sql?.end();
      await db?.drop();
      for (const p of Object.values(proxies)) await p.close();
      await s3?.close();
      await rm(s3Dir, { recursive: true, force: true });
    });

    it(
      'answers only 2xx, documented 4xx or 503 within the bound; no process exits; every write once',
      async () => {
        const signal = () => AbortSignal.timeout(ANSWER_BOUND_MS + 5000);
        const login = await fetch(`${gateways[0].url}/api/v1/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: DEMO_EMAILS.investor, password: DEMO_PASSWORD }),
          signal: signal(),
        });
        expect(login.status).toBe(200);
        const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
        const auth = { authorization: `Bearer ${token}` };
        const {
          rows: [{ investor_id: investorId, user_id: userId }],
        } = await sql.query<{ investor_id: number; user_id: number }>(
          'SELECT i.id AS investor_id, u.id AS user_id FROM users u JOIN investors i ON i.user_id = u.id WHERE u.email = $1',
          [DEMO_EMAILS.investor],
        );
        const {
          rows: [unit],
        } = await sql.query<{ id: number }>(
          `INSERT INTO units (code, name, description, location, category_id, status, total_value, available_percentage, min_investment, expected_return, updated_at)
         VALUES ('CHAOS-1', 'Chaos unit', 'Made by the chaos test.', 'Testville', (SELECT min(id) FROM categories), 'AVAILABLE', 1000000000, 100, 1000, 5, now()) RETURNING id`,
        );
        await sql.query(`INSERT INTO holdings (investor_id, unit_id, ownership_percentage, invested_amount, updated_at) VALUES ($1, $2, 50, 50000, now())`, [
          investorId,
          unit.id,
        ]);

        type Answer = { kind: string; status: number; ms: number; gateway: number; begun: number };
        const answers: Answer[] = [];
        const faults: string[] = [];
        let previousCut: Promise<void> | undefined;
        let kycCommitLost = false;
        /**
         * Faults driven by progress (answers so far), not time, in order of `at`. Each heals after a
         * number of further answers, or once a request of a kind sent after it began has been answered
         * (`felt`): a silence must hold until a request meets it, or the fault proves nothing.
         */
        type Heal = { after: number; run: () => void } | { felt: string; run: () => void };
        const schedule: Array<{ at: number; name: string; start: () => unknown; heal?: Heal }> = [
          { at: 10, name: 'pg reset after COMMIT', start: () => proxies.pg.cutAfter(commitAfterInsertInto('investment_requests')) },
          { at: 25, name: 'pg reset mid-transaction', start: () => proxies.pg.cutAfter(insertsInto('withdrawal_requests')) },
          { at: 40, name: 'pg silent', start: () => proxies.pg.blackhole(), heal: { after: 8, run: () => proxies.pg.restore() } },
          { at: 60, name: 'redis cut', start: () => proxies.redis.refuse(), heal: { after: 12, run: () => proxies.redis.restore() } },
          { at: 80, name: 'pg cut', start: () => proxies.pg.refuse(), heal: { after: 6, run: () => proxies.pg.restore() } },
          { at: 95, name: 's3 cut', start: () => proxies.s3.refuse(), heal: { after: 8, run: () => proxies.s3.restore() } },
          { at: 110, name: 'redis silent', start: () => proxies.redis.blackhole(), heal: { after: 10, run: () => proxies.redis.restore() } },
          { at: 115, name: 'replica cut', start: () => proxies.replica.refuse(), heal: { felt: 'read', run: () => proxies.replica.restore() } },
          { at: 125, name: 'pg reset after COMMIT', start: () => (previousCut = proxies.pg.cutAfter(commitAfterInsertInto('withdrawal_requests'))) },
          { at: 130, name: 's3 silent', start: () => proxies.s3.blackhole(), heal: { felt: 'upload', run: () => proxies.s3.restore() } },
          // Armed once the previous reset happened (the proxy holds one cut at a time); checked below that it happened too.
          {
            at: 135,
            name: 'pg reset after a KYC COMMIT',
            start: async () => {
              await previousCut;
              await proxies.pg.cutAfter(commitAfterInsertInto('kyc_documents'));
              kycCommitLost = true;
            },
          },
          { at: 145, name: 'replica silent', start: () => proxies.replica.blackhole(), heal: { felt: 'read', run: () => proxies.replica.restore() } },
        ];
        const healing: Array<{ at: number; since: number; name: string; heal: Heal }> = [];
        /** The status of the request that met each `felt` fault. */
        const met: Record<string, number> = {};
        const onAnswer = (last: Answer) => {
          const done = answers.length;
          while (schedule.length && done >= schedule[0].at) {
            const fault = schedule.shift()!;
            faults.push(fault.name);
            void fault.start();
            if (fault.heal) healing.push({ at: done + ('after' in fault.heal ? fault.heal.after : 0), since: Date.now(), name: fault.name, heal: fault.heal });
          }
          const due = healing.filter((h) => ('felt' in h.heal ? last.kind === h.heal.felt && last.begun >= h.since : done >= h.at));
          for (const h of due) {
            if ('felt' in h.heal) met[h.name] = last.status;
            healing.splice(healing.indexOf(h), 1);
            h.heal.run();
          }
        };

        let turn = 0;
        const send = async (kind: string, p: string, init: RequestInit) => {
          const gateway = turn++ % gateways.length;
          const begun = Date.now();
          const res = await fetch(`${gateways[gateway].url}${p}`, { ...init, signal: signal() }).then(
            async (r) => ({ status: r.status, body: await r.text() }),
            () => ({ status: 0, body: '' }), // no HTTP answer at all
          );
          const answer = { kind, status: res.status, ms: Date.now() - begun, gateway, begun };
          answers.push(answer);
          onAnswer(answer);
          return res;
        };
        const json =
          (body: unknown) =>
          (headers: Record<string, string> = {}): RequestInit => ({
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json', ...headers },
            body: JSON.stringify(body),
          });
        /** A KYC upload (multipart: a new form for each attempt, the same bytes). */
        const upload = (headers: Record<string, string> = {}): RequestInit => {
          const form = new FormData();
          form.append('document_type', 'proof_of_address');
          form.append('file', new Blob([Buffer.from('%PDF-1.7\nchaos\n')], { type: 'application/pdf' }), 'bill.pdf');
          return { method: 'POST', headers: { ...auth, ...headers }, body: form };
        };

        /** The key's row as the gateway stores it (HMAC of the key under JWT_SECRET): free once no request holds its lease. */
        const leaseEnded = async (key: string) => {
          const hash = createHmac('sha256', JWT_SECRET).update(key).digest('hex');
          const { rows } = await sql.query(
            `SELECT 1 FROM idempotency_keys WHERE scope = $1 AND key_hash = $2 AND state = 'IN_PROGRESS' AND expires_at > now()`,
            [`user:${userId}`, hash],
          );
          return rows.length === 0;
        };
        /** A client that retries with the same key until it gets a final answer (2xx or a business 4xx). */
        const keyed = async (kind: string, p: string, init: (headers: Record<string, string>) => RequestInit, idOf: (text: string) => number) => {
          const key = randomUUID();
          for (let attempt = 0; attempt < 30; attempt++) {
            const res = await send(kind, p, init({ 'idempotency-key': key }));
            if (res.status === 200 || res.status === 201) return { key, id: idOf(res.body) };
            if (res.status === 409) await eventually(() => leaseEnded(key), budget(10_000));
            else if (res.status !== 503) return { key, id: undefined, status: res.status };
          }
          return { key, id: undefined, status: -1 };
        };

        const outcomes = {
          invest: [] as Array<{ key: string; id?: number }>,
          withdraw: [] as Array<{ key: string; id?: number }>,
          uploads: [] as Array<{ key: string; id?: number }>,
        };
        const operations: Array<() => Promise<unknown>> = [
          async () =>
            outcomes.invest.push(
              await keyed(
                'invest',
                '/api/v1/investment-requests',
                json({ unit_id: unit.id, amount: 1000 }),
                (t) => (JSON.parse(t) as { data: { id: number } }).data.id,
              ),
            ),
          async () =>
            outcomes.withdraw.push(
              await keyed(
                'withdraw',
                '/graphql',
                json({
                  query: 'mutation($input: CreateWithdrawalRequestInput!) { createWithdrawalRequest(input: $input) { id } }',
                  variables: { input: { unitId: unit.id, ownershipPercentage: '0.01', reason: 'Chaos' } },
                }),
                (t) => Number((JSON.parse(t) as { data: { createWithdrawalRequest: { id: string } } }).data.createWithdrawalRequest.id),
              ),
            ),
          // Reads that go to the replica.
          () => send('read', ['/api/v1/units?per_page=5', '/api/v1/portfolio/performance', '/api/v1/distributions'][turn % 3], { headers: auth }),
          () => send('graphql', '/graphql', json({ query: '{ me { id } }' })()),
          async () => outcomes.uploads.push(await keyed('upload', '/api/v1/kyc/documents', upload, (t) => (JSON.parse(t) as { data: { id: number } }).data.id)),
        ];
        const TOTAL = 170;
        let next = 0;
        const client = async () => {
          while (next < TOTAL) {
            const i = next++;
            await operations[i % operations.length]();
          }
        };
        await Promise.all(Array.from({ length: 6 }, client));
        for (const h of healing) h.heal.run();
        for (const p of Object.values(proxies)) p.restore();

        // Every fault happened, and was felt; and no process exited.
        expect(faults).toEqual(
          expect.arrayContaining([
            'pg reset after COMMIT',
            'pg reset mid-transaction',
            'pg silent',
            'redis cut',
            'pg cut',
            's3 cut',
            'redis silent',
            'pg reset after a KYC COMMIT',
            'replica cut',
            's3 silent',
            'replica silent',
          ]),
        );
        expect(answers.some((a) => a.status === 503)).toBe(true);
        // A replica down or silent, and a silent store, each answered the request that met it with a 503.
        expect(met).toEqual({ 'replica cut': 503, 's3 silent': 503, 'replica silent': 503 });
        expect(gateways.map((g) => g.child.exitCode)).toEqual([null, null]);

        // Only 2xx, a documented 4xx (409 for a key still held) or 503; all within the bound.
        const allowed = new Set([200, 201, 409, 503]);
        const unexpected = answers.filter((a) => !allowed.has(a.status));
        // With the instances' logged errors, which say why.
        const logged = gateways.flatMap((g) =>
          g.lines.filter((l) => Number(l.level) >= 50).map((l) => (l.err as { message?: string } | undefined)?.message ?? l.msg),
        );
        expect({ unexpected, logged: unexpected.length ? logged : [] }).toEqual({ unexpected: [], logged: [] });
        expect(answers.filter((a) => a.ms > ANSWER_BOUND_MS)).toEqual([]);

        // Every key got a final answer, and each has exactly one row: the one it answered.
        for (const [table, list] of [
          ['investment_requests', outcomes.invest],
          ['withdrawal_requests', outcomes.withdraw],
        ] as const) {
          expect(list.filter((o) => o.id === undefined)).toEqual([]);
          const ids = list.map((o) => o.id!);
          expect(new Set(ids).size).toBe(list.length);
          const { rows } = await sql.query<{ id: number }>(`SELECT id FROM ${table} WHERE unit_id = $1 ORDER BY id`, [unit.id]);
          expect(rows.map((r) => r.id)).toEqual([...ids].sort((a, b) => a - b));
        }
        // Every upload key got a final answer (one of them after its COMMIT's answer was lost), and each has exactly one document: the one it answered.
        expect(kycCommitLost).toBe(true);
        expect(outcomes.uploads.filter((o) => o.id === undefined)).toEqual([]);
        const uploaded = outcomes.uploads.map((o) => o.id!);
        const { rows: docs } = await sql.query<{ id: number }>('SELECT id FROM kyc_documents WHERE investor_id = $1 AND id >= $2 ORDER BY id', [
          investorId,
          Math.min(...uploaded),
        ]);
        expect(docs.map((d) => d.id)).toEqual([...uploaded].sort((a, b) => a - b));

        // Ready again on both instances once everything is back.
        for (const g of gateways) await eventually(async () => (await fetch(`${g.url}/readyz`, { signal: signal() })).status === 200, budget(20_000));
      },
      budget(90_000),
    );
  });
}
