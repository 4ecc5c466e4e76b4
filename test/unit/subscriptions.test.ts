import type http from 'node:http';
import { GraphQLError, buildSchema, getOperationAST, parse, specifiedRules, type ExecutionArgs } from 'graphql';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import type { AuthUser } from '../../src/domain/auth-user';
import { ServiceUnavailableError } from '../../src/domain/errors';
import type { Metrics } from '../../src/http/metrics';
import { present } from '../../src/platform/invariant';
import type { Services } from '../../src/services';
import type { Delivery } from '../../src/services/change-feed';
import {
  SUBSCRIPTION_LIMITS,
  UserConnections,
  admitConnection,
  armExpiry,
  batchedSessionCheck,
  closeCodeLabel,
  connectionAuthorization,
  deliveries,
  drain,
  forget,
  liveWatch,
  messageFailed,
  pingOrCut,
  receive,
  recheck,
  takeToken,
  upgradeRefusal,
  vetSubscription,
  type Connection,
  type Hub,
  type SubscriptionServerOptions,
} from '../../src/graphql/subscriptions';

/** The part of a `ws` socket the connection code uses; close() moves it to CLOSING as ws does. */
class FakeSocket {
  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readonly CLOSING = 2;
  readyState = 1;
  bufferedAmount = 0;
  closes: [number, string][] = [];
  terminated = false;
  pings = 0;
  onClose?: () => void;

  close(code: number, reason: string): void {
    this.closes.push([code, reason]);
    this.readyState = this.CLOSING;
    this.onClose?.();
  }

  terminate(): void {
    this.terminated = true;
  }

  ping(): void {
    this.pings += 1;
  }
}

const request = { socket: { remoteAddress: '127.0.0.1' }, headers: {} } as unknown as http.IncomingMessage;

function connection(user?: AuthUser): { conn: Connection; socket: FakeSocket } {
  const socket = new FakeSocket();
  const conn: Connection = {
    socket: socket as unknown as WebSocket,
    request,
    user,
    tokens: SUBSCRIPTION_LIMITS.messageBurst,
    refilledAt: Date.now(),
    alive: true,
  };
  return { conn, socket };
}

const alice: AuthUser = { id: 1, role: 'INVESTOR', investorId: 1, sessionId: 'session-alice' };

function fakeMetrics() {
  const live = {
    sockets: { inc: jest.fn(), dec: jest.fn() },
    delivered: { inc: jest.fn() },
    dropped: { inc: jest.fn() },
    lag: { observe: jest.fn() },
    closes: { inc: jest.fn() },
  };
  return { live, metrics: { live } as unknown as Metrics };
}

const schema = buildSchema('type Query { ping: Int } type Subscription { tick: Int }');

/** A hub of fakes: no database, no server; `liveIds` are the sessions still live. */
function fakeHub(overrides: Partial<SubscriptionServerOptions> = {}, liveIds = new Set<string>()) {
  const { live, metrics } = fakeMetrics();
  const auth = {
    identify: jest.fn(async (token: string) => (token === 'good' ? { user: alice } : { user: null, failure: 'TOKEN_INVALID' })),
    accessTokenExpiry: jest.fn((): number | null => null),
    liveSessions: jest.fn(async (ids: string[]) => new Set(ids.filter((id) => liveIds.has(id)))),
  };
  const logger = { warn: jest.fn(), error: jest.fn(), debug: jest.fn() };
  const options: SubscriptionServerOptions = {
    schema,
    services: { auth } as unknown as Services,
    logger: logger as unknown as Logger,
    metrics,
    documents: async (payload) => payload.query ?? '',
    fixed: () => undefined,
    formatError: (formatted) => formatted,
    ...overrides,
  };
  const hub: Hub = {
    options,
    connections: new Map(),
    users: new UserConnections(),
    sources: new WeakMap(),
    rules: specifiedRules,
    sessionLive: async (sessionId) => liveIds.has(sessionId),
    closing: false,
  };
  return { hub, auth, live, logger };
}

afterEach(() => jest.useRealTimers());

