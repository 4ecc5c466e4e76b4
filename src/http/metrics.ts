import type { ApolloServerPlugin } from '@apollo/server';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { PoolStats } from '../db/database';
import { BUILD_INFO } from '../platform/build-info';
import { errorCode } from './errors';

/** What the metrics read from the rest of the gateway, on each scrape. */
export interface MetricsSources {
  /** SQL statements sent since start. */
  queryCount(): number;
  /** Connection pool usage; undefined where there is no pool (embedded PGlite). */
  poolStats(): PoolStats | undefined;
  /** Push deliveries waiting in the outbox. */
  pendingPushes(): Promise<number>;
  /** Open subscriptions (change feed subscribers) of this instance. */
  liveSubscriptions(): number;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** Operation names are chosen by clients: past this many distinct names, new ones share one label. */
const MAX_OPERATION_NAMES = 100;
const OPERATION_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const ERROR_CODE = /^[A-Z_]{1,40}$/;

/** `/api/v1/distributions/:id` → `/api/v1/distributions/{id}`: the pattern, never the raw path. */
const routeLabel = (req: Request, res: Response): string => {
  const pattern = (res.locals.route as string | undefined) ?? (req.route ? `${req.baseUrl}${String(req.route.path)}` : req.baseUrl || 'unmatched');
  return pattern.includes(':') ? pattern.replace(/:(\w+)/g, '{$1}') : pattern;
};

/** Prometheus metrics for operators: process defaults, request latency, GraphQL operations, pool, outbox. */
export function createMetrics(sources: MetricsSources, logger: Logger) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Registered in the order the exposition lists them.
  const middleware = requestTimer(registry);
  const { graphqlErrors, apolloPlugin } = graphqlMetrics(registry);
  buildInfoGauge(registry);
  sourceGauges(registry, sources, logger);
  return { registry, middleware, graphqlErrors, apolloPlugin, live: liveMetrics(registry) };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** Times every HTTP request by method, route pattern and status (express middleware). */
export function requestTimer(registry: Registry): RequestHandler {
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route pattern (REST routes as in the route table) and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  return (req, res, next) => {
    const start = performance.now();
    res.on('finish', () =>
      duration.observe({ method: req.method, route: routeLabel(req, res), status: String(res.statusCode) }, (performance.now() - start) / 1000),
    );
    next();
  };
}

/** Client-chosen operation names as labels: each valid name until there are `MAX_OPERATION_NAMES`, then `(other)`. */
export function operationLabels(): (name: string | null | undefined) => string {
  const named = new Set<string>();
  return (name) => {
    if (!name) return '(anonymous)';
    if (named.has(name)) return name;
    if (!OPERATION_NAME.test(name) || named.size >= MAX_OPERATION_NAMES) return '(other)';
    named.add(name);
    return name;
  };
}

/** GraphQL errors by code (counted by the error formatter) and an Apollo plugin timing each /graphql operation. */
export function graphqlMetrics(registry: Registry) {
  const operations = new Histogram({
    name: 'graphql_operation_duration_seconds',
    help: 'GraphQL operations on /graphql by operation name, type and outcome (ok or the first error code)',
    labelNames: ['operation', 'type', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const graphqlErrors = new Counter({ name: 'graphql_errors_total', help: 'GraphQL errors by code', labelNames: ['code'] as const, registers: [registry] });
  const operationLabel = operationLabels();

  /** Times each /graphql operation; requests that never resolve an operation count as `(unknown)`. */
  const apolloPlugin: ApolloServerPlugin = {
    async requestDidStart() {
      const start = performance.now();
      let operation = '(unknown)';
      let type = 'unknown';
      return {
        async didResolveOperation(ctx) {
          operation = operationLabel(ctx.operationName);
          type = ctx.operation?.operation ?? 'unknown';
        },
        async willSendResponse(ctx) {
          const first = ctx.errors?.[0];
          const code = first ? errorCode(first) : 'ok';
          operations.observe({ operation, type, outcome: code === 'ok' || ERROR_CODE.test(code) ? code : 'OTHER' }, (performance.now() - start) / 1000);
        },
      };
    },
  };
  return { graphqlErrors, apolloPlugin };
}

/** Prometheus's convention for what is running: constant 1, the facts in the labels (join on them). */
export function buildInfoGauge(registry: Registry): void {
  new Gauge({
    name: 'build_info',
    help: 'The running build: package.json version, the commit it was built from (or unknown), the Node.js version',
    labelNames: ['version', 'commit', 'node_version'] as const,
    registers: [registry],
  }).set({ version: BUILD_INFO.version, commit: BUILD_INFO.commit, node_version: BUILD_INFO.nodeVersion }, 1);
}

/** Gauges read from the rest of the gateway on each scrape: statements sent, the pool, the push outbox, open subscriptions. */
export function sourceGauges(registry: Registry, sources: MetricsSources, logger: Logger): void {
  new Gauge({
    name: 'db_queries_sent',
    help: 'SQL statements sent to the database since start',
    registers: [registry],
    collect() {
      this.set(sources.queryCount());
    },
  });
  new Gauge({
    name: 'db_pool_connections',
    help: 'Database pool connections by state: total (open), idle, waiting (callers queued for one)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const stats = sources.poolStats();
      if (!stats) return;
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
  new Gauge({
    name: 'push_outbox_pending',
    help: 'Push deliveries waiting to be sent (read on each scrape)',
    registers: [registry],
    async collect() {
      try {
        this.set(await sources.pendingPushes());
      } catch (err) {
        // A scrape must not fail with the database: the gauge keeps its last value.
        logger.warn({ err }, 'push outbox backlog could not be read');
      }
    },
  });
  new Gauge({
    name: 'graphql_subscriptions_open',
    help: 'GraphQL subscriptions open on this instance (WebSocket)',
    registers: [registry],
    collect() {
      this.set(sources.liveSubscriptions());
    },
  });
}

/** Live updates over WebSocket (src/graphql/subscriptions.ts, docs/operations.md "Subscriptions"). */
export function liveMetrics(registry: Registry) {
  return {
    sockets: new Gauge({ name: 'graphql_ws_sockets_open', help: 'WebSocket connections open on /graphql', registers: [registry] }),
    published: new Counter({
      name: 'change_feed_events_received_total',
      help: 'Committed changes this instance received from the database (LISTEN), by type',
      labelNames: ['type'] as const,
      registers: [registry],
    }),
    delivered: new Counter({
      name: 'graphql_subscription_events_delivered_total',
      help: 'Subscription events sent to a subscriber, by field',
      labelNames: ['field'] as const,
      registers: [registry],
    }),
    dropped: new Counter({
      name: 'graphql_subscription_events_dropped_total',
      help: 'Subscription events not sent: slow_consumer (backlog or send buffer full), revoked (session ended), closed (socket gone)',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    lag: new Histogram({
      name: 'graphql_subscription_delivery_lag_seconds',
      help: 'From the commit (the database clock at NOTIFY) to the event leaving for the subscriber',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    closes: new Counter({
      name: 'graphql_ws_closes_total',
      help: 'WebSocket connections closed, by close code (4401 unauthorized, 4429 limits, 1009 message too big, 1013 slow consumer or database unavailable, ...; other codes as "other")',
      labelNames: ['code'] as const,
      registers: [registry],
    }),
    listenerLost: new Counter({
      name: 'change_feed_listener_lost_total',
      help: 'Times the change feed lost its LISTEN connection (it reconnects with back-off; changes in the gap are not delivered live)',
      registers: [registry],
    }),
  };
}

/** GET /metrics: the registry's exposition, collected now. */
export function scrapeHandler(registry: Registry): RequestHandler {
  return async (_req, res) => void res.type(registry.contentType).send(await registry.metrics());
}
