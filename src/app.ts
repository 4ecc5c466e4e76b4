import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { Socket } from 'node:net';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault, ApolloServerPluginLandingPageProductionDefault } from '@apollo/server/plugin/landingPage/default';
import { expressMiddleware } from '@as-integrations/express5';
import cors from 'cors';
import bytes from 'bytes';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { GraphQLFormattedError, GraphQLSchema } from 'graphql';
import helmet from 'helmet';
// The package's main module also loads its 1 MB browser bundle; this one only says where the files are.
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { fixedDocuments, fixedDocumentsExecutor } from './graphql/compiled-execution';
import { documentStore } from './graphql/document-cache';
import type { Config } from './platform/config';
import { BUILD_INFO } from './platform/build-info';
import { bearerToken, buildContext, requestMeta, type Context } from './http/context';
import type { Database } from './db/database';
import { DatabaseHealth } from './db/health';
import { CodedError, NotFoundError, ServiceUnavailableError, UnauthenticatedError } from './domain/errors';
import { HttpError, errorCode, graphqlErrorAnswer, httpStatus, normalizeError, toGraphQLError } from './http/errors';
import { graphiqlRouter, withGraphiqlFallback } from './graphql/graphiql';
import { GRAPHQL_LIMITS, answerSizeCap, limitValidationRules, limitsPlugin } from './graphql/limits';
import { HttpDrainer } from './http/http-drain';
import { idempotencyPlugin } from './graphql/idempotency.plugin';
import { jsonBody, jsonQueryParameters } from './http/json-body';
import { createMetrics, type Metrics } from './http/metrics';
import { persistedQueryCache } from './graphql/persisted-queries';
import { requestIdFor, requestIdScope } from './http/request-id';
import { sendError } from './rest/respond';
import { buildOpenApi } from './rest/openapi';
import { loadOperations } from './rest/operations';
import { createDownloadHandler, createRestHandler } from './rest/router';
import { routeTable } from './rest/routes';
import { buildGatewaySchema } from './graphql/build';
import type { Services } from './services';
import { RedisHealth, closeRedis } from './services/redis';
import { attachSubscriptions, subscriptionsOverWebSocketOnly, type SubscriptionServer, type SubscriptionServerOptions } from './graphql/subscriptions';
import { CHANGE_CHANNEL } from './services/change-feed';
import type { NotifyListener } from './db/notify-listener';
import { loadPersistedDocuments, trustedDocuments } from './graphql/trusted-documents';
import { graphqlUploads } from './graphql/uploads';

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Investment platform REST API</title>
<link rel="stylesheet" href="/api/v1/docs/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/api/v1/docs/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/api/v1/openapi.json', dom_id: '#swagger-ui', deepLinking: true });</script>
</body></html>`;

/** The only swagger-ui-dist files DOCS_PAGE loads; nothing else of the package is served. */
const DOCS_ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js']);
/** Response headers a dashboard script may read across origins (rate limits, downloads). */
/** Response headers a browser client may read cross-origin (what each means: docs/api.md). */
const CORS_EXPOSED_HEADERS = [
  'X-Request-Id',
  'Idempotent-Replayed',
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'WWW-Authenticate',
  'Content-Disposition',
];

export interface Gateway {
  app: express.Express;
  server: http.Server;
  /** Set when METRICS_PORT is: the listener for /metrics alone (the caller listens on that port). */
  metricsServer: http.Server | undefined;
  schema: GraphQLSchema;
  /** The /graphql server itself: tests run operations through its executeOperation, plugins and formatError included. */
  apollo: ApolloServer<Context>;
  /** Flipped by the caller once migrations and demo data are in place (/readyz). */
  setReady(ready: boolean): void;
  /** SIGTERM: /readyz answers 503 from now on; everything else is still served. */
  beginShutdown(): void;
  /**
   * Stops accepting, answers the requests already received (bounded by `timeoutMs`), stops Apollo and
   * the ping loop. Returns the connections cut at the bound and the new ones that never sent a request.
   */
  stop(timeoutMs?: number): Promise<{ cut: number; silent: number }>;
}

/**
 * GraphQL answers an unreachable database with HTTP 503 (Apollo otherwise sends resolver errors
 * with 200); the body keeps the GraphQL shape with `extensions.code: SERVICE_UNAVAILABLE`. So does a
 * multipart body that broke after its file began (its own 400 or 413, `BAD_REQUEST`/`PAYLOAD_TOO_LARGE`).
 */
const unavailableStatus: ApolloServerPlugin<Context> = {
  async requestDidStart() {
    return {
      async didEncounterErrors({ errors, response }) {
        const mapped = errors.map(normalizeError);
        const transport = mapped.find((e) => e instanceof HttpError);
        if (transport) response.http.status = httpStatus(transport.code);
        if (mapped.some((e) => e instanceof ServiceUnavailableError)) response.http.status = 503;
      },
    };
  },
};

/**
 * Every GraphQL answer is `Cache-Control: no-store`, as Apollo's default cache-control plugin says
 * when no field carries a cache hint (none does here). That plugin is disabled: it hooks every
 * resolved field of every request (REST's in-process executions included, they share the schema)
 * to collect hints that do not exist.
 */
const noStore: ApolloServerPlugin<Context> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        response.http.headers.set('cache-control', 'no-store');
      },
    };
  },
};

/** An error thrown while building the context: Apollo takes its HTTP status from `extensions.http` (else 500). */
function withHttpStatus(err: unknown): unknown {
  const e = normalizeError(err);
  return e instanceof CodedError ? toGraphQLError(e, { http: { status: httpStatus(e.code) } }) : err;
}

/** One formatter for GraphQL errors: our codes as they are, anything unexpected masked and logged. */
function formatError(logger: Logger, onError: (code: string) => void) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const e = normalizeError(error);
    onError(errorCode(e));
    if (e instanceof CodedError) {
      if (httpStatus(e.code) >= 500) logger.error({ err: (error as { originalError?: unknown }).originalError ?? error }, 'GraphQL resolver failed');
      return { message: e.message, locations: formatted.locations, path: formatted.path, extensions: toGraphQLError(e).extensions };
    }
    return formatted;
  };
}

/**
 * Errors of express's own request handling → the contract's answers: body-parser's (malformed,
 * too large, a charset or content encoding other than UTF-8 JSON, a body that is not what its
 * headers say) and a path parameter whose %-escapes do not decode (it can name no resource).
 */
function transportError(err: { type?: string; status?: number }): unknown {
  if (err instanceof CodedError) return err;
  if (err instanceof URIError) return new NotFoundError();
  switch (err.type) {
    case 'entity.too.large':
      return HttpError.payloadTooLarge();
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return HttpError.unsupportedMediaType();
  }
  if (err.type === 'entity.parse.failed' || (typeof err.status === 'number' && err.status >= 400 && err.status < 500)) return HttpError.malformedJson();
  return err;
}

export async function createGateway(config: Config, db: Database, services: Services, logger: Logger): Promise<Gateway> {
  const schema = await buildGatewaySchema();
  const app = express();
  const server = http.createServer(app);
  const metrics = createMetrics(
    {
      queryCount: db.queryCount,
      poolStats: db.poolStats,
      pendingPushes: () => services.notifications.pendingPushes(),
      liveSubscriptions: () => services.changes.size(),
    },
    logger,
  );
  const drainer = new HttpDrainer(server);
  const health = new DatabaseHealth(db.ping);
  await health.start();
  const redisHealth = services.redis && new RedisHealth(services.redis);
  await redisHealth?.start();
  let migrated = false;
  let shuttingDown = false;

  app.disable('x-powered-by');
  // No ETags: every answer is per-user data built per request (GraphQL's no-store, REST's envelopes),
  // which no contract or client revalidates; Express would hash each body (sha1) to make one.
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);
  // CSP is off here: this serves JSON, plus Apollo Sandbox and the API reference page, which load their
  // own scripts. /graphiql sets its own strict one (src/graphql/graphiql.ts).
  // HSTS only on requests that came over TLS (directly, or per X-Forwarded-Proto from a proxy that
  // TRUST_PROXY trusts): on plain HTTP it means nothing (RFC 6797 §7.2) and misleads.
  app.use(helmet({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false, strictTransportSecurity: false }));
  const hsts = helmet.strictTransportSecurity();
  app.use((req, res, next) => (req.secure ? hsts(req, res, next) : next()));
  // pino-http writes its one line per request at info (5xx included); below that level it would only
  // build a child logger per request (serializing and redacting the request) that nothing writes to.
  // The request id, which it would assign, is assigned alike either way.
  app.use(
    logger.isLevelEnabled('info')
      ? pinoHttp({
          logger,
          genReqId: requestIdFor,
          autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' || req.url === '/metrics' },
        })
      : (req: Request, res: Response, next: NextFunction) => ((req.id = requestIdFor(req, res)), next()),
  );
  app.use(requestIdScope);
  // CORS for the dashboard's origins only (none by default). Bearer tokens, not cookies: no credentials.
  // Mounted with an empty list too, so every preflight is answered (204) here rather than reaching
  // Apollo's CSRF check (400) or the REST router (405); an origin not listed gets no Allow-Origin.
  app.use(cors({ origin: config.corsOrigins, credentials: false, maxAge: 600, exposedHeaders: CORS_EXPOSED_HEADERS }));
  app.use(metrics.middleware);

  // Which build answers, too: what an operator checks after an upgrade (docs/operations.md "Health").
  const alive = { status: 'ok', version: BUILD_INFO.version, commit: BUILD_INFO.commit };
  app.get('/healthz', (_req, res) => void res.json(alive));
  // Ready = migrations done, the database answered a ping within the last second, not shutting down.
  // Redis is reported, never required (RedisHealth; docs/operations.md "Redis down").
  app.get('/readyz', (_req, res) => {
    const database = health.status();
    const ready = migrated && database.ok && !shuttingDown;
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ready' : shuttingDown ? 'shutting down' : migrated ? 'unavailable' : 'starting',
      checks: {
        migrations: migrated ? 'done' : 'pending',
        database: database.detail,
        redis: redisHealth?.detail() ?? 'not configured',
        shutting_down: shuttingDown,
      },
    });
  });
  const metricsServer = mountMetrics(app, config, metrics, logger);

  const whenReady = (_req: Request, res: Response, next: NextFunction) => (migrated ? next() : sendError(res, new ServiceUnavailableError(), logger));

  const trusted = trustedDocuments(config.trustedDocuments, persistedQueryCache(services.redis, config.redisKeyPrefix, logger), services, logger);
  const operations = loadOperations();
  const fixed = fixedDocuments(schema, [...loadPersistedDocuments().values(), ...operations.values()]);
  const apollo = new ApolloServer<Context>({
    // The schema, with the gateway's fixed documents (the SDK's persisted ones, the REST routes') run compiled.
    gateway: fixedDocumentsExecutor(schema, fixed),
    persistedQueries: trusted.persistedQueries,
    // Analysts explore in Apollo Sandbox, in production too; limitsPlugin refuses introspection to others there.
    introspection: true,
    parseOptions: { maxTokens: GRAPHQL_LIMITS.maxTokens },
    documentStore: documentStore(),
    validationRules: limitValidationRules(),
    allowBatchedHttpRequests: false,
    csrfPrevention: true,
    includeStacktraceInErrorResponses: false,
    // main.ts owns SIGTERM/SIGINT (grace, drain, then close the database); the HTTP drain is ours (http-drain.ts).
    stopOnTerminationSignals: false,
    formatError: formatError(logger, (code) => metrics.graphqlErrors.inc({ code })),
    plugins: [
      ApolloServerPluginCacheControlDisabled(),
      noStore,
      unavailableStatus,
      subscriptionsOverWebSocketOnly,
      limitsPlugin(schema, config.env === 'production'),
      idempotencyPlugin(),
      metrics.apolloPlugin,
      withGraphiqlFallback(
        config.env === 'production'
          ? ApolloServerPluginLandingPageProductionDefault({ footer: false })
          : ApolloServerPluginLandingPageLocalDefault({ footer: false }),
      ),
    ],
  });
  await apollo.start();

  // JSON bodies on both faces, their nesting bounded before they are parsed (src/http/json-body.ts).
  const json = jsonBody(config.bodyLimit);
  // The one JSON body limit of /graphql: a document and its variables, never file contents.
  const graphqlJson = jsonBody(config.graphqlBodyLimit);
  // Files come as multipart requests on both faces, streamed to storage: the file plus the body limit for the rest.
  const uploads = { maxFileBytes: config.uploadMaxBytes, maxRequestBytes: config.uploadMaxBytes + (bytes.parse(config.bodyLimit) ?? 0) };
  // The API; a worker process (ROLE=worker) mounts none of it and answers only health and metrics.
  const api = express.Router();
  api.use(
    '/graphql',
    whenReady,
    graphqlUploads(services, { ...uploads, maxOperationsBytes: bytes.parse(config.graphqlBodyLimit) ?? 0 }),
    graphqlJson,
    jsonQueryParameters,
    ...trusted.handlers,
    answerSizeCap(),
    expressMiddleware(apollo, {
      // A context built before Apollo (graphqlUploads for multipart, TRUSTED_DOCUMENTS=only) is reused.
      context: async ({ req, res }) =>
        (res.locals.context as Context | undefined) ??
        buildContext(services, req.headers.authorization, requestMeta(req)).catch((err: unknown) => Promise.reject(withHttpStatus(err))),
    }),
  );
  const openapi = buildOpenApi(schema, operations, routeTable);
  api.get('/api/v1/openapi.json', (_req, res) => void res.json(openapi));
  // Interactive reference: Swagger UI from the installed swagger-ui-dist package, no CDN.
  api.get('/api/v1/docs', (_req, res) => void res.type('html').send(DOCS_PAGE));
  api.get('/api/v1/docs/:file', (req, res, next) => (DOCS_ASSETS.has(req.params.file) ? res.sendFile(req.params.file, { root: getAbsoluteFSPath() }) : next()));
  // GraphiQL from the gateway's own files (offline, firewalls); Apollo Sandbox stays at /graphql.
  api.use('/graphiql', graphiqlRouter());
  api.get('/api/v1/downloads/:token', whenReady, createDownloadHandler(services));
  api.use('/api/v1', whenReady, json, createRestHandler(schema, operations, services, uploads));
  if (config.role !== 'worker') app.use(api);
  // Subscriptions (WebSocket on /graphql) and the change feed's one listening connection, API role only.
  const live =
    config.role === 'worker'
      ? undefined
      : await startSubscriptions(server, drainer, db, services, schema, { documents: trusted.socketDocuments, fixed }, logger, metrics);
  app.use((_req: Request, res: Response) => sendError(res, HttpError.routeNotFound(), logger));

  // Body parser failures (and anything else that escaped) in the contract's format.
  app.use((err: { type?: string; status?: number }, req: Request, res: Response, _next: NextFunction) => {
    const mapped = transportError(err);
    // req.baseUrl is no longer '/graphql' here (the app-level handler), req.path still is.
    if (req.path === '/graphql' && mapped instanceof CodedError) {
      const answer = graphqlErrorAnswer(mapped);
      return void res.status(answer.status).json(answer.body);
    }
    sendError(res, mapped, logger);
  });

  return {
    app,
    server,
    metricsServer,
    schema,
    apollo,
    setReady: (value) => void (migrated = value),
    beginShutdown: () => void (shuttingDown = true),
    async stop(timeoutMs = 30_000) {
      shuttingDown = true;
      // WebSockets first, with 1001 (going away): their clients reconnect to another instance while HTTP drains.
      await live?.subscriptions.close(Math.min(timeoutMs, WS_CLOSE_MS));
      await live?.listener.close();
      const drained = await drainer.drain(timeoutMs);
      await apollo.stop();
      await health.stop();
      await redisHealth?.stop();
      if (metricsServer?.listening) await new Promise((resolve) => metricsServer.close(resolve));
      if (services.redis) await closeRedis(services.redis);
      return drained;
    },
  };
}

/** How long a stopping gateway waits for WebSocket clients to answer its close frame before cutting them. */
const WS_CLOSE_MS = 2000;

async function startSubscriptions(
  server: http.Server,
  drainer: HttpDrainer,
  db: Database,
  services: Services,
  schema: GraphQLSchema,
  documents: Pick<SubscriptionServerOptions, 'documents' | 'fixed'>,
  logger: Logger,
  metrics: Metrics,
): Promise<{ subscriptions: SubscriptionServer; listener: NotifyListener }> {
  server.on('upgrade', (req: http.IncomingMessage) => drainer.release(req.socket as Socket));
  const subscriptions = attachSubscriptions(server, {
    schema,
    ...documents,
    services,
    logger,
    metrics,
    formatError: formatError(logger, (code) => metrics.graphqlErrors.inc({ code })),
  });
  const listener = await db.listen(CHANGE_CHANNEL, {
    notify(payload) {
      try {
        for (const change of services.changes.receive(payload)) metrics.live.published.inc({ type: change.type });
      } catch (err) {
        logger.error({ err }, 'change feed: unreadable notification');
      }
    },
    lost: () => metrics.live.listenerLost.inc(),
    // Revocations may have been missed while the connection was down.
    restored: () => void subscriptions.recheckSessions().catch((err: unknown) => logger.warn({ err }, 'live connections: session re-check failed')),
  });
  return { subscriptions, listener };
}

/**
 * /metrics is for operators, never for everyone: with METRICS_PORT it is served on that port alone;
 * with METRICS_TOKEN it needs that bearer token (401 otherwise); with neither it is served on the
 * API port outside production only (404 in production).
 */
function mountMetrics(app: express.Express, config: Config, metrics: ReturnType<typeof createMetrics>, logger: Logger): http.Server | undefined {
  const handlers = [
    (req: Request, res: Response, next: NextFunction) => {
      if (!config.metricsToken) return next();
      const given = Buffer.from(bearerToken(req.get('authorization')) ?? '');
      const expected = Buffer.from(config.metricsToken);
      if (given.length === expected.length && timingSafeEqual(given, expected)) return next();
      sendError(res, new UnauthenticatedError(), logger);
    },
    async (_req: Request, res: Response) => void res.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  ];
  if (config.metricsPort !== undefined) {
    const metricsApp = express();
    metricsApp.disable('x-powered-by');
    metricsApp.get('/metrics', ...handlers);
    return http.createServer(metricsApp);
  }
  if (config.metricsToken || config.env !== 'production') app.get('/metrics', ...handlers);
  return undefined;
}
