import { Client } from 'pg';
import { createTestUnit } from './support/fixtures';
import { FaultProxy } from './support/fault-proxy';
import { eventually } from './support/eventually';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';
import { budget } from './support/time-budget';

/**
 * The database failing under the gateway (issue 7, findings 2 and 5): connections terminated by the
 * server and the database unreachable answer 503 within the configured timeouts, never 500, never
 * a crash, and the gateway recovers without a restart. The partition and pg_terminate_backend need a
 * PostgreSQL server; on PGlite the embedded database is closed under the gateway instead.
 */

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
/** Small timeouts so a partition is noticed quickly: connect 500 ms, statements 1 s (the client gives up 1 s later). */
const FAST = { DB_CONNECT_TIMEOUT_MS: '500', DB_STATEMENT_TIMEOUT_MS: '1000', DB_TRANSACTION_MAX_WAIT_MS: '1000', DB_TRANSACTION_TIMEOUT_MS: '3000' };
/**
 * The longest a request may take while the database is away: a read (connect 500 + statement 1000 +
 * the client's 1000 margin), then a transaction (max wait 1000 + life 3000), plus 2 s for a busy machine.
 */
const ANSWER_BOUND_MS = budget(500 + 2000 + 1000 + 3000 + 2000);
const UNAVAILABLE = { success: false, message: 'Service temporarily unavailable.' };

async function timed<T>(work: () => PromiseLike<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work();
  return { value, ms: Date.now() - started };
}

