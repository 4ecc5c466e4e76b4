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
import { buildContext, type Context } from './context';
import type { Database } from './db/database';
import { AppError, HttpError, ServiceUnavailableError, normalizeError } from './errors';
import { createMetrics } from './metrics';
import { sendError } from './rest/respond';
import { buildOpenApi } from './rest/openapi';
import { loadOperations } from './rest/operations';
import { createDownloadHandler, createRestHandler } from './rest/router';
import { routeTable } from './rest/routes';
import { buildGatewaySchema } from './schema/build';
import type { Services } from './services';

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Investment platform REST API</title>
<link rel="stylesheet" href="/api/v1/docs/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/api/v1/docs/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/api/v1/openapi.json', dom_id: '#swagger-ui', deepLinking: true });</script>
</body></html>`;

export interface Gateway {
  app: express.Express;
  server: http.Server;
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
  app.get('/metrics', async (_req, res) => void res.type(metrics.registry.contentType).send(await metrics.registry.metrics()));

  const whenReady = (_req: Request, res: Response, next: NextFunction) => (ready ? next() : sendError(res, new ServiceUnavailableError(), logger));

  const apollo = new ApolloServer<Context>({
    schema,
    introspection: true, // analysts explore in Apollo Sandbox, in production too
    allowBatchedHttpRequests: false,
    csrfPrevention: true,
    includeStacktraceInErrorResponses: false,
    // main.ts owns SIGTERM/SIGINT (drain, then close the database); Apollo's own handler would stop twice and hang.
    stopOnTerminationSignals: false,
    formatError: formatError(logger, (code) => metrics.graphqlErrors.inc({ code })),
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer: server }),
      config.env === 'production' ? ApolloServerPluginLandingPageProductionDefault({ footer: false }) : ApolloServerPluginLandingPageLocalDefault({ footer: false }),
    ],
  });
  await apollo.start();

  const json = express.json({ limit: config.bodyLimit });
  // GraphQL uploads arrive base64-encoded in the JSON body (4/3 of the file), so /graphql accepts that much more.
  const graphqlJson = express.json({ limit: Math.max(bytes.parse(config.bodyLimit) ?? 0, Math.ceil((config.uploadMaxBytes * 4) / 3) + 64 * 1024) });
  app.use(
    '/graphql',
    whenReady,
    graphqlJson,
    expressMiddleware(apollo, {
      context: ({ req }) => buildContext(services, req.headers.authorization, { ip: req.ip ?? '', userAgent: req.get('user-agent') }),
    }),
  );
  const operations = loadOperations();
  const openapi = buildOpenApi(schema, operations, routeTable);
  app.get('/api/v1/openapi.json', (_req, res) => void res.json(openapi));
  // Interactive reference: Swagger UI from the installed swagger-ui-dist package, no CDN.
  app.get('/api/v1/docs', (_req, res) => void res.type('html').send(DOCS_PAGE));
  app.use('/api/v1/docs', express.static(getAbsoluteFSPath(), { index: false }));
  app.get('/api/v1/downloads/:token', whenReady, createDownloadHandler(services));
  app.use('/api/v1', whenReady, json, createRestHandler(schema, operations, services, config.uploadMaxBytes));
  app.use((_req: Request, res: Response) => sendError(res, HttpError.routeNotFound(), logger));

  // Body parser failures (and anything else that escaped) in the contract's format.
  app.use((err: { type?: string; status?: number }, req: Request, res: Response, _next: NextFunction) => {
    const mapped = err.type === 'entity.parse.failed' ? HttpError.malformedJson() : err.type === 'entity.too.large' ? HttpError.payloadTooLarge() : err;
    if (req.baseUrl === '/graphql' && mapped instanceof AppError) {
      return void res.status(mapped.status).json({ errors: [{ message: mapped.message, extensions: { code: mapped.code } }] });
    }
    sendError(res, mapped, logger);
  });

  return {
    app,
    server,
    schema,
    setReady: (value) => void (ready = value),
    // Apollo's drain plugin closes the HTTP server and waits for in-flight requests.
    stop: () => apollo.stop(),
  };
}
