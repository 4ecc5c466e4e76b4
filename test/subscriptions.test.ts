import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { createTestUnit } from './support/fixtures';
import { eventually } from './support/eventually';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';
import { closeCode, liveClient, rawSocket, type LiveClient } from './support/live';
import { changes } from '../src/services/change-feed';
import { notify } from '../src/services/notification.service';
import { SUBSCRIPTION_LIMITS } from '../src/graphql/subscriptions';
import { budget } from './support/time-budget';

/**
 * GraphQL subscriptions over WebSocket (contract §3 "Subscriptions"): the graphql-ws client against
 * the gateway's own HTTP server, on PGlite (its LISTEN/NOTIFY) or PostgreSQL (TEST_DATABASE_URL).
 */
let t: TestGateway;
let url: string;
let investorToken: string;
let otherToken: string;
let adminToken: string;
let analystToken: string;
let investorId: number;
let otherId: number;
const clients: LiveClient[] = [];

beforeAll(async () => {
  t = await startTestGateway();
  await new Promise<void>((resolve) => t.gateway.server.listen(0, '127.0.0.1', resolve));
  url = `ws://127.0.0.1:${(t.gateway.server.address() as AddressInfo).port}/graphql`;
  const demo = await t.db.prisma.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.investor }, include: { investor: true } });
  investorId = demo.investor!.id;
  const other = await t.db.prisma.investor.findFirstOrThrow({ where: { id: { not: investorId }, user: { deletedAt: null } }, include: { user: true } });
  otherId = other.id;
  [investorToken, otherToken, adminToken, analystToken] = await Promise.all([
    t.token(DEMO_EMAILS.investor),
    t.token(other.user.email),
    t.token(DEMO_EMAILS.admin),
    t.token(DEMO_EMAILS.analyst),
  ]);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
  // Each test counts its own subscribers from zero.
  await eventually(async () => t.services.changes.size() === 0);
});
afterAll(() => t.close());

const connect = (token: string | undefined, params?: Record<string, unknown>) => {
  const c = liveClient(url, token, params);
  clients.push(c);
  return c;
};
const acknowledged = (c: LiveClient) => eventually(async () => c.acknowledged);
/** Subscribers registered on the gateway's change feed: a subscription is live once counted. */
const subscribers = () => t.services.changes.size();

const makeUnit = () => createTestUnit(t.db.prisma);
const pendingInvestment = (owner: number, unitId: number) =>
  t.db.prisma.investmentRequest.create({ data: { investorId: owner, unitId, amount: '2000.00', ownershipPercentage: '2.000000' } });

const REQUEST_UPDATED = 'subscription { investmentRequestUpdated { id investorId status unit { id } } }';
const WITHDRAWAL_UPDATED = 'subscription { withdrawalRequestUpdated { id investorId status } }';
const NOTIFICATION_ADDED = 'subscription { notificationAdded { id type data } }';

describe('connection_init', () => {
  it('closes with 4401 and never acknowledges without a token, with a bad one, or with a revoked session', async () => {
    const revoked = await t.token(DEMO_EMAILS.investor);
    expect((await t.http.post('/api/v1/auth/logout').set('authorization', `Bearer ${revoked}`)).status).toBe(200);
    const cases = [
      connect(undefined),
      connect(undefined, { authorization: 'Bearer not-a-token' }),
      connect(undefined, { authorization: investorToken }), // no "Bearer "
      connect(undefined, { authorization: 42 }),
      connect(revoked),
    ];
    for (const c of cases) {
      expect(await closeCode(c)).toBe(4401);
      expect(c.acknowledged).toBe(false);
    }
  });

  it('acknowledges a live session', async () => {
    const c = connect(investorToken);
    await acknowledged(c);
    expect(c.closed).toBeUndefined();
  });

  it('closes with 1013 (try again later, which clients retry) when the database cannot answer at connection_init', async () => {
    const lost = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    const identify = jest.spyOn(t.services.auth, 'identify').mockRejectedValueOnce(lost);
    try {
      const c = connect(investorToken);
      expect(await closeCode(c)).toBe(1013);
      expect(c.acknowledged).toBe(false);
    } finally {
      identify.mockRestore();
    }
  });

  it('takes the key as an HTTP header name: GraphiQL sends its headers editor, {"Authorization": "Bearer …"}', async () => {
    const c = connect(undefined, { Authorization: `Bearer ${investorToken}` });
    await acknowledged(c);
    expect(c.closed).toBeUndefined();
  });

  it('answers another path or a missing subprotocol per the protocol, never with the HTTP app', async () => {
    const elsewhere = rawSocket(url.replace('/graphql', '/api/v1/units'));
    await expect(elsewhere.opened).rejects.toThrow('upgrade refused: 404');
    const { ws } = rawSocket(url);
    ws.close();
  });
});