describe('connection_init: the Authorization entry of its payload', () => {
  it('is found whatever the case of its key, as an HTTP header name', () => {
    expect(connectionAuthorization({ Authorization: 'Bearer a' })).toBe('Bearer a');
    expect(connectionAuthorization({ authorization: 'Bearer b' })).toBe('Bearer b');
    expect(connectionAuthorization({ other: 1, AUTHORIZATION: 'Bearer c' })).toBe('Bearer c');
  });

  it('is undefined without a payload or without the key, and any other value is handed on as it is', () => {
    expect(connectionAuthorization(undefined)).toBeUndefined();
    expect(connectionAuthorization({ token: 'Bearer a' })).toBeUndefined();
    expect(connectionAuthorization({ Authorization: 42 })).toBe(42);
  });
});

describe('admitConnection (connection_init)', () => {
  it.each([
    ['no payload', undefined],
    ['no Authorization', { token: 'good' }],
    ['another scheme', { Authorization: 'Basic good' }],
    ['a value that is not a string', { Authorization: ['Bearer good'] }],
  ])('%s: closed with 4401 without a look-up', async (_, params) => {
    const { hub, auth } = fakeHub();
    const { conn, socket } = connection();
    expect(await admitConnection(hub, conn, params)).toBe(false);
    expect(socket.closes).toEqual([[4401, 'Unauthorized']]);
    expect(auth.identify).not.toHaveBeenCalled();
  });

  it('a refused token: closed with 4401', async () => {
    const { hub } = fakeHub();
    const { conn, socket } = connection();
    expect(await admitConnection(hub, conn, { Authorization: 'Bearer bad' })).toBe(false);
    expect(socket.closes).toEqual([[4401, 'Unauthorized']]);
  });

  it('a good token in any case and spacing: acknowledged, the user set and counted', async () => {
    const { hub, auth } = fakeHub();
    const { conn, socket } = connection();
    expect(await admitConnection(hub, conn, { authorization: 'bearer   good' })).toBe(true);
    expect(auth.identify).toHaveBeenCalledWith('good');
    expect(conn.user).toBe(alice);
    expect(hub.users.of(alice.id)).toEqual([conn]);
    expect(socket.closes).toEqual([]);
  });

  it(`one connection more than connectionsPerUser (${SUBSCRIPTION_LIMITS.connectionsPerUser}): closed with 4429`, async () => {
    const { hub } = fakeHub();
    for (let i = 0; i < SUBSCRIPTION_LIMITS.connectionsPerUser; i++) hub.users.add(alice.id, connection(alice).conn);
    const { conn, socket } = connection();
    expect(await admitConnection(hub, conn, { Authorization: 'Bearer good' })).toBe(false);
    expect(socket.closes).toEqual([[4429, `At most ${SUBSCRIPTION_LIMITS.connectionsPerUser} connections per user`]]);
    expect(conn.user).toBeUndefined();
  });

  it('a socket that went while the session was read: not acknowledged, not counted', async () => {
    const { hub, auth } = fakeHub();
    const { conn, socket } = connection();
    auth.identify.mockImplementationOnce(async () => {
      socket.readyState = 3;
      return { user: alice };
    });
    expect(await admitConnection(hub, conn, { Authorization: 'Bearer good' })).toBe(false);
    expect(hub.users.count(alice.id)).toBe(0);
    expect(socket.closes).toEqual([]);
  });

  it("the token's expiry closes the connection with 4401", async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const { hub, auth } = fakeHub();
    auth.accessTokenExpiry.mockReturnValue(1_000_000 + 60_000);
    const { conn, socket } = connection();
    expect(await admitConnection(hub, conn, { Authorization: 'Bearer good' })).toBe(true);
    jest.advanceTimersByTime(59_999);
    expect(socket.closes).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(socket.closes).toEqual([[4401, 'Unauthorized']]);
  });
});

