import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { Socket } from 'node:net';
import type { ApolloServer } from '@apollo/server';
import bytes from 'bytes';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import { fixedDocuments } from './graphql/compiled-execution';
import type { Config } from './platform/config';
import { bearerToken, type Context } from './http/context';
import type { Database } from './db/database';
import { DatabaseHealth } from './db/health';
import { ServiceUnavailableError, UnauthenticatedError } from './domain/errors';
import { mountHealth, type Lifecycle } from './http/health-routes';
import { HttpDrainer } from './http/http-drain';
import { createMetrics, scrapeHandler, type Metrics, type MetricsSources } from './http/metrics';
import { useSharedMiddleware } from './http/shared-middleware';
import { stopGateway } from './http/shutdown';
import { persistedQueryCache } from './graphql/persisted-queries';
import { createApolloServer, formatError, mountGraphql } from './graphql/server';
import { sendError } from './rest/respond';
import { mountRest } from './rest/mount';
import { loadOperations } from './rest/operations';
import { routeNotFound, transportErrorHandler } from './rest/transport-errors';
import { buildGatewaySchema } from './graphql/build';
import type { Services } from './services';
import { RedisHealth } from './services/redis';
import { attachSubscriptions, type SubscriptionServer, type SubscriptionServerOptions } from './graphql/subscriptions';
import { CHANGE_CHANNEL } from './services/change-feed';
import type { NotifyListener } from './db/notify-listener';
import { loadPersistedDocuments, trustedDocuments } from './graphql/trusted-documents';

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

export async function createGateway(config: Config, db: Database, services: Services, logger: Logger): Promise<Gateway> {
  const schema = await buildGatewaySchema();
  const app = express();
  const server = http.createServer(app);
  const metrics = createMetrics(metricsSources(db, services), logger);
  const drainer = new HttpDrainer(server);
  const health = new DatabaseHealth(db.ping);
  await health.start();
  const redisHealth = services.redis && new RedisHealth(services.redis);
  await redisHealth?.start();
  const lifecycle: Lifecycle = { migrated: false, shuttingDown: false };

  useSharedMiddleware(app, config, logger, metrics);
  mountHealth(app, lifecycle, health, redisHealth);
  const metricsServer = mountMetrics(app, config, metrics, logger);

  const whenReady = (_req: Request, res: Response, next: NextFunction) => (lifecycle.migrated ? next() : sendError(res, new ServiceUnavailableError(), logger));
  const trusted = trustedDocuments(config.trustedDocuments, persistedQueryCache(services.redis, config.redisKeyPrefix, logger), services, logger);
  const operations = loadOperations();
  const fixed = fixedDocuments(schema, [...loadPersistedDocuments().values(), ...operations.values()]);
  const apollo = createApolloServer(schema, { fixed, persistedQueries: trusted.persistedQueries, production: config.env === 'production', logger, metrics });
  await apollo.start();

  // Files come as multipart requests on both faces, streamed to storage: the file plus the body limit for the rest.
  const uploads = { maxFileBytes: config.uploadMaxBytes, maxRequestBytes: config.uploadMaxBytes + (bytes.parse(config.bodyLimit) ?? 0) };
  // The API; a worker process (ROLE=worker) mounts none of it and answers only health and metrics.
  const api = express.Router();
  mountGraphql(api, apollo, { services, whenReady, trusted: trusted.handlers, uploads, bodyLimit: config.graphqlBodyLimit });
  mountRest(api, schema, operations, { services, whenReady, uploads, bodyLimit: config.bodyLimit });
  if (config.role !== 'worker') app.use(api);
  // Subscriptions (WebSocket on /graphql) and the change feed's one listening connection, API role only.
  const live =
    config.role === 'worker'
      ? undefined
      : await startSubscriptions(server, drainer, db, services, schema, { documents: trusted.socketDocuments, fixed }, logger, metrics);
  app.use(routeNotFound(logger));
  app.use(transportErrorHandler(logger));

  return {
    app,
    server,
    metricsServer,
    schema,
    apollo,
    setReady: (value) => void (lifecycle.migrated = value),
    beginShutdown: () => void (lifecycle.shuttingDown = true),
    stop: (timeoutMs = 30_000) => stopGateway({ lifecycle, live, drainer, apollo, health, redisHealth, metricsServer, redis: services.redis }, timeoutMs),
  };
}

/** What the metrics read from the database and the services on each scrape. */
function metricsSources(db: Database, services: Services): MetricsSources {
  return {
    queryCount: db.queryCount,
    poolStats: db.poolStats,
    pendingPushes: () => services.notifications.pendingPushes(),
    liveSubscriptions: () => services.changes.size(),
  };
}

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
function mountMetrics(app: express.Express, config: Config, metrics: Metrics, logger: Logger): http.Server | undefined {
  const handlers = [
    (req: Request, res: Response, next: NextFunction) => {
      if (!config.metricsToken) return next();
      const given = Buffer.from(bearerToken(req.get('authorization')) ?? '');
      const expected = Buffer.from(config.metricsToken);
      if (given.length === expected.length && timingSafeEqual(given, expected)) return next();
      sendError(res, new UnauthenticatedError(), logger);
    },
    scrapeHandler(metrics.registry),
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