describe('events', () => {
  it('an investor receives their own request changes and notifications, never another investor’s; staff receive every investor’s', async () => {
    const unit = await makeUnit();
    const mine = await pendingInvestment(investorId, unit.id);
    const theirs = await pendingInvestment(otherId, unit.id);
    const investor = connect(investorToken);
    const other = connect(otherToken);
    const analyst = connect(analystToken);
    const base = subscribers();
    const myRequests = investor.subscribe<{ investmentRequestUpdated: { id: number; status: string } }>(REQUEST_UPDATED);
    const myNotifications = investor.subscribe<{ notificationAdded: { type: string; data: Record<string, unknown> } }>(NOTIFICATION_ADDED);
    const theirRequests = other.subscribe<{ investmentRequestUpdated: { id: number } }>(REQUEST_UPDATED);
    const theirNotifications = other.subscribe<{ notificationAdded: { data: Record<string, unknown> } }>(NOTIFICATION_ADDED);
    const staff = analyst.subscribe<{ investmentRequestUpdated: { id: number; investorId: number; status: string } }>(REQUEST_UPDATED);
    await eventually(async () => subscribers() === base + 5);

    const approved = await t.gql('mutation($id: Int!) { approveInvestmentRequest(id: $id) { id } }', { id: mine.id }, adminToken);
    expect(approved.errors).toBeUndefined();
    await eventually(async () => myRequests.results.length === 1 && myNotifications.results.length === 1 && staff.results.length === 1);
    expect(myRequests.results[0]).toEqual({ data: { investmentRequestUpdated: { id: mine.id, investorId, status: 'APPROVED', unit: { id: unit.id } } } });
    expect(myNotifications.results[0].data?.notificationAdded).toMatchObject({ type: 'INVESTMENT_REQUEST_REVIEWED', data: { investmentRequestId: mine.id } });
    expect(staff.results[0].data?.investmentRequestUpdated).toEqual({ id: mine.id, investorId, status: 'APPROVED', unit: { id: unit.id } });

    // The other investor's first events are their own: the approval above never reached them.
    const rejected = await t.gql('mutation($id: Int!) { rejectInvestmentRequest(id: $id, reason: "Not now.") { id } }', { id: theirs.id }, adminToken);
    expect(rejected.errors).toBeUndefined();
    await eventually(async () => theirRequests.results.length === 1 && theirNotifications.results.length === 1 && staff.results.length === 2);
    expect(theirRequests.results[0].data?.investmentRequestUpdated).toMatchObject({ id: theirs.id, status: 'REJECTED' });
    expect(theirNotifications.results[0].data?.notificationAdded.data).toMatchObject({ investmentRequestId: theirs.id });
    expect(staff.results[1].data?.investmentRequestUpdated).toMatchObject({ id: theirs.id, investorId: otherId });
    expect(myRequests.results).toHaveLength(1);
    expect(myNotifications.results).toHaveLength(1);
  });

  it('one commit with two investors’ changes: each reaches its owner and both staff subscribers, loaded with one query for all of them', async () => {
    const unit = await makeUnit();
    const mine = await pendingInvestment(investorId, unit.id);
    const theirs = await pendingInvestment(otherId, unit.id);
    const base = subscribers();
    const [investor, other, analyst, admin] = [investorToken, otherToken, analystToken, adminToken].map((token) =>
      connect(token).subscribe<{ investmentRequestUpdated: { id: number; investorId: number } }>(REQUEST_UPDATED),
    );
    await eventually(async () => subscribers() === base + 4);
    const load = jest.spyOn(t.services.investmentRequests.live, 'load');
    try {
      const mineChange = { type: 'investment_request', id: mine.id, investorId } as const;
      const theirChange = { type: 'investment_request', id: theirs.id, investorId: otherId } as const;
      await t.db.prisma.$transaction((tx) => changes.publish(tx, mineChange, theirChange));
      // Then one commit for each owner: had the first reached the wrong investor, it would stand before these.
      await t.db.prisma.$transaction((tx) => changes.publish(tx, mineChange));
      await t.db.prisma.$transaction((tx) => changes.publish(tx, theirChange));
      await eventually(
        async () => [investor, other, analyst, admin].every((sub) => sub.results.length >= 2) && analyst.results.length >= 4 && admin.results.length >= 4,
      );
      const ids = (sub: typeof investor) => sub.results.map((r) => r.data?.investmentRequestUpdated.id);
      expect(ids(investor)).toEqual([mine.id, mine.id]);
      expect(ids(other)).toEqual([theirs.id, theirs.id]);
      expect(ids(analyst)).toEqual([mine.id, theirs.id, mine.id, theirs.id]);
      expect(ids(admin)).toEqual([mine.id, theirs.id, mine.id, theirs.id]);
      // One load per notification, by whichever subscriber reaches it first: across notifications
      // that is a race between subscribers (each waits on its own session check), so no order.
      expect(load.mock.calls).toHaveLength(3);
      expect(load.mock.calls).toEqual(expect.arrayContaining([[[mine.id, theirs.id]], [[mine.id]], [[theirs.id]]]));
    } finally {
      load.mockRestore();
    }
  });

  it('a refused or rolled-back money request sends nothing', async () => {
    const holding = await t.db.prisma.holding.findFirstOrThrow({ where: { investorId, ownershipPercentage: { gt: 0 } } });
    // More than is held: approving it changes the status, then finds the holding short and rolls back.
    const tooMuch = await t.db.prisma.withdrawalRequest.create({
      data: { investorId, unitId: holding.unitId, ownershipPercentage: holding.ownershipPercentage.plus(1), investedAmount: '1.00', reason: 'Test fixture.' },
    });
    const investor = connect(investorToken);
    const base = subscribers();
    const requests = investor.subscribe<{ withdrawalRequestUpdated: { id: number; status: string } }>(WITHDRAWAL_UPDATED);
    const notifications = investor.subscribe<{ notificationAdded: { data: Record<string, unknown> } }>(NOTIFICATION_ADDED);
    await eventually(async () => subscribers() === base + 2);

    const approve = await t.gql('mutation($id: Int!) { approveWithdrawalRequest(id: $id) { id } }', { id: tooMuch.id }, adminToken);
    expect(approve.errors?.[0].extensions?.code).toBe('CONFLICT');
    const refused = await t.http
      .post('/api/v1/withdrawals/requests')
      .set('authorization', `Bearer ${investorToken}`)
      .send({ unit_id: holding.unitId, ownership_percentage: 100, reason: 'All of it.' });
    expect(refused.status).toBe(409);
    // Then a change that commits: the first (and only) events are its own.
    const reject = await t.gql('mutation($id: Int!) { rejectWithdrawalRequest(id: $id, reason: "Too much.") { id } }', { id: tooMuch.id }, adminToken);
    expect(reject.errors).toBeUndefined();
    await eventually(async () => requests.results.length === 1 && notifications.results.length === 1);
    expect(requests.results[0].data?.withdrawalRequestUpdated).toEqual({ id: tooMuch.id, investorId, status: 'REJECTED' });
    expect(notifications.results[0].data?.notificationAdded.data).toMatchObject({ withdrawalRequestId: tooMuch.id, status: 'REJECTED' });
  });

  it('kycStatusChanged: the investor’s own state on each review; staff get an error message with FORBIDDEN', async () => {
    const doc = await t.db.prisma.kycDocument.create({
      data: { investorId, documentType: 'PASSPORT', storageKey: `kyc/live-test-${Date.now()}`, mimeType: 'application/pdf', sizeBytes: 10, checksum: 'x' },
    });
    const investor = connect(investorToken);
    const admin = connect(adminToken);
    const base = subscribers();
    const own = investor.subscribe<{ kycStatusChanged: { pendingCount: number; approvedCount: number } }>(
      'subscription { kycStatusChanged { status pendingCount approvedCount } }',
    );
    const refused = admin.subscribe('subscription { kycStatusChanged { status } }');
    await eventually(async () => subscribers() === base + 1 && refused.error !== undefined);
    expect(refused.error?.[0].extensions?.code).toBe('FORBIDDEN');
    expect(refused.results).toEqual([]);

    const before = await t.gql<{ kycStatus: { approvedCount: number } }>('{ kycStatus { approvedCount } }', {}, investorToken);
    expect((await t.gql('mutation($id: Int!) { approveKycDocument(id: $id) { id } }', { id: doc.id }, adminToken)).errors).toBeUndefined();
    await eventually(async () => own.results.length === 1);
    expect(own.results[0].data?.kycStatusChanged.approvedCount).toBe(before.data!.kycStatus.approvedCount + 1);
  });
});

