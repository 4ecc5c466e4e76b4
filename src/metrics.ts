import type { NextFunction, Request, Response } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics for operators: process defaults plus request latency per route and status. */
export function createMetrics(queryCount: () => number) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const graphqlErrors = new Counter({ name: 'graphql_errors_total', help: 'GraphQL errors by code', labelNames: ['code'] as const, registers: [registry] });

  new Gauge({
    name: 'db_queries_sent',
    help: 'SQL statements sent to the database since start',
    registers: [registry],
    collect() {
      this.set(queryCount());
    },
  });

  const middleware = (req: Request, res: Response, next: NextFunction) => {
    const stop = duration.startTimer({ method: req.method });
    res.on('finish', () => stop({ route: (res.locals.route as string | undefined) ?? (req.baseUrl || 'other'), status: String(res.statusCode) }));
    next();
  };
  return { registry, middleware, graphqlErrors };
}

export type Metrics = ReturnType<typeof createMetrics>;
