import type { ApolloServerPlugin } from '@apollo/server';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type Metric, type MetricValueWithName } from 'prom-client';
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

/** One label set's counts: per bucket (not cumulative), the sum and the count of what was observed. */
interface Series {
  labels: Record<string, string>;
  counts: Float64Array;
  sum: number;
  count: number;
}

/**
 * A histogram for what every request observes. prom-client's `observe` merges, validates and hashes
 * its label object and turns each bucket bound into a property name on every call, ~9 µs a request
 * in the gateway (docs/benchmarks.md); this one finds its series by the label values in a Map and
 * counts into an array. It registers with prom-client's Registry and hands it what prom-client's own
 * Histogram would (cumulative `_bucket`s with `le`, `_sum`, `_count`), so the exposition is the same
 * text (test/unit/latency-histogram.test.ts compares the two).
 */
export class LatencyHistogram {
  readonly type = 'histogram' as const;
  readonly aggregator = 'sum' as const;
  private readonly series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
    private readonly buckets: readonly number[],
    registry: Registry,
  ) {
    // The Registry reads name, type, help and get(); its type names prom-client's own classes only.
    registry.registerMetric(this as unknown as Metric);
  }

  /** One observation (seconds), with the values of `labelNames` in their order. */
  observe(values: readonly string[], seconds: number): void {
    const key = values.join('\n');
    let series = this.series.get(key);
    if (!series) {
      series = {
        labels: Object.fromEntries(this.labelNames.map((name, i) => [name, values[i]])),
        counts: new Float64Array(this.buckets.length),
        sum: 0,
        count: 0,
      };
      this.series.set(key, series);
    }
    let i = 0;
    while (i < this.buckets.length && seconds > this.buckets[i]) i++;
    if (i < this.buckets.length) series.counts[i]++;
    series.sum += seconds;
    series.count++;
  }

  /** What the Registry formats (prom-client's typings give `type` as an enum; at run time it is this text). */
  async get(): Promise<{ name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: MetricValueWithName<string>[] }> {
    const values: MetricValueWithName<string>[] = [];
    for (const { labels, counts, sum, count } of this.series.values()) {
      let cumulative = 0;
      this.buckets.forEach((le, i) => {
        cumulative += counts[i];
        values.push({ metricName: `${this.name}_bucket`, labels: { le, ...labels }, value: cumulative });
      });
      values.push({ metricName: `${this.name}_bucket`, labels: { le: '+Inf', ...labels }, value: count });
      values.push({ metricName: `${this.name}_sum`, labels, value: sum }, { metricName: `${this.name}_count`, labels, value: count });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}

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
  const duration = new LatencyHistogram(
    'http_request_duration_seconds',
    'HTTP request latency by method, route pattern (REST routes as in the route table) and status',
    ['method', 'route', 'status'],
    LATENCY_BUCKETS,
    registry,
  );
  return (req, res, next) => {
    const start = performance.now();
    res.on('finish', () => duration.observe([req.method, routeLabel(req, res), String(res.statusCode)], (performance.now() - start) / 1000));
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
  const operations = new LatencyHistogram(
    'graphql_operation_duration_seconds',
    'GraphQL operations on /graphql by operation name, type and outcome (ok or the first error code)',
    ['operation', 'type', 'outcome'],
    LATENCY_BUCKETS,
    registry,
  );
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
          operations.observe([operation, type, code === 'ok' || ERROR_CODE.test(code) ? code : 'OTHER'], (performance.now() - start) / 1000);
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