describe('operations', () => {
  const metric = async (name: string) => {
    const text = (await t.http.get('/metrics')).text;
    return Number(new RegExp(`^${name.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  };

  it('/metrics counts open sockets and subscriptions, changes received, events delivered and the commit-to-delivery lag', async () => {
    const unit = await makeUnit();
    const request = await pendingInvestment(investorId, unit.id);
    const [received, delivered, lagged] = await Promise.all([
      metric('change_feed_events_received_total{type="investment_request"}'),
      metric('graphql_subscription_events_delivered_total{field="investmentRequestUpdated"}'),
      metric('graphql_subscription_delivery_lag_seconds_count'),
    ]);
    const c = connect(investorToken);
    const sub = c.subscribe(REQUEST_UPDATED);
    await eventually(async () => subscribers() === 1);
    expect(await metric('graphql_subscriptions_open')).toBe(1);
    expect(await metric('graphql_ws_sockets_open')).toBe(1);
    expect((await t.gql('mutation($id: Int!) { approveInvestmentRequest(id: $id) { id } }', { id: request.id }, adminToken)).errors).toBeUndefined();
    await eventually(async () => sub.results.length === 1);
    expect(await metric('change_feed_events_received_total{type="investment_request"}')).toBe(received + 1);
    expect(await metric('graphql_subscription_events_delivered_total{field="investmentRequestUpdated"}')).toBe(delivered + 1);
    expect(await metric('graphql_subscription_delivery_lag_seconds_count')).toBe(lagged + 1);
  });

  it('counts closes by code, a client’s own code as "other" (clients choose any code: one label each would be unbounded)', async () => {
    const other = await metric('graphql_ws_closes_total{code="other"}');
    const s = rawSocket(url);
    await s.opened;
    s.ws.close(3999, 'mine');
    await s.closed;
    await eventually(async () => (await metric('graphql_ws_closes_total{code="other"}')) === other + 1);
    expect((await t.http.get('/metrics')).text).not.toContain('code="3999"');
  });

  if (process.env.TEST_DATABASE_URL) {
    it('a lost listening connection is logged, counted and reopened: later changes are delivered again (PostgreSQL)', async () => {
      const listening = `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %' AND pid <> pg_backend_pid()`;
      const [{ pid }] = await t.db.prisma.$queryRawUnsafe<Array<{ pid: number }>>(listening);
      const lost = await metric('change_feed_listener_lost_total');
      const c = connect(investorToken);
      const sub = c.subscribe(REQUEST_UPDATED);
      await eventually(async () => subscribers() === 1);
      await t.db.prisma.$queryRawUnsafe('SELECT pg_terminate_backend($1)', pid);
      await eventually(async () => (await metric('change_feed_listener_lost_total')) === lost + 1);
      // Listening again on a new connection.
      await eventually(async () => (await t.db.prisma.$queryRawUnsafe<Array<{ pid: number }>>(listening)).some((r) => r.pid !== pid), budget(20_000));
      const unit = await makeUnit();
      const request = await pendingInvestment(investorId, unit.id);
      expect((await t.gql('mutation($id: Int!) { approveInvestmentRequest(id: $id) { id } }', { id: request.id }, adminToken)).errors).toBeUndefined();
      await eventually(async () => sub.results.length === 1);
      expect(sub.results[0].data?.investmentRequestUpdated).toMatchObject({ id: request.id, status: 'APPROVED' });
      expect(c.closed).toBeUndefined();
    });
  }
});