describe('armExpiry', () => {
  it('an expiry already passed calls back at once, with no timer', () => {
    const conn: Pick<Connection, 'expiry'> = {};
    const onExpired = jest.fn();
    armExpiry(conn, Date.now() - 1, onExpired);
    expect(onExpired).toHaveBeenCalledTimes(1);
    expect(conn.expiry).toBeUndefined();
  });

  it("an expiry beyond setTimeout's longest delay is re-armed, and called back at its time only", () => {
    jest.useFakeTimers({ now: 0 });
    const longest = 2 ** 31 - 1;
    const conn: Pick<Connection, 'expiry'> = {};
    const onExpired = jest.fn();
    armExpiry(conn, longest + 5_000, onExpired);
    jest.advanceTimersByTime(longest);
    expect(onExpired).not.toHaveBeenCalled();
    jest.advanceTimersByTime(4_999);
    expect(onExpired).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(onExpired).toHaveBeenCalledTimes(1);
  });
});

describe('vetSubscription (a subscribe message)', () => {
  const payload = (query: string, operationName?: string) => ({ query, operationName });
  const codes = (result: Awaited<ReturnType<typeof vetSubscription>>) => ('document' in result ? 'accepted' : result.map((e) => e.extensions.code));

  it('a subscription is accepted with its parsed document', async () => {
    const { hub } = fakeHub();
    const result = await vetSubscription(hub, connection(alice).conn, 1, payload('subscription { tick }'));
    expect('document' in result && result.document.definitions).toHaveLength(1);
  });

  it(`one more than subscriptionsPerConnection (${SUBSCRIPTION_LIMITS.subscriptionsPerConnection}): RATE_LIMITED`, async () => {
    const { hub } = fakeHub();
    const conn = connection(alice).conn;
    expect(codes(await vetSubscription(hub, conn, SUBSCRIPTION_LIMITS.subscriptionsPerConnection, payload('subscription { tick }')))).toBe('accepted');
    expect(codes(await vetSubscription(hub, conn, SUBSCRIPTION_LIMITS.subscriptionsPerConnection + 1, payload('subscription { tick }')))).toEqual([
      'RATE_LIMITED',
    ]);
  });

  it('parse, validation and operation-type failures each have their code', async () => {
    const { hub } = fakeHub();
    const conn = connection(alice).conn;
    expect(codes(await vetSubscription(hub, conn, 1, payload('subscription {')))).toEqual(['GRAPHQL_PARSE_FAILED']);
    expect(codes(await vetSubscription(hub, conn, 1, payload('subscription { nope }')))).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(codes(await vetSubscription(hub, conn, 1, payload('query { ping }')))).toEqual(['BAD_REQUEST']);
    expect(codes(await vetSubscription(hub, conn, 1, payload('query Q { ping } subscription S { tick }', 'Q')))).toEqual(['BAD_REQUEST']);
    expect(codes(await vetSubscription(hub, conn, 1, payload('query Q { ping } subscription S { tick }', 'S')))).toBe('accepted');
  });

  it("the trusted-documents policy's refusal is the error message; anything else it throws is not", async () => {
    const refusal = new GraphQLError('Not a trusted document.', { extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } });
    const conn = connection(alice).conn;
    expect(await vetSubscription(fakeHub({ documents: () => Promise.reject(refusal) }).hub, conn, 1, payload(''))).toEqual([refusal]);
    const unavailable = fakeHub({ documents: () => Promise.reject(new ServiceUnavailableError()) }).hub;
    expect(codes(await vetSubscription(unavailable, conn, 1, payload('')))).toEqual(['SERVICE_UNAVAILABLE']);
    const bug = new TypeError('bug');
    await expect(vetSubscription(fakeHub({ documents: () => Promise.reject(bug) }).hub, conn, 1, payload(''))).rejects.toBe(bug);
  });

  it("a fixed document is used as it is parsed, with its compiled execution; the policy's user is the connection's", async () => {
    const document = parse('subscription Fixed { tick }');
    const operation = present(getOperationAST(document), 'the fixed operation');
    const run = jest.fn();
    const documents = jest.fn(async () => 'the fixed text');
    const { hub } = fakeHub({ documents, fixed: (source) => (source === 'the fixed text' ? { document, operation, run } : undefined) });
    expect(await vetSubscription(hub, connection(alice).conn, 1, payload('ignored'))).toEqual({ document, run });
    expect(documents).toHaveBeenCalledWith(payload('ignored'), alice);
  });
});

