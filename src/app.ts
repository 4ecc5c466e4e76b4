import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageLocalDefault, ApolloServerPluginLandingPageProductionDefault } from '@apollo/server/plugin/landingPage/default';
import { expressMiddleware } from '@as-integrations/express5';
import bytes from 'bytes';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { GraphQLFormattedError, GraphQLSchema } from 'graphql';
import helmet from 'helmet';
import { getAbsoluteFSPath } from 'swagger-ui-dist';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { Config } from './config';
import { buildContext, requestMeta, type Context } from './context';
import type { Database } from './db/database';
import { AppError, HttpError, ServiceUnavailableError, UnauthenticatedError, normalizeError } from './errors';
import { GRAPHQL_LIMITS, limitValidationRules, limitsPlugin } from './graphql-limits';
import { idempotencyPlugin } from './idempotency.plugin';
import { createMetrics } from './metrics';
import { sendError } from './rest/respond';
import { buildOpenApi } from './rest/openapi';
import { loadOperations } from './rest/operations';
import { createDownloadHandler, createRestHandler } from './rest/router';
import { routeTable } from './rest/routes';
import { buildGatewaySchema } from './schema/build';
import type { Services } from './services';
import { closeRedis } from './services/redis';
import { graphqlUploads } from './uploads';

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

export interface Gateway {
  app: express.Express;
  server: http.Server;
  /** Set when METRICS_PORT is: the listener for /metrics alone (the caller listens on that port). */
  metricsServer: http.Server | undefined;
  schema: GraphQLSchema;
  /** Flipped by the caller once migrations and demo data are in place (/readyz). */
  setReady(ready: boolean): void;
  stop(): Promise<void>;
}

/** One formatter for GraphQL errors: our codes as they are, anything unexpected masked and logged. */
function formatError(logger: Logger, onError: (code: string) => void) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const e = normalizeError(error);
    const code = String(e.extensions.code ?? formatted.extensions?.code ?? 'INTERNAL_SERVER_ERROR');
    onError(code);
    if (e instanceof AppError) {
      if (e.status >= 500) logger.error({ err: (error as { originalError?: unknown }).originalError ?? error }, 'GraphQL resolver failed');
      return { message: e.message, locations: formatted.locations, path: formatted.path, extensions: { ...e.extensions } };
    }
    return formatted;
  };
}

export async function createGateway(config: Config, db: Database, services: Services, logger: Logger): Promise<Gateway> {
  const schema = await buildGatewaySchema();
  const app = express();
  const server = http.createServer(app);
  const metrics = createMetrics(db.queryCount);
  let ready = false;

  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  // CSP is off: this serves JSON, plus Apollo Sandbox and the API reference page, which load their own scripts.
  app.use(helmet({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false }));
  app.use(pinoHttp({ logger, autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' || req.url === '/metrics' } }));
  app.use(metrics.middleware);

  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/readyz', (_req, res) => void res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'starting' }));
  const metricsServer = mountMetrics(app, config, metrics, logger);

  const whenReady = (_req: Request, res: Response, next: NextFunction) => (ready ? next() : sendError(res, new ServiceUnavailableError(), logger));

  const apollo = new ApolloServer<Context>({
    schema,
    // Analysts explore in Apollo Sandbox, in production too; limitsPlugin refuses introspection to others there.
    introspection: true,
    parseOptions: { maxTokens: GRAPHQL_LIMITS.maxTokens },
    validationRules: limitValidationRules(),
    allowBatchedHttpRequests: false,
    csrfPrevention: true,
    includeStacktraceInErrorResponses: false,
    // main.ts owns SIGTERM/SIGINT (drain, then close the database); Apollo's own handler would stop twice and hang.
    stopOnTerminationSignals: false,
    formatError: formatError(logger, (code) => metrics.graphqlErrors.inc({ code })),
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer: server }),
      limitsPlugin(schema, config.env === 'production'),
      idempotencyPlugin(),
      config.env === 'production' ? ApolloServerPluginLandingPageProductionDefault({ footer: false }) : ApolloServerPluginLandingPageLocalDefault({ footer: false }),
    ],
  });
  await apollo.start();

  const json = express.json({ limit: config.bodyLimit });
  // The one JSON body limit of /graphql: a document and its variables, never file contents.
  const graphqlJson = express.json({ limit: config.graphqlBodyLimit });
  // Files come as multipart requests on both faces, streamed to storage: the file plus the body limit for the rest.
  const uploads = { maxFileBytes: config.uploadMaxBytes, maxRequestBytes: config.uploadMaxBytes + (bytes.parse(config.bodyLimit) ?? 0) };
  app.use(
    '/graphql',
    whenReady,
    graphqlUploads(services, uploads),
    graphqlJson,
    expressMiddleware(apollo, {
      // A multipart request was authenticated before its body was read (graphqlUploads): that context is reused.
      context: async ({ req, res }) => (res.locals.context as Context | undefined) ?? buildContext(services, req.headers.authorization, requestMeta(req)),
    }),
  );
  const operations = loadOperations();
  const openapi = buildOpenApi(schema, operations, routeTable);
  app.get('/api/v1/openapi.json', (_req, res) => void res.json(openapi));
  // Interactive reference: Swagger UI from the installed swagger-ui-dist package, no CDN.
  app.get('/api/v1/docs', (_req, res) => void res.type('html').send(DOCS_PAGE));
  app.get('/api/v1/docs/:file', (req, res, next) => (DOCS_ASSETS.has(req.params.file) ? res.sendFile(req.params.file, { root: getAbsoluteFSPath() }) : next()));
  app.get('/api/v1/downloads/:token', whenReady, createDownloadHandler(services));
  app.use('/api/v1', whenReady, json, createRestHandler(schema, operations, services, uploads));
  app.use((_req: Request, res: Response) => sendError(res, HttpError.routeNotFound(), logger));

  // Body parser failures (and anything else that escaped) in the contract's format.
  app.use((err: { type?: string; status?: number }, req: Request, res: Response, _next: NextFunction) => {
    const mapped = err.type === 'entity.parse.failed' ? HttpError.malformedJson() : err.type === 'entity.too.large' ? HttpError.payloadTooLarge() : err;
    // req.baseUrl is no longer '/graphql' here (the app-level handler), req.path still is.
    if (req.path === '/graphql' && mapped instanceof AppError) {
      return void res.status(mapped.status).json({ errors: [{ message: mapped.message, extensions: { code: mapped.code } }] });
    }
    sendError(res, mapped, logger);
  });

  return {
    app,
    server,
    metricsServer,
    schema,
    setReady: (value) => void (ready = value),
    // Apollo's drain plugin closes the HTTP server and waits for in-flight requests.
    stop: async () => {
      await apollo.stop();
      if (metricsServer?.listening) await new Promise((resolve) => metricsServer.close(resolve));
      if (services.redis) await closeRedis(services.redis);
    },
  };
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
      const given = Buffer.from(/^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1] ?? '');
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
