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
} from 'graphql';
import { CloseCode, MessageType, handleProtocols, makeServer, parseMessage } from 'graphql-ws';
import type { Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import { buildContext, type Context, type RequestMeta } from '../http/context';
import { DomainError, HttpError, ServiceUnavailableError, normalizeError, toGraphQLError } from '../http/errors';
import type { AuthUser } from '../domain/auth-user';
import { GRAPHQL_LIMITS, limitValidationRules } from './limits';
import { present } from '../platform/invariant';
import type { Metrics } from '../http/metrics';
import { requestIdOf } from '../http/request-id';
import type { Services } from '../services';
import type { Delivery, LiveStream } from '../services/change-feed';
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
/** Close codes counted by their own label; a client may close with any code from 1000 to 4999, which would be a label each. */
const KNOWN_CLOSE_CODES = new Set([1000, 1001, 1005, 1006, 1009, 1011, 1013, 4400, 4401, 4403, 4406, 4408, 4409, 4429, 4499, 4500]);
/** setTimeout's longest delay; a token living longer is re-armed. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Connection {
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
  const { schema, services, logger, metrics } = options;
  const live = metrics.live;
  const connections = new Map<WebSocket, Connection>();
  const byUser = new Map<number, Set<Connection>>();
  /** Source streams made in onSubscribe (where a refusal can still be an `error` message), taken by `subscribe`. */
  const sources = new WeakMap<ExecutionArgs, { source: LiveStream<unknown>; conn: Connection; run?: CompiledExecution }>();
  const rules = [...specifiedRules, ...limitValidationRules()];
  let closing = false;

  const wss = new WebSocketServer({ noServer: true, maxPayload: SUBSCRIPTION_LIMITS.maxMessageBytes, handleProtocols, perMessageDeflate: false });
  wss.on('error', (err) => logger.error({ err }, 'WebSocket server failed'));

  const close = (conn: Connection, code: number, reason: string) => {
    if (conn.socket.readyState === conn.socket.OPEN || conn.socket.readyState === conn.socket.CONNECTING) conn.socket.close(code, reason);
  };
  const unauthorized = (conn: Connection) => close(conn, CloseCode.Unauthorized, 'Unauthorized');

  const format = (errors: readonly GraphQLError[]) => errors.map((e) => options.formatError(e.toJSON(), e));

  const sessionLive = batchedSessionCheck((ids) => services.auth.liveSessions(ids));
  /** The connection's user while its session is live; else null, and the connection is closed with 4401. */
  const currentUser = async (conn: Connection): Promise<AuthUser | null> => {
    const user = conn.user;
    if (!user) return null;
    if (await sessionLive(user.sessionId)) return user;
    unauthorized(conn);
    return null;
  };

  /** The sessions of these connections that ended get their connections closed (4401). */
  const recheck = async (list: Connection[]) => {
    const signedIn = list.flatMap((conn) => (conn.user ? [{ conn, sessionId: conn.user.sessionId }] : []));
    if (!signedIn.length) return;
    const liveIds = await services.auth.liveSessions(signedIn.map((c) => c.sessionId));
    for (const { conn, sessionId } of signedIn) if (!liveIds.has(sessionId)) unauthorized(conn);
  };
  const stopRevocations = services.changes.onSessionsRevoked((userId) => {
    recheck([...(byUser.get(userId) ?? [])]).catch((err: unknown) => logger.warn({ err, userId }, 'live connections: session re-check failed'));
  });

  const protocol = makeServer<Record<string, unknown> | undefined, Extra>({
    schema,
    connectionInitWaitTimeout: SUBSCRIPTION_LIMITS.connectionInitTimeoutMs,

    async onConnect(ctx) {
      const conn = ctx.extra.connection;
      // The key is matched as an HTTP header name would be: GraphiQL sends its headers editor's "Authorization".
      const authorization = Object.entries(ctx.connectionParams ?? {}).find(([key]) => key.toLowerCase() === 'authorization')?.[1];
      const token = typeof authorization === 'string' ? /^Bearer\s+(\S+)$/i.exec(authorization)?.[1] : undefined;
      const context = token ? await buildContext(services, `Bearer ${token}`, requestMeta(conn.request)) : null;
      if (!context?.user) {
        unauthorized(conn);
        return false;
      }
      const mine = byUser.get(context.user.id) ?? new Set();
      if (mine.size >= SUBSCRIPTION_LIMITS.connectionsPerUser) {
        close(conn, TOO_MANY, `At most ${SUBSCRIPTION_LIMITS.connectionsPerUser} connections per user`);
        return false;
      }
      // The socket may have gone while the session was read.
      if (conn.socket.readyState !== conn.socket.OPEN) return false;
      conn.user = context.user;
      byUser.set(context.user.id, mine.add(conn));
      const expiresAt = token && services.auth.accessTokenExpiry(token);
      if (expiresAt) {
        const arm = () => {
          const left = expiresAt - Date.now();
          if (left <= 0) return unauthorized(conn);
          conn.expiry = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
        };
        arm();
      }
      return true;
    },

    async onSubscribe(ctx, _id, payload) {
      const conn = ctx.extra.connection;
      // ctx.subscriptions already holds this one.
      if (Object.keys(ctx.subscriptions).length > SUBSCRIPTION_LIMITS.subscriptionsPerConnection) {
        return [clientError(`At most ${SUBSCRIPTION_LIMITS.subscriptionsPerConnection} subscriptions per connection.`, 'RATE_LIMITED')];
      }
      let query: string;
      try {
        query = await options.documents(payload, conn.user ?? null);
      } catch (err) {
        if (err instanceof GraphQLError) return [err];
        if (err instanceof DomainError) return [toGraphQLError(err)];
        throw err;
      }
      const fixed = options.fixed(query, payload.operationName);
      let document: DocumentNode;
      try {
        document = fixed?.document ?? parse(query, { maxTokens: GRAPHQL_LIMITS.maxTokens });
      } catch (err) {
        return [clientError(err instanceof Error ? err.message : String(err), 'GRAPHQL_PARSE_FAILED')];
      }
      const invalid = validate(schema, document, rules);
      if (invalid.length) return invalid.map((e) => clientError(e.message, 'GRAPHQL_VALIDATION_FAILED'));
      if (getOperationAST(document, payload.operationName)?.operation !== 'subscription') {
        return [clientError('Only subscriptions are served over WebSocket; send queries and mutations to POST /graphql.', 'BAD_REQUEST')];
      }
      const user = await currentUser(conn);
      if (!user) return [clientError('Unauthenticated.', 'UNAUTHENTICATED')];
      const contextValue: Context = {
        user,
        services,
        request: requestMeta(conn.request),
        live: {
          // Before each event is loaded: a fan-out checks every subscriber's session in one query (batchedSessionCheck).
          authorize: async () => {
            if (await currentUser(conn)) return true;
            live.dropped.inc({ reason: 'revoked' });
            return false;
          },
          maxPending: SUBSCRIPTION_LIMITS.maxPendingEvents,
          onOverflow: () => {
            live.dropped.inc({ reason: 'slow_consumer' });
            close(conn, TRY_AGAIN_LATER, 'Slow consumer');
          },
        },
      };
      const args: ExecutionArgs = { schema, document, operationName: payload.operationName, variableValues: payload.variables, contextValue };
      // The field's own subscribe runs here (its authorization included): a refusal is an `error` message.
      const source = await createSourceEventStream(args);
      if (!isAsyncIterable(source)) return source.errors ?? [clientError('Unable to subscribe.', 'INTERNAL_SERVER_ERROR')];
      sources.set(args, { source: source as LiveStream<unknown>, conn, run: fixed?.run });
      return args;
    },

    subscribe(args) {
      const { source, conn, run } = present(sources.get(args), 'the source stream onSubscribe made');
      sources.delete(args);
      const field = getOperationAST(args.document, args.operationName)?.selectionSet.selections[0];
      const name = field?.kind === 'Field' ? field.name.value : 'unknown';
      // graphql-js's mapping of a source stream to responses, with the per-event checks in between.
      // Not an async generator: return() must end the source at once, even while next() waits.
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
              close(conn, TRY_AGAIN_LATER, 'Slow consumer');
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
    },

    onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: format(result.errors) } : undefined),
    onError: (_ctx, _id, _payload, errors) => format(errors),
  });

  wss.on('connection', (socket: WebSocket, request: http.IncomingMessage) => {
    const conn: Connection = { socket, request, tokens: SUBSCRIPTION_LIMITS.messageBurst, refilledAt: Date.now(), alive: true };
    connections.set(socket, conn);
    live.sockets.inc();
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
        close: (code, reason) => close(conn, code ?? 1000, reason ?? ''),
        onMessage: (cb) =>
          socket.on('message', (data) => {
            if (socket.readyState !== socket.OPEN) return;
            if (!takeToken(conn)) return close(conn, TOO_MANY, 'Too many messages');
            const text = String(data);
            cb(text).catch((err: unknown) => {
              // graphql-ws throws on a well-formed message only servers send (next, error, connection_ack): the client's fault.
              if (sentByServersOnly(text)) return close(conn, CloseCode.BadRequest, 'Unexpected message type');
              // The database failing (at connection_init or a session check) is temporary: 1013, which clients retry.
              if (normalizeError(err) instanceof ServiceUnavailableError) {
                logger.warn({ err }, 'WebSocket message: database unavailable');
                return close(conn, TRY_AGAIN_LATER, 'Service unavailable');
              }
              logger.error({ err }, 'WebSocket message handling failed');
              close(conn, CloseCode.InternalServerError, 'Internal server error');
            });
          }),
      },
      { connection: conn },
    );
    socket.once('close', (code, reason) => {
      connections.delete(socket);
      live.sockets.dec();
      live.closes.inc({ code: KNOWN_CLOSE_CODES.has(code) ? String(code) : 'other' });
      clearTimeout(conn.expiry);
      if (conn.user) {
        const mine = byUser.get(conn.user.id);
        mine?.delete(conn);
        if (mine?.size === 0) byUser.delete(conn.user.id);
      }
      closed(code, reason.toString()).catch((err: unknown) => logger.warn({ err }, 'WebSocket close handling failed'));
    });
  });

  // One timer for every connection: cheaper than one per socket with thousands of idle ones.
  const keepAlive = setInterval(() => {
    for (const conn of connections.values()) {
      if (!conn.alive) {
        conn.socket.terminate();
        continue;
      }
      conn.alive = false;
      conn.socket.ping();
    }
  }, SUBSCRIPTION_LIMITS.keepAliveMs);
  keepAlive.unref();

  const onUpgrade = (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', (err) => logger.debug({ err }, 'WebSocket upgrade socket error'));
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/graphql' || closing) return refuseUpgrade(socket, closing ? 503 : 404);
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  };
  server.on('upgrade', onUpgrade);

  return {
    recheckSessions: () => recheck([...connections.values()]),
    async close(timeoutMs) {
      closing = true;
      stopRevocations();
      clearInterval(keepAlive);
      for (const conn of connections.values()) close(conn, 1001, 'Going away');
      const deadline = Date.now() + timeoutMs;
      // Each socket's close handler removes it (the closing handshake, or ws's own 30 s timeout).
      while (connections.size && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      for (const conn of connections.values()) conn.socket.terminate();
      // onUpgrade stays: until the HTTP server closes, an upgrade is refused with 503 (`closing`)
      // rather than left without an answer, which a load balancer would wait out before trying another instance.
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };

  function takeToken(conn: Connection): boolean {
    const now = Date.now();
    conn.tokens = Math.min(SUBSCRIPTION_LIMITS.messageBurst, conn.tokens + ((now - conn.refilledAt) / 1000) * SUBSCRIPTION_LIMITS.messagesPerSecond);
    conn.refilledAt = now;
    if (conn.tokens < 1) return false;
    conn.tokens -= 1;
    return true;
  }
}

/** Session ids per query: well under PostgreSQL's 65 535 bind parameters. */
const SESSIONS_PER_QUERY = 1000;

/**
 * Session checks asked for in the same turn of the event loop share one query: a change fanned out
 * to a thousand subscribers checks their thousand sessions at once, not one statement each.
 */
function batchedSessionCheck(liveSessions: (ids: string[]) => Promise<Set<string>>): (sessionId: string) => Promise<boolean> {
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