describe("liveWatch: the change feed's per-subscriber checks", () => {
  it('authorizes each event while the session is live; an ended one drops it (revoked) and closes with 4401', async () => {
    const liveIds = new Set([alice.sessionId]);
    const { hub, live } = fakeHub({}, liveIds);
    const { conn, socket } = connection(alice);
    const watch = liveWatch(hub, conn);
    expect(await watch.authorize()).toBe(true);
    liveIds.clear();
    expect(await watch.authorize()).toBe(false);
    expect(live.dropped.inc).toHaveBeenCalledWith({ reason: 'revoked' });
    expect(socket.closes).toEqual([[4401, 'Unauthorized']]);
  });

  it('an overflowing backlog drops (slow_consumer) and closes with 1013', () => {
    const { hub, live } = fakeHub();
    const { conn, socket } = connection(alice);
    const watch = liveWatch(hub, conn);
    expect(watch.maxPending).toBe(SUBSCRIPTION_LIMITS.maxPendingEvents);
    watch.onOverflow();
    expect(live.dropped.inc).toHaveBeenCalledWith({ reason: 'slow_consumer' });
    expect(socket.closes).toEqual([[1013, 'Slow consumer']]);
  });
});

describe('deliveries: a source stream to responses', () => {
  function source(events: Delivery<number>[]) {
    const it = events[Symbol.iterator]();
    const stream = {
      next: jest.fn(async () => it.next()),
      return: jest.fn(async () => ({ value: undefined, done: true as const })),
      [Symbol.asyncIterator]: () => stream,
    };
    return stream;
  }
  const args: ExecutionArgs = { schema, document: parse('subscription { tick }'), variableValues: { v: 1 }, contextValue: { ctx: true } };

  it("each event runs the fixed document's compiled execution and is counted with its lag", async () => {
    jest.useFakeTimers({ now: 10_000 });
    const { live } = fakeMetrics();
    const run = jest.fn(async (root: unknown) => ({ data: { tick: (root as Delivery<number>).value } }));
    const responses = deliveries({ source: source([{ at: 9_500, value: 1 }]), conn: connection(alice).conn, run }, args, live as unknown as Metrics['live']);
    expect(await responses.next()).toEqual({ value: { data: { tick: 1 } }, done: false });
    expect(run).toHaveBeenCalledWith({ at: 9_500, value: 1 }, { ctx: true }, { v: 1 });
    expect(live.delivered.inc).toHaveBeenCalledWith({ field: 'tick' });
    expect(live.lag.observe).toHaveBeenCalledWith(0.5);
    expect(await responses.next()).toEqual({ value: undefined, done: true });
  });

  it('events for a closed socket are dropped (closed); a full send buffer drops (slow_consumer) and closes with 1013', async () => {
    const { live } = fakeMetrics();
    const run = jest.fn(async () => ({ data: {} }));
    const { conn, socket } = connection(alice);
    socket.bufferedAmount = SUBSCRIPTION_LIMITS.maxBufferedBytes + 1;
    const events = [
      { at: 0, value: 1 },
      { at: 0, value: 2 },
    ];
    expect(await deliveries({ source: source(events), conn, run }, args, live as unknown as Metrics['live']).next()).toEqual({ value: undefined, done: true });
    expect(live.dropped.inc.mock.calls).toEqual([[{ reason: 'slow_consumer' }], [{ reason: 'closed' }]]);
    expect(socket.closes).toEqual([[1013, 'Slow consumer']]);
    expect(run).not.toHaveBeenCalled();
  });

  it('return() ends the source', async () => {
    const { live } = fakeMetrics();
    const stream = source([]);
    expect(await deliveries({ source: stream, conn: connection(alice).conn }, args, live as unknown as Metrics['live']).return?.()).toEqual({
      value: undefined,
      done: true,
    });
    expect(stream.return).toHaveBeenCalledTimes(1);
  });
});