describe('the session, for the connection’s whole life', () => {
  it('logout closes the socket with 4401 within 5 s', async () => {
    const token = await t.token(DEMO_EMAILS.investor);
    const c = connect(token);
    const base = subscribers();
    c.subscribe(NOTIFICATION_ADDED);
    await eventually(async () => subscribers() === base + 1);
    const started = Date.now();
    expect((await t.http.post('/api/v1/auth/logout').set('authorization', `Bearer ${token}`)).status).toBe(200);
    expect(await closeCode(c, 5000)).toBe(4401);
    expect(Date.now() - started).toBeLessThan(5000);
    // Its subscriptions ended with it.
    await eventually(async () => subscribers() === base);
  });

  it('re-checks the session before each event: a revocation the feed never told of closes the socket at the next event, which is not sent', async () => {
    const token = await t.token(DEMO_EMAILS.investor);
    const user = (await t.services.auth.authenticate(token))!;
    const c = connect(token);
    const sub = c.subscribe(NOTIFICATION_ADDED);
    await eventually(async () => subscribers() === 1);
    // Straight to the table: no sessions_revoked notification (as if the listener had been down).
    await t.db.prisma.session.update({ where: { id: user.sessionId }, data: { revokedAt: new Date() } });
    await t.db.prisma.$transaction((tx) => notify(tx, { userId: user.id, type: 'SYSTEM', title: 'After the revocation', body: 'Not for a revoked session.' }));
    expect(await closeCode(c)).toBe(4401);
    expect(sub.results).toEqual([]);
  });

  it('a password change closes the other sessions’ sockets, not this one’s', async () => {
    const email = `live-${Date.now()}@example.test`;
    const registered = await t.http
      .post('/api/v1/auth/register')
      .send({ name: 'Live Tester', email, password: 'Password123!', password_confirmation: 'Password123!' });
    expect(registered.status).toBe(201);
    const first = registered.body.data.access_token as string;
    const second = await t.token(email, 'Password123!');
    const kept = connect(first);
    const ended = connect(second);
    await Promise.all([acknowledged(kept), acknowledged(ended)]);
    const changed = await t.http
      .put('/api/v1/auth/password')
      .set('authorization', `Bearer ${first}`)
      .send({ current_password: 'Password123!', password: 'Password456!', password_confirmation: 'Password456!' });
    expect(changed.status).toBe(200);
    expect(await closeCode(ended, 5000)).toBe(4401);
    expect(kept.closed).toBeUndefined();
  });
});

