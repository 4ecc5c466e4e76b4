import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { ApolloServerPlugin } from '@apollo/server';
import {
  GraphQLError,
  createSourceEventStream,
  execute,
  getOperationAST,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import { CloseCode, MessageType, handleProtocols, makeServer, parseMessage, type Server, type SubscribePayload } from 'graphql-ws';
import type { Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import { bearerToken, tokenContext, type Context, type RequestMeta } from '../http/context';
import { CodedError, ServiceUnavailableError } from '../domain/errors';
import { HttpError, normalizeError, toGraphQLError } from '../http/errors';
import type { AuthUser } from '../domain/auth-user';
import { GRAPHQL_LIMITS, limitValidationRules } from './limits';
import { present } from '../platform/invariant';
import type { Metrics } from '../http/metrics';
import { requestIdOf } from '../http/request-id';
import type { Services } from '../services';
import type { Delivery, LiveStream, WatchOptions } from '../services/change-feed';
import type { SocketDocuments } from './trusted-documents';
import type { CompiledExecution, FixedDocuments } from './compiled-execution';

/**
 * What one WebSocket connection may do (docs/api.md, "Limits"; contract §3). Each is answered by
 * the protocol: an `error` message for the subscription, or a close code.
 */
export const SUBSCRIPTION_LIMITS = {
  /** A frame larger than this closes the connection with 1009 (ws's maxPayload); a subscribe message is a document and its variables. */
  maxMessageBytes: 64 * 1024,
  /** connection_init must come this soon after the upgrade, else 4408 (graphql-ws). */
  connectionInitTimeoutMs: 3000,
  /** Open subscriptions per connection; one more gets an `error` message (RATE_LIMITED). */
  subscriptionsPerConnection: 20,
  /** Acknowledged connections per user on one instance; one more is closed with 4429 at connection_init. */
  connectionsPerUser: 10,
  /** Messages a client may send per second (after a burst of `messageBurst`); beyond, close 4429. */
  messagesPerSecond: 10,
  messageBurst: 30,
  /** Changes waiting for one subscription, and bytes waiting in one socket's send buffer; beyond either, close 1013 (try again later). */
  maxPendingEvents: 100,
  maxBufferedBytes: 1024 * 1024,
  /** A WebSocket ping this often; a connection that has not answered the previous one is cut. */
  keepAliveMs: 12_000,
} as const;

/** Close codes of our own (graphql-ws's are in its CloseCode). */
const TOO_MANY = 4429;
const TRY_AGAIN_LATER = 1013;
/** Close codes counted by their own label (closeCodeLabel). */
const KNOWN_CLOSE_CODES = new Set([1000, 1001, 1005, 1006, 1009, 1011, 1013, 4400, 4401, 4403, 4406, 4408, 4409, 4429, 4499, 4500]);
/** setTimeout's longest delay; a token living longer is re-armed. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface Connection {
  socket: WebSocket;
  request: http.IncomingMessage;
  /** Set once connection_init was accepted. */
  user?: AuthUser;
  expiry?: NodeJS.Timeout;
  /** Token bucket of messagesPerSecond. */
  tokens: number;
  refilledAt: number;
  alive: boolean;
}

type Extra = { connection: Connection };
type Protocol = Server<Extra>;

export interface SubscriptionServerOptions {
  schema: GraphQLSchema;
  services: Services;
  logger: Logger;
  metrics: Metrics;
  /** TRUSTED_DOCUMENTS for `subscribe` messages (src/graphql/trusted-documents.ts): the same policy as POST /graphql. */
  documents: SocketDocuments;
  /** The gateway's fixed documents (the SDK's subscriptions among them): their events run compiled, as on POST /graphql. */
  fixed: FixedDocuments;
  /** The /graphql error boundary (the one Apollo's formatError uses). */
  formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError;
}

export interface SubscriptionServer {
  /** Re-checks every connection's session (closing with 4401 those that ended): after the change feed missed notifications. */
  recheckSessions(): Promise<void>;
  /** Refuses new connections and closes open ones with 1001 (going away); resolves once they are closed or cut at `timeoutMs`. */
  close(timeoutMs: number): Promise<void>;
}

/**
 * POST /graphql refuses a subscription operation (400 BAD_REQUEST) before it runs: graphql-js would
 * execute its root field once without an event, an internal error. GraphiQL sends one over HTTP when
 * run within 100 ms of the last edit (its fetcher picks WebSocket by the editor's parsed document).
 */
export const subscriptionsOverWebSocketOnly: ApolloServerPlugin<Context> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ operation }) {
        if (operation?.operation === 'subscription') throw HttpError.subscriptionOverHttp();
      },
    };
  },
};