describe('client messages', () => {
  it(`a burst of ${SUBSCRIPTION_LIMITS.messageBurst} messages passes, one more closes with 4429; the bucket refills at ${SUBSCRIPTION_LIMITS.messagesPerSecond}/s`, () => {
    jest.useFakeTimers({ now: 0 });
    const { hub } = fakeHub();
    const { conn, socket } = connection();
    const handle = jest.fn(async () => undefined);
    for (let i = 0; i < SUBSCRIPTION_LIMITS.messageBurst; i++) receive(hub, conn, '{}', handle);
    expect(handle).toHaveBeenCalledTimes(SUBSCRIPTION_LIMITS.messageBurst);
    expect(socket.closes).toEqual([]);
    receive(hub, conn, '{}', handle);
    expect(handle).toHaveBeenCalledTimes(SUBSCRIPTION_LIMITS.messageBurst);
    expect(socket.closes).toEqual([[4429, 'Too many messages']]);
    receive(hub, conn, '{}', handle);
    expect(handle).toHaveBeenCalledTimes(SUBSCRIPTION_LIMITS.messageBurst);
  });

  it('takeToken refills for the time since the last message, up to the burst', () => {
    jest.useFakeTimers({ now: 0 });
    const bucket = { tokens: 0, refilledAt: 0 };
    expect(takeToken(bucket)).toBe(false);
    jest.advanceTimersByTime(1000 / SUBSCRIPTION_LIMITS.messagesPerSecond);
    expect(takeToken(bucket)).toBe(true);
    expect(takeToken(bucket)).toBe(false);
    jest.advanceTimersByTime(3_600_000);
    expect(takeToken(bucket)).toBe(true);
    expect(bucket.tokens).toBe(SUBSCRIPTION_LIMITS.messageBurst - 1);
  });

  it('a failing message closes the connection: the client sending a server message 4400, the database 1013, anything else 4500', () => {
    const { hub, logger } = fakeHub();
    const log = hub.options.logger;
    const cases: [string, unknown][] = [
      ['{"type":"connection_ack"}', new Error('server message')],
      ['{"type":"subscribe"}', new ServiceUnavailableError()],
      ['{"type":"subscribe"}', new Error('bug')],
    ];
    const closes = cases.map(([text, err]) => {
      const { conn, socket } = connection();
      messageFailed(log, conn, text, err);
      return socket.closes;
    });
    expect(closes).toEqual([[[4400, 'Unexpected message type']], [[1013, 'Service unavailable']], [[4500, 'Internal server error']]]);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.error).toHaveBeenCalledTimes(1);
  });
});

describe('connection bookkeeping', () => {
  it('UserConnections counts per user and forgets a user with none left', () => {
    const users = new UserConnections();
    const a = connection(alice).conn;
    const b = connection(alice).conn;
    users.add(1, a);
    users.add(1, b);
    users.add(2, a);
    expect([users.count(1), users.count(2), users.count(3)]).toEqual([2, 1, 0]);
    users.delete(1, a);
    expect(users.of(1)).toEqual([b]);
    users.delete(1, b);
    expect(users.of(1)).toEqual([]);
    expect(users.count(1)).toBe(0);
  });

  it('forget: out of the registries, its expiry timer cleared, its close code counted', () => {
    jest.useFakeTimers();
    const { hub, live } = fakeHub();
    const { conn } = connection(alice);
    hub.connections.set(conn.socket, conn);
    hub.users.add(alice.id, conn);
    const onExpired = jest.fn();
    armExpiry(conn, Date.now() + 1000, onExpired);
    forget(hub, conn, 4401);
    expect(hub.connections.size).toBe(0);
    expect(hub.users.count(alice.id)).toBe(0);
    expect(live.sockets.dec).toHaveBeenCalledTimes(1);
    expect(live.closes.inc).toHaveBeenCalledWith({ code: '4401' });
    jest.advanceTimersByTime(1000);
    expect(onExpired).not.toHaveBeenCalled();
  });

  it('close codes other than the known ones share one label', () => {
    expect([1000, 1009, 4401, 4429, 4500].map(closeCodeLabel)).toEqual(['1000', '1009', '4401', '4429', '4500']);
    expect([1002, 3000, 4000, 4999].map(closeCodeLabel)).toEqual(['other', 'other', 'other', 'other']);
  });

  it('keep-alive: a connection that answered the last ping is pinged again, one that did not is cut', () => {
    const answered = connection();
    const silent = connection();
    silent.conn.alive = false;
    pingOrCut([answered.conn, silent.conn]);
    expect([answered.socket.pings, answered.socket.terminated, answered.conn.alive]).toEqual([1, false, false]);
    expect([silent.socket.pings, silent.socket.terminated]).toEqual([0, true]);
  });

  it('recheck closes (4401) the connections whose sessions ended, in one query, and asks nothing for guests only', async () => {
    const { hub, auth } = fakeHub({}, new Set(['session-bob']));
    const ended = connection(alice);
    const bob = connection({ ...alice, id: 2, sessionId: 'session-bob' });
    const guest = connection();
    await recheck(hub, [ended.conn, bob.conn, guest.conn]);
    expect(auth.liveSessions).toHaveBeenCalledWith(['session-alice', 'session-bob']);
    expect([ended.socket.closes, bob.socket.closes, guest.socket.closes]).toEqual([[[4401, 'Unauthorized']], [], []]);
    await recheck(hub, [guest.conn]);
    expect(auth.liveSessions).toHaveBeenCalledTimes(1);
  });
});