describe('limits, answered by the protocol', () => {
  it(`more than ${SUBSCRIPTION_LIMITS.subscriptionsPerConnection} subscriptions on one connection: an error message for the extra one`, async () => {
    const c = connect(analystToken);
    const subs = Array.from({ length: SUBSCRIPTION_LIMITS.subscriptionsPerConnection + 1 }, () => c.subscribe(REQUEST_UPDATED));
    await eventually(async () => subs.some((s) => s.error));
    const refused = subs.filter((s) => s.error);
    expect(refused).toHaveLength(1);
    expect(refused[0].error?.[0].extensions?.code).toBe('RATE_LIMITED');
    expect(c.closed).toBeUndefined();
  });

  it(`more than ${SUBSCRIPTION_LIMITS.connectionsPerUser} connections of one user: 4429 for the extra one`, async () => {
    const token = await t.token(DEMO_EMAILS.analyst);
    const allowed = Array.from({ length: SUBSCRIPTION_LIMITS.connectionsPerUser }, () => connect(token));
    await Promise.all(allowed.map(acknowledged));
    const extra = connect(token);
    expect(await closeCode(extra)).toBe(4429);
    expect(extra.acknowledged).toBe(false);
  });

  it(`a subscriber more than ${SUBSCRIPTION_LIMITS.maxPendingEvents} events behind is closed with 1013 (try again later), its backlog dropped`, async () => {
    const user = await t.db.prisma.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.investor } });
    const c = connect(investorToken);
    const sub = c.subscribe(NOTIFICATION_ADDED);
    await eventually(async () => subscribers() === 1);
    // One commit, one notification payload: the changes arrive together, faster than any subscriber takes them.
    const burst = Array.from({ length: SUBSCRIPTION_LIMITS.maxPendingEvents + 10 }, (_, i) => ({
      userId: user.id,
      type: 'SYSTEM' as const,
      title: `Burst ${i}`,
      body: 'x',
    }));
    await t.db.prisma.$transaction((tx) => notify(tx, ...burst));
    expect(await closeCode(c)).toBe(1013);
    expect(sub.results.length).toBeLessThan(burst.length);
    await eventually(async () => subscribers() === 0);
  });

  it('queries and mutations are refused over WebSocket (they belong to POST /graphql)', async () => {
    const c = connect(investorToken);
    const q = c.subscribe('{ me { id } }');
    await eventually(async () => q.error !== undefined);
    expect(q.error?.[0].extensions?.code).toBe('BAD_REQUEST');
  });

  it('a subscription POSTed to /graphql is a 400 pointing to WebSocket, not an internal error (GraphiQL sends one when run within 100 ms of an edit)', async () => {
    const res = await t.http.post('/graphql').set('authorization', `Bearer ${investorToken}`).send({ query: NOTIFICATION_ADDED });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/WebSocket/), extensions: expect.objectContaining({ code: 'BAD_REQUEST' }) }),
    ]);
  });

  it('a message over the size limit closes with 1009; a flood of messages with 4429; no connection_init in time with 4408', async () => {
    const big = rawSocket(url);
    await big.opened;
    big.ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${investorToken}` } }));
    big.ws.send(
      JSON.stringify({
        id: '1',
        type: 'subscribe',
        payload: { query: `subscription { notificationAdded { id } } #${'x'.repeat(SUBSCRIPTION_LIMITS.maxMessageBytes)}` },
      }),
    );
    expect((await big.closed).code).toBe(1009);

    const flood = rawSocket(url);
    await flood.opened;
    flood.ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${investorToken}` } }));
    for (let i = 0; i < SUBSCRIPTION_LIMITS.messageBurst + 10; i++) flood.ws.send(JSON.stringify({ type: 'ping' }));
    expect((await flood.closed).code).toBe(4429);

    const silent = rawSocket(url);
    await silent.opened;
    expect((await silent.closed).code).toBe(4408);

    // A message only servers send (found by the fuzz test below: it was 4500, an internal error).
    const confused = rawSocket(url);
    await confused.opened;
    confused.ws.send(JSON.stringify({ type: 'next', id: ' ', payload: {} }));
    expect((await confused.closed).code).toBe(4400);
  });

  it('malformed frames get a 44xx close or an error message, never a crash or an internal error; the gateway serves on (fast-check)', async () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    const message = fc.oneof(
      fc.string({ maxLength: 200 }),
      json.map((v) => JSON.stringify(v)),
      fc
        .record({
          type: fc.constantFrom('connection_init', 'subscribe', 'complete', 'ping', 'pong', 'next', 'error', 'bogus'),
          id: fc.option(fc.string({ maxLength: 8 })),
          payload: json,
        })
        .map((m) => JSON.stringify(m)),
      fc
        .record({
          id: fc.string({ maxLength: 8 }),
          query: fc.oneof(
            fc.string({ maxLength: 100 }),
            fc.constantFrom(
              REQUEST_UPDATED,
              '{ me { id } }',
              'subscription { a: notificationAdded { id } b: notificationAdded { id } }',
              'subscription($x: Int!) { notificationAdded { id } }',
            ),
          ),
          variables: json,
        })
        .map(({ id, query, variables }) => JSON.stringify({ id, type: 'subscribe', payload: { query, variables } })),
      fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)),
    );
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.array(message, { minLength: 1, maxLength: 8 }), async (init, frames) => {
        const s = rawSocket(url);
        await s.opened;
        if (init) s.ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${analystToken}` } }));
        for (const f of frames) s.ws.send(f);
        // A ping of our own last: answered (pong) if the connection survived, else the close tells why.
        s.ws.send(JSON.stringify({ type: 'ping' }));
        const outcome = await Promise.race([
          s.closed,
          eventually(async () => s.messages.some((m) => (m as { type?: string }).type === 'pong')).then(() => 'open' as const),
        ]);
        if (outcome !== 'open') expect([4400, 4401, 4403, 4408, 4409, 4429, 4499]).toContain(outcome.code);
        for (const m of s.messages) {
          const errors =
            (m as { type?: string; payload?: Array<{ extensions?: { code?: string } }> }).type === 'error'
              ? (m as { payload: Array<{ extensions?: { code?: string } }> }).payload
              : [];
          for (const e of errors) expect(e.extensions?.code).not.toBe('INTERNAL_SERVER_ERROR');
        }
        s.ws.terminate();
      }),
      { numRuns: 60 },
    );
    const after = connect(investorToken);
    await acknowledged(after);
  });
});

describe('token expiry', () => {
  let short: TestGateway;
  beforeAll(async () => {
    short = await startTestGateway({ ACCESS_TOKEN_TTL: '2' });
    await new Promise<void>((resolve) => short.gateway.server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => short.close());

  it('closes the socket with 4401 when the access token expires (the client reconnects with a fresh one)', async () => {
    const token = await short.token(DEMO_EMAILS.investor);
    const expiresAt = short.services.auth.accessTokenExpiry(token)!;
    const c = liveClient(`ws://127.0.0.1:${(short.gateway.server.address() as AddressInfo).port}/graphql`, token);
    clients.push(c);
    await acknowledged(c);
    expect(await closeCode(c, budget(10_000))).toBe(4401);
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt);
    expect(Date.now() - expiresAt).toBeLessThan(5000);
  });
});