const clientError = (message: string, code: string) => new GraphQLError(message, { extensions: { code } });

/** A source stream made in onSubscribe (where a refusal can still be an `error` message), taken by `subscribe`. */
export interface Subscribed {
  source: LiveStream<unknown>;
  conn: Connection;
  /** The fixed document's compiled execution, when the subscription is one (src/graphql/compiled-execution.ts). */
  run?: CompiledExecution;
}

/** What the parts of one subscription server share (attachSubscriptions makes it). */
export interface Hub {
  options: SubscriptionServerOptions;
  connections: Map<WebSocket, Connection>;
  users: UserConnections;
  sources: WeakMap<ExecutionArgs, Subscribed>;
  rules: readonly ValidationRule[];
  /** Whether a session is live, batched per turn of the event loop (batchedSessionCheck). */
  sessionLive(sessionId: string): Promise<boolean>;
  /** Set by close(): upgrades are refused with 503. */
  closing: boolean;
}

/**
 * GraphQL subscriptions over WebSocket (`graphql-transport-ws`, contract §3) at /graphql on the
 * gateway's HTTP server: the same schema, the same context builder (src/http/context.ts) and the same
 * error boundary (formatError) as POST /graphql. graphql-ws speaks the protocol (makeServer); the
 * glue to `ws` is ours rather than graphql-ws's `useServer`, because every limit must act before
 * the protocol sees a message (rate, size, slow consumer) and every socket needs an 'error' listener
 * for its whole life and logs through pino, not the console.
 *
 * Authentication is for the connection's whole life: the token at connection_init, the session
 * again before each event, a timer at the token's expiry, and the change feed's `sessions_revoked`
 * (logout, password change or reset, deletion: published in the revoking transaction, so every
 * instance hears it at commit). Each closes with 4401.
 */