describe('batchedSessionCheck', () => {
  it('checks asked for in one turn share one query; a later turn makes another', async () => {
    const liveSessions = jest.fn(async (ids: string[]) => new Set(ids.filter((id) => id !== 'ended')));
    const live = batchedSessionCheck(liveSessions);
    expect(await Promise.all([live('a'), live('ended'), live('a')])).toEqual([true, false, true]);
    expect(liveSessions.mock.calls).toEqual([[['a', 'ended']]]);
    expect(await live('b')).toBe(true);
    expect(liveSessions).toHaveBeenCalledTimes(2);
  });

  it('splits more than a thousand sessions into queries of a thousand', async () => {
    const liveSessions = jest.fn(async (ids: string[]) => new Set(ids));
    const live = batchedSessionCheck(liveSessions);
    const ids = Array.from({ length: 2001 }, (_, i) => `s${i}`);
    expect((await Promise.all(ids.map(live))).every(Boolean)).toBe(true);
    expect(liveSessions.mock.calls.map(([part]) => part.length)).toEqual([1000, 1000, 1]);
  });
});

describe('upgrades and shutdown', () => {
  it('an upgrade is accepted on /graphql only, and refused with 503 while shutting down', () => {
    expect(upgradeRefusal('/graphql', false)).toBeUndefined();
    expect(upgradeRefusal('/graphql?token=x', false)).toBeUndefined();
    expect(upgradeRefusal('/graphql/', false)).toBe(404);
    expect(upgradeRefusal('/other', false)).toBe(404);
    expect(upgradeRefusal(undefined, false)).toBe(404);
    expect(upgradeRefusal('/graphql', true)).toBe(503);
    expect(upgradeRefusal('/other', true)).toBe(503);
  });

  it('drain closes every connection with 1001 and returns once their close handlers removed them', async () => {
    const connections = new Map<WebSocket, Connection>();
    const sockets = [connection(), connection()].map(({ conn, socket }) => {
      connections.set(conn.socket, conn);
      socket.onClose = () => connections.delete(conn.socket);
      return socket;
    });
    await drain(connections, 60_000);
    expect(sockets.map((s) => [s.closes, s.terminated])).toEqual([
      [[[1001, 'Going away']], false],
      [[[1001, 'Going away']], false],
    ]);
  });

  it('drain cuts the connections still open at its deadline', async () => {
    const { conn, socket } = connection();
    const connections = new Map([[conn.socket, conn]]);
    await drain(connections, 0);
    expect(socket.closes).toEqual([[1001, 'Going away']]);
    expect(socket.terminated).toBe(true);
  });
});