/** Polls `check` until it holds (bounded), for states the gateway reaches on its own (ping loop). */
describe('database gone', () => {
  let t: TestGateway;
  let proxy: FaultProxy | undefined;
  let token: string;

  beforeAll(async () => {
    t = await startTestGateway(FAST, {
      databaseUrl: async (url) => {
        const started = await FaultProxy.start(url);
        proxy = started.proxy;
        return started.url;
      },
    });
    token = await t.token(DEMO_EMAILS.investor);
  });
  afterAll(async () => {
    proxy?.restore();
    await t.close();
    await proxy?.close();
  });

  /** PostgreSQL: a partition (answers stop, sockets stay open). PGlite: the database is closed. */
  const takeAway = async () => (proxy ? proxy.blackhole() : t.pglite!.close());

  it('answers REST 503, GraphQL HTTP 503 SERVICE_UNAVAILABLE and /readyz 503 within the timeouts; /healthz stays 200', async () => {
    expect((await t.http.get('/api/v1/public/categories')).status).toBe(200);
    await takeAway();

    const rest = await timed(() => t.http.get('/api/v1/units').set('authorization', `Bearer ${token}`));
    expect(rest.value.status).toBe(503);
    expect(rest.value.body).toEqual(UNAVAILABLE);
    expect(rest.ms).toBeLessThan(ANSWER_BOUND_MS);

    const write = await timed(() => t.http.post('/api/v1/notifications/read-all').set('authorization', `Bearer ${token}`));
    expect(write.value.status).toBe(503);
    expect(write.ms).toBeLessThan(ANSWER_BOUND_MS);

    const gql = await timed(() => t.http.post('/graphql').set('content-type', 'application/json').send({ query: '{ publicCategories { id } }' }));
    expect(gql.value.status).toBe(503);
    expect(gql.value.body.errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
    expect(gql.value.body.errors[0].message).toBe('Service temporarily unavailable.');
    expect(gql.ms).toBeLessThan(ANSWER_BOUND_MS);

    // A bearer request fails while the context is built (the session lookup): still 503, not "Context creation failed" 500.
    const authed = await t.http
      .post('/graphql')
      .set('content-type', 'application/json')
      .set('authorization', `Bearer ${token}`)
      .send({ query: '{ me { id } }' });
    expect(authed.status).toBe(503);
    expect(authed.body.errors[0].extensions).toEqual({ code: 'SERVICE_UNAVAILABLE' });

    await eventually(async () => (await t.http.get('/readyz')).status === 503);
    const ready = await t.http.get('/readyz');
    expect(ready.body).toMatchObject({ status: 'unavailable', checks: { migrations: 'done', shutting_down: false } });
    expect(ready.body.checks.database).not.toBe('ok');
    expect((await t.http.get('/healthz')).status).toBe(200);

    if (!proxy) return; // a closed PGlite does not come back
    proxy.restore();
    await eventually(async () => (await t.http.get('/readyz')).status === 200);
    expect((await t.http.get('/api/v1/units').set('authorization', `Bearer ${token}`)).status).toBe(200);
  });
});

// pg_terminate_backend and a TCP partition need a PostgreSQL server; PGlite has no counterpart.
if (onPostgres) {
  describe('PostgreSQL: connections terminated and the database unreachable under load', () => {
    let t: TestGateway;
    let proxy: FaultProxy;
    let databaseName = '';
    const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });

    beforeAll(async () => {
      t = await startTestGateway(FAST, {
        databaseUrl: async (url) => {
          databaseName = new URL(url).pathname.slice(1);
          const started = await FaultProxy.start(url);
          proxy = started.proxy;
          return started.url;
        },
      });
      await admin.connect();
    });
    afterAll(async () => {
      proxy.restore();
      await admin.end();
      await t.close();
      await proxy.close();
    });

    /** Ends every session of the gateway's database, as an operator or a failover would. */
    const terminate = () =>
      admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [databaseName]);

    it('a keyed write cut off by a partition answers 503 once its statement gave up, without waiting again to release the key (finding 14)', async () => {
      const prisma = t.db.prisma;
      const token = await t.token(DEMO_EMAILS.investor);
      const unit = await createTestUnit(prisma);
      const { idempotency } = t.services;
      const events: string[] = [];
      // The partition starts once the key is claimed: the write's transaction is what it cuts off.
      const begin = idempotency.begin.bind(idempotency);
      jest.spyOn(idempotency, 'begin').mockImplementationOnce(async (request) => {
        const started = await begin(request);
        proxy.blackhole();
        return started;
      });
      // The release waits for the database as long as the test holds it (a partition that outlasts the
      // request): a failed or finished release may not settle before the answer, so the answer arriving
      // while this one is still held is what shows it did not wait for the release.
      const release = idempotency.release.bind(idempotency);
      let letRelease!: () => void;
      const held = new Promise<void>((resolve) => (letRelease = resolve));
      jest.spyOn(idempotency, 'release').mockImplementationOnce((claim) => held.then(() => release(claim)).finally(() => events.push('released')));
      try {
        const res = await timed(() =>
          t.http
            .post('/api/v1/investment-requests')
            .set('authorization', `Bearer ${token}`)
            .set('idempotency-key', 'partitioned-write')
            .send({ unit_id: unit.id, amount: 1500 }),
        );
        events.push('answered');
        expect(res.value.status).toBe(503);
        expect(res.value.body).toEqual(UNAVAILABLE);
        expect(res.ms).toBeLessThan(ANSWER_BOUND_MS);
        // The release was still waiting for the database when the answer went out: it did not add its wait to the request's.
        expect(events).toEqual(['answered']);
      } finally {
        letRelease();
        proxy.restore();
        jest.restoreAllMocks();
      }
      await eventually(async () => events.includes('released'));
      await eventually(async () => (await t.http.get('/readyz')).status === 200);
    });

    it('answers only 2xx, 503 or a business 4xx, none beyond the bound, recovers, and keeps every acknowledged write', async () => {
      const prisma = t.db.prisma;
      const user = await prisma.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.investor } });
      const token = await t.token(DEMO_EMAILS.investor);
      const { minInvestment } = await prisma.appConfig.findUniqueOrThrow({ where: { id: 1 } });
      // Room for every request of the test.
      const unit = await createTestUnit(prisma, { totalValue: '1000000000.00', availablePercentage: '100.000000', minInvestment: minInvestment.toFixed(2) });
      const notificationIds = (await prisma.notification.findMany({ where: { userId: user.id }, select: { id: true } })).map((n) => n.id);
      expect(notificationIds.length).toBeGreaterThan(0);

      type Outcome = { kind: string; status: number; ms: number; id?: number };
      const auth = { authorization: `Bearer ${token}` };
      const kinds = [
        ['read', () => t.http.get('/api/v1/units?per_page=5').set(auth)],
        [
          'invest',
          () =>
            t.http
              .post('/api/v1/investment-requests')
              .set(auth)
              .send({ unit_id: unit.id, amount: Number(minInvestment.toFixed(2)) }),
        ],
        ['mark-read', (i: number) => t.http.post(`/api/v1/notifications/${notificationIds[i % notificationIds.length]}/read`).set(auth)],
        ['graphql', () => t.http.post('/graphql').set(auth).set('content-type', 'application/json').send({ query: '{ me { id } }' })],
      ] as const;

      const TOTAL = 300;
      const outcomes: Outcome[] = [];
      let started = 0;
      let partitionedAt: number | undefined;
      const faults = { firstTerminate: false, partition: false, restored: false, secondTerminate: false };
      const pending: Array<Promise<unknown>> = [];
      // Faults are driven by progress, not time: terminate at 60 answers, partition at 120 until 16 more
      // answers came back, terminate again at 220.
      const onAnswer = () => {
        const done = outcomes.length;
        if (done >= 60 && !faults.firstTerminate) {
          faults.firstTerminate = true;
          pending.push(terminate());
        }
        if (done >= 120 && !faults.partition) {
          faults.partition = true;
          partitionedAt = done;
          proxy.blackhole();
        }
        if (partitionedAt !== undefined && done >= partitionedAt + 16 && !faults.restored) {
          faults.restored = true;
          proxy.restore();
        }
        if (done >= 220 && !faults.secondTerminate) {
          faults.secondTerminate = true;
          pending.push(terminate());
        }
      };
      const worker = async () => {
        while (started < TOTAL) {
          const i = started++;
          const [kind, send] = kinds[i % kinds.length];
          const begun = Date.now();
          const res = await send(i).then(
            (r) => ({
              status: r.status,
              id:
                kind === 'invest' && r.status === 201
                  ? (r.body.data.id as number)
                  : kind === 'mark-read' && r.status === 200
                    ? notificationIds[i % notificationIds.length]
                    : undefined,
            }),
            () => ({ status: 0, id: undefined }), // no HTTP answer at all
          );
          outcomes.push({ kind, status: res.status, id: res.id, ms: Date.now() - begun });
          onAnswer();
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      await Promise.all(pending);

      const statuses = [...new Set(outcomes.map((o) => `${o.kind} ${o.status}`))].sort();
      const allowed = new Set([200, 201, 409, 422, 503]);
      expect(outcomes.filter((o) => !allowed.has(o.status))).toEqual([]);
      expect(outcomes.filter((o) => o.ms > ANSWER_BOUND_MS)).toEqual([]);
      expect(faults).toEqual({ firstTerminate: true, partition: true, restored: true, secondTerminate: true });
      // The faults were felt, and the gateway still served most of the load.
      expect(outcomes.some((o) => o.status === 503)).toBe(true);
      expect(outcomes.filter((o) => o.status < 300).length).toBeGreaterThan(TOTAL / 2);
      expect(statuses).toEqual(expect.arrayContaining(['invest 201', 'mark-read 200', 'read 200', 'graphql 200']));

      // Recovery without a restart: ready again, and serving.
      await eventually(async () => (await t.http.get('/readyz')).status === 200);
      expect((await kinds[0][1]()).status).toBe(200);

      // Every acknowledged write is there.
      const invested = outcomes.filter((o) => o.kind === 'invest' && o.id !== undefined).map((o) => o.id!);
      expect(await prisma.investmentRequest.count({ where: { id: { in: invested } } })).toBe(invested.length);
      const read = [...new Set(outcomes.filter((o) => o.kind === 'mark-read' && o.id !== undefined).map((o) => o.id!))];
      expect(await prisma.notification.count({ where: { id: { in: read }, readAt: { not: null } } })).toBe(read.length);
    });
  });
}