export function attachSubscriptions(server: http.Server, options: SubscriptionServerOptions): SubscriptionServer {
  const { services, logger } = options;
  const hub: Hub = {
    options,
    connections: new Map(),
    users: new UserConnections(),
    sources: new WeakMap(),
    rules: [...specifiedRules, ...limitValidationRules()],
    sessionLive: batchedSessionCheck((ids) => services.auth.liveSessions(ids)),
    closing: false,
  };

  const wss = new WebSocketServer({ noServer: true, maxPayload: SUBSCRIPTION_LIMITS.maxMessageBytes, handleProtocols, perMessageDeflate: false });
  wss.on('error', (err) => logger.error({ err }, 'WebSocket server failed'));
  const stopRevocations = services.changes.onSessionsRevoked((userId) => {
    recheck(hub, hub.users.of(userId)).catch((err: unknown) => logger.warn({ err, userId }, 'live connections: session re-check failed'));
  });
  const protocol = createProtocol(hub);
  wss.on('connection', (socket: WebSocket, request: http.IncomingMessage) => openConnection(hub, protocol, socket, request));

  // One timer for every connection: cheaper than one per socket with thousands of idle ones.
  const keepAlive = setInterval(() => pingOrCut(hub.connections.values()), SUBSCRIPTION_LIMITS.keepAliveMs);
  keepAlive.unref();

  server.on('upgrade', (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', (err) => logger.debug({ err }, 'WebSocket upgrade socket error'));
    const refusal = upgradeRefusal(request.url, hub.closing);
    if (refusal) return refuseUpgrade(socket, refusal);
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  });

  return {
    recheckSessions: () => recheck(hub, [...hub.connections.values()]),
    async close(timeoutMs) {
      hub.closing = true;
      stopRevocations();
      clearInterval(keepAlive);
      await drain(hub.connections, timeoutMs);
      // The upgrade listener stays: until the HTTP server closes, an upgrade is refused with 503 (`closing`)
      // rather than left without an answer, which a load balancer would wait out before trying another instance.
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** Acknowledged connections by user: for connectionsPerUser, and the connections a user's revoked sessions re-check. */
export class UserConnections {
  private readonly byUser = new Map<number, Set<Connection>>();

  of(userId: number): Connection[] {
    return [...(this.byUser.get(userId) ?? [])];
  }

  count(userId: number): number {
    return this.byUser.get(userId)?.size ?? 0;
  }

  add(userId: number, conn: Connection): void {
    const mine = this.byUser.get(userId) ?? new Set();
    this.byUser.set(userId, mine.add(conn));
  }

  delete(userId: number, conn: Connection): void {
    const mine = this.byUser.get(userId);
    mine?.delete(conn);
    if (mine?.size === 0) this.byUser.delete(userId);
  }
}

/** Closes the socket unless it is already closing or closed. */
export function closeConnection(conn: Connection, code: number, reason: string): void {
  if (conn.socket.readyState === conn.socket.OPEN || conn.socket.readyState === conn.socket.CONNECTING) conn.socket.close(code, reason);
}

const unauthorized = (conn: Connection) => closeConnection(conn, CloseCode.Unauthorized, 'Unauthorized');

/** The connection's user while its session is live; else null, and the connection is closed with 4401. */
async function currentUser(hub: Pick<Hub, 'sessionLive'>, conn: Connection): Promise<AuthUser | null> {
  const user = conn.user;
  if (!user) return null;
  if (await hub.sessionLive(user.sessionId)) return user;
  unauthorized(conn);
  return null;
}

/** The sessions of these connections that ended get their connections closed (4401). */
export async function recheck(hub: Pick<Hub, 'options'>, list: Connection[]): Promise<void> {
  const signedIn = list.flatMap((conn) => (conn.user ? [{ conn, sessionId: conn.user.sessionId }] : []));
  if (!signedIn.length) return;
  const liveIds = await hub.options.services.auth.liveSessions(signedIn.map((c) => c.sessionId));
  for (const { conn, sessionId } of signedIn) if (!liveIds.has(sessionId)) unauthorized(conn);
}

/** graphql-ws's side of the protocol, each step one of the functions below. */
function createProtocol(hub: Hub) {
  const format = (errors: readonly GraphQLError[]) => errors.map((e) => hub.options.formatError(e.toJSON(), e));
  return makeServer<Record<string, unknown> | undefined, Extra>({
    schema: hub.options.schema,
    connectionInitWaitTimeout: SUBSCRIPTION_LIMITS.connectionInitTimeoutMs,
    onConnect: (ctx) => admitConnection(hub, ctx.extra.connection, ctx.connectionParams),
    // ctx.subscriptions already holds this one.
    onSubscribe: (ctx, _id, payload) => startSubscription(hub, ctx.extra.connection, Object.keys(ctx.subscriptions).length, payload),
    subscribe(args) {
      const subscribed = present(hub.sources.get(args), 'the source stream onSubscribe made');
      hub.sources.delete(args);
      return deliveries(subscribed, args, hub.options.metrics.live);
    },
    onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: format(result.errors) } : undefined),
    onError: (_ctx, _id, _payload, errors) => format(errors),
  });
}

/** The `Authorization` entry of connection_init's payload, its key matched as an HTTP header name would be: GraphiQL sends its headers editor's "Authorization". */
export function connectionAuthorization(params: Record<string, unknown> | undefined): unknown {
  return Object.entries(params ?? {}).find(([key]) => key.toLowerCase() === 'authorization')?.[1];
}

/**
 * connection_init: a bearer token of a live session (else 4401), at most connectionsPerUser
 * connections per user (else 4429), and a timer that closes the connection when the token expires.
 */
export async function admitConnection(hub: Hub, conn: Connection, params: Record<string, unknown> | undefined): Promise<boolean> {
  const { services } = hub.options;
  const token = bearerToken(connectionAuthorization(params));
  const user = token ? (await tokenContext(services, token, requestMeta(conn.request))).user : null;
  if (!token || !user) {
    unauthorized(conn);
    return false;
  }
  if (hub.users.count(user.id) >= SUBSCRIPTION_LIMITS.connectionsPerUser) {
    closeConnection(conn, TOO_MANY, `At most ${SUBSCRIPTION_LIMITS.connectionsPerUser} connections per user`);
    return false;
  }
  // The socket may have gone while the session was read.
  if (conn.socket.readyState !== conn.socket.OPEN) return false;
  conn.user = user;
  hub.users.add(user.id, conn);
  const expiresAt = services.auth.accessTokenExpiry(token);
  if (expiresAt) armExpiry(conn, expiresAt, () => unauthorized(conn));
  return true;
}

/** Calls `onExpired` at `expiresAt` (at once when it has passed), re-arming past setTimeout's longest delay. */
export function armExpiry(conn: Pick<Connection, 'expiry'>, expiresAt: number, onExpired: () => void): void {
  const left = expiresAt - Date.now();
  if (left <= 0) return onExpired();
  conn.expiry = setTimeout(() => armExpiry(conn, expiresAt, onExpired), Math.min(left, MAX_TIMER_MS));
}

/**
 * A `subscribe` message's document, or the `error` message's errors: at most subscriptionsPerConnection
 * (`open` counts this one), the trusted-documents policy, parsing, validation, and a subscription.
 */
export async function vetSubscription(
  hub: Pick<Hub, 'options' | 'rules'>,
  conn: Connection,
  open: number,
  payload: SubscribePayload,
): Promise<{ document: DocumentNode; run?: CompiledExecution } | readonly GraphQLError[]> {
  if (open > SUBSCRIPTION_LIMITS.subscriptionsPerConnection) {
    return [clientError(`At most ${SUBSCRIPTION_LIMITS.subscriptionsPerConnection} subscriptions per connection.`, 'RATE_LIMITED')];
  }
  let query: string;
  try {
    query = await hub.options.documents(payload, conn.user ?? null);
  } catch (err) {
    if (err instanceof GraphQLError) return [err];
    if (err instanceof CodedError) return [toGraphQLError(err)];
    throw err;
  }
  const fixed = hub.options.fixed(query, payload.operationName);
  let document: DocumentNode;
  try {
    document = fixed?.document ?? parse(query, { maxTokens: GRAPHQL_LIMITS.maxTokens });
  } catch (err) {
    return [clientError(err instanceof Error ? err.message : String(err), 'GRAPHQL_PARSE_FAILED')];
  }
  const invalid = validate(hub.options.schema, document, hub.rules);
  if (invalid.length) return invalid.map((e) => clientError(e.message, 'GRAPHQL_VALIDATION_FAILED'));
  if (getOperationAST(document, payload.operationName)?.operation !== 'subscription') {
    return [clientError('Only subscriptions are served over WebSocket; send queries and mutations to POST /graphql.', 'BAD_REQUEST')];
  }
  return { document, run: fixed?.run };
}

/** onSubscribe: the vetted document's source stream, made under a live session (the field's own subscribe and authorization run here). */
async function startSubscription(hub: Hub, conn: Connection, open: number, payload: SubscribePayload): Promise<ExecutionArgs | readonly GraphQLError[]> {
  const vetted = await vetSubscription(hub, conn, open, payload);
  if (!('document' in vetted)) return vetted;
  const user = await currentUser(hub, conn);
  if (!user) return [clientError('Unauthenticated.', 'UNAUTHENTICATED')];
  const { schema, services } = hub.options;
  const contextValue: Context = { user, services, request: requestMeta(conn.request), live: liveWatch(hub, conn) };
  const args: ExecutionArgs = { schema, document: vetted.document, operationName: payload.operationName, variableValues: payload.variables, contextValue };
  // A refusal here is an `error` message.
  const source = await createSourceEventStream(args);
  if (!isAsyncIterable(source)) return source.errors ?? [clientError('Unable to subscribe.', 'INTERNAL_SERVER_ERROR')];
  hub.sources.set(args, { source: source as LiveStream<unknown>, conn, run: vetted.run });
  return args;
}

/** How the change feed treats one subscriber (`Context.live`): its session checked before each event, its backlog bounded. */
export function liveWatch(hub: Pick<Hub, 'options' | 'sessionLive'>, conn: Connection): WatchOptions {
  const { live } = hub.options.metrics;
  return {
    // Before each event is loaded: a fan-out checks every subscriber's session in one query (batchedSessionCheck).
    authorize: async () => {
      if (await currentUser(hub, conn)) return true;
      live.dropped.inc({ reason: 'revoked' });
      return false;
    },
    maxPending: SUBSCRIPTION_LIMITS.maxPendingEvents,
    onOverflow: () => {
      live.dropped.inc({ reason: 'slow_consumer' });
      closeConnection(conn, TRY_AGAIN_LATER, 'Slow consumer');
    },
  };
}
/**
 * graphql-js's mapping of a source stream to responses, with the per-event checks in between: an
 * event for a closed socket is dropped, one for a full send buffer closes the connection (1013).
 * Not an async generator: return() must end the source at once, even while next() waits.
 */
export function deliveries({ source, conn, run }: Subscribed, args: ExecutionArgs, live: Metrics['live']): AsyncIterableIterator<ExecutionResult> {
  const field = getOperationAST(args.document, args.operationName)?.selectionSet.selections[0];
  const name = field?.kind === 'Field' ? field.name.value : 'unknown';
  const responses: AsyncIterableIterator<ExecutionResult> = {
    async next() {
      for (;;) {
        const item = await source.next();
        if (item.done) return { value: undefined, done: true };
        const delivery = item.value as Delivery<unknown>;
        if (conn.socket.readyState !== conn.socket.OPEN) {
          live.dropped.inc({ reason: 'closed' });
          continue;
        }
        if (conn.socket.bufferedAmount > SUBSCRIPTION_LIMITS.maxBufferedBytes) {
          live.dropped.inc({ reason: 'slow_consumer' });
          closeConnection(conn, TRY_AGAIN_LATER, 'Slow consumer');
          continue;
        }
        // A fixed document (the SDK's) runs compiled; any other on graphql-js (src/graphql/compiled-execution.ts).
        const result = await (run ? run(delivery, args.contextValue as Context, args.variableValues ?? {}) : execute({ ...args, rootValue: delivery }));
        live.delivered.inc({ field: name });
        live.lag.observe(Math.max(Date.now() - delivery.at, 0) / 1000);
        return { value: result, done: false };
      }
    },
    async return() {
      await source.return?.();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]: () => responses,
  };
  return responses;
}

/** A new socket: registered, kept alive, handed to the protocol, and forgotten when it closes. */
function openConnection(hub: Hub, protocol: Protocol, socket: WebSocket, request: http.IncomingMessage): void {
  const { logger, metrics } = hub.options;
  const conn: Connection = { socket, request, tokens: SUBSCRIPTION_LIMITS.messageBurst, refilledAt: Date.now(), alive: true };
  hub.connections.set(socket, conn);
  metrics.live.sockets.inc();
  // For the socket's whole life: an oversized frame (ws closes with 1009 itself), a reset, a protocol violation.
  socket.on('error', (err) => logger.debug({ err }, 'WebSocket connection error'));
  socket.on('pong', () => (conn.alive = true));
  const closed = protocol.opened(
    {
      protocol: socket.protocol,
      send: (data) =>
        new Promise<void>((resolve) => {
          if (socket.readyState !== socket.OPEN) return resolve();
          // A send that fails means the socket is going: its close handler cleans up.
          socket.send(data, () => resolve());
        }),
      close: (code, reason) => closeConnection(conn, code ?? 1000, reason ?? ''),
      onMessage: (cb) => socket.on('message', (data) => receive(hub, conn, String(data), cb)),
    },
    { connection: conn },
  );
  socket.once('close', (code, reason) => {
    forget(hub, conn, code);
    closed(code, reason.toString()).catch((err: unknown) => logger.warn({ err }, 'WebSocket close handling failed'));
  });
}

/** One client message: within the rate (else 4429), then to the protocol; its failure closes the connection (messageFailed). */
export function receive(hub: Pick<Hub, 'options'>, conn: Connection, text: string, handle: (text: string) => Promise<void>): void {
  if (conn.socket.readyState !== conn.socket.OPEN) return;
  if (!takeToken(conn)) return closeConnection(conn, TOO_MANY, 'Too many messages');
  handle(text).catch((err: unknown) => messageFailed(hub.options.logger, conn, text, err));
}

/** Closes the connection of a message graphql-ws failed on: the client's fault (4400), the database's (1013, which clients retry) or ours (4500, logged). */
export function messageFailed(logger: Logger, conn: Connection, text: string, err: unknown): void {
  // graphql-ws throws on a well-formed message only servers send (next, error, connection_ack): the client's fault.
  if (sentByServersOnly(text)) return closeConnection(conn, CloseCode.BadRequest, 'Unexpected message type');
  // The database failing (at connection_init or a session check) is temporary.
  if (normalizeError(err) instanceof ServiceUnavailableError) {
    logger.warn({ err }, 'WebSocket message: database unavailable');
    return closeConnection(conn, TRY_AGAIN_LATER, 'Service unavailable');
  }
  logger.error({ err }, 'WebSocket message handling failed');
  closeConnection(conn, CloseCode.InternalServerError, 'Internal server error');
}

/** Takes one token of the connection's messagesPerSecond bucket (refilled for the time since the last); false when it is empty. */
export function takeToken(conn: Pick<Connection, 'tokens' | 'refilledAt'>): boolean {
  const now = Date.now();
  conn.tokens = Math.min(SUBSCRIPTION_LIMITS.messageBurst, conn.tokens + ((now - conn.refilledAt) / 1000) * SUBSCRIPTION_LIMITS.messagesPerSecond);
  conn.refilledAt = now;
  if (conn.tokens < 1) return false;
  conn.tokens -= 1;
  return true;
}

/** A closed socket's clean-up: out of the registries, its expiry timer cleared, its close code counted. */
export function forget(hub: Pick<Hub, 'options' | 'connections' | 'users'>, conn: Connection, code: number): void {
  const { live } = hub.options.metrics;
  hub.connections.delete(conn.socket);
  live.sockets.dec();
  live.closes.inc({ code: closeCodeLabel(code) });
  clearTimeout(conn.expiry);
  if (conn.user) hub.users.delete(conn.user.id, conn);
}

/** The close-code label of graphql_ws_closes_total: a client may close with any code from 1000 to 4999, which would be a label each. */
export function closeCodeLabel(code: number): string {
  return KNOWN_CLOSE_CODES.has(code) ? String(code) : 'other';
}

/** One keep-alive round: a connection that has not answered the previous ping is cut, every other one pinged. */
export function pingOrCut(connections: Iterable<Connection>): void {
  for (const conn of connections) {
    if (!conn.alive) {
      conn.socket.terminate();
      continue;
    }
    conn.alive = false;
    conn.socket.ping();
  }
}

/** An upgrade request's refusal: 503 while shutting down, 404 for any path but /graphql; undefined to accept it. */
export function upgradeRefusal(url: string | undefined, closing: boolean): 404 | 503 | undefined {
  if (closing) return 503;
  return (url ?? '').split('?')[0] === '/graphql' ? undefined : 404;
}

/** Closes every connection with 1001 (going away), then cuts those still open at `timeoutMs`. */
export async function drain(connections: Map<WebSocket, Connection>, timeoutMs: number): Promise<void> {
  for (const conn of connections.values()) closeConnection(conn, 1001, 'Going away');
  const deadline = Date.now() + timeoutMs;
  // Each socket's close handler removes it (the closing handshake, or ws's own 30 s timeout).
  while (connections.size && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  for (const conn of connections.values()) conn.socket.terminate();
}

/** Session ids per query: well under PostgreSQL's 65 535 bind parameters. */
const SESSIONS_PER_QUERY = 1000;

/**
 * Session checks asked for in the same turn of the event loop share one query: a change fanned out
 * to a thousand subscribers checks their thousand sessions at once, not one statement each.
 */
export function batchedSessionCheck(liveSessions: (ids: string[]) => Promise<Set<string>>): (sessionId: string) => Promise<boolean> {
  let batch: { ids: Set<string>; live: Promise<Set<string>> } | undefined;
  return (sessionId) => {
    if (!batch) {
      const ids = new Set<string>();
      const live = new Promise((resolve) => setImmediate(resolve)).then(async () => {
        batch = undefined;
        const list = [...ids];
        const parts = await Promise.all(
          Array.from({ length: Math.ceil(list.length / SESSIONS_PER_QUERY) }, (_, i) =>
            liveSessions(list.slice(i * SESSIONS_PER_QUERY, (i + 1) * SESSIONS_PER_QUERY)),
          ),
        );
        return new Set(parts.flatMap((part) => [...part]));
      });
      batch = { ids, live };
    }
    batch.ids.add(sessionId);
    return batch.live.then((live) => live.has(sessionId));
  };
}

const SERVER_MESSAGES = new Set<string>([MessageType.ConnectionAck, MessageType.Next, MessageType.Error]);

function sentByServersOnly(text: string): boolean {
  try {
    return SERVER_MESSAGES.has(parseMessage(text).type);
  } catch {
    return false;
  }
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function';
}

/** The request facts of a WebSocket upgrade, as requestMeta reads them from an HTTP request (no proxy hops: nothing here is audited). */
function requestMeta(request: http.IncomingMessage): RequestMeta {
  return { ip: request.socket.remoteAddress ?? '', userAgent: request.headers['user-agent'], requestId: requestIdOf(request) };
}

function refuseUpgrade(socket: Duplex, status: 404 | 503): void {
  const body = JSON.stringify({ success: false, message: status === 404 ? 'Route not found.' : 'Service temporarily unavailable.' });
  socket.end(
    `HTTP/1.1 ${status} ${status === 404 ? 'Not Found' : 'Service Unavailable'}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
