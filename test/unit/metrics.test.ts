import { EventEmitter } from 'node:events';
import { ApolloServer } from '@apollo/server';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import { NotFoundError } from '../../src/domain/errors';
import { buildInfoGauge, graphqlMetrics, operationLabels, requestTimer, scrapeHandler, sourceGauges, type MetricsSources } from '../../src/http/metrics';
import { BUILD_INFO } from '../../src/platform/build-info';

/** One metric's exposition lines, without its HELP and TYPE lines. */
async function lines(registry: Registry, name: string): Promise<string[]> {
  return (await registry.getSingleMetricAsString(name)).split('\n').filter((line) => line && !line.startsWith('#'));
}

describe('requestTimer', () => {
  /** One finished request through the middleware: what express leaves on req and res by then. */
  async function timed(req: Partial<Request>, res: { statusCode: number; locals: Record<string, unknown> }): Promise<string[]> {
    const registry = new Registry();
    const response = Object.assign(new EventEmitter(), res);
    const next = jest.fn();
    requestTimer(registry)(req as Request, response as unknown as Response, next);
    expect(next).toHaveBeenCalledTimes(1);
    response.emit('finish');
    return (await lines(registry, 'http_request_duration_seconds')).filter((line) => line.includes('_count'));
  }

  it('labels a REST route by its route-table pattern, parameters in braces', async () => {
    expect(await timed({ method: 'GET', baseUrl: '/api/v1' }, { statusCode: 200, locals: { route: '/api/v1/units/:id' } })).toEqual([
      'http_request_duration_seconds_count{method="GET",route="/api/v1/units/{id}",status="200"} 1',
    ]);
  });

  it("labels an express route by its mount and path, and a request no route took as 'unmatched'", async () => {
    const route = { path: '/readyz' } as Request['route'];
    expect(await timed({ method: 'GET', baseUrl: '', route }, { statusCode: 503, locals: {} })).toEqual([
      'http_request_duration_seconds_count{method="GET",route="/readyz",status="503"} 1',
    ]);
    expect(await timed({ method: 'POST', baseUrl: '' }, { statusCode: 404, locals: {} })).toEqual([
      'http_request_duration_seconds_count{method="POST",route="unmatched",status="404"} 1',
    ]);
  });
});

describe('operationLabels', () => {
  it('keeps valid names until 100 are known, then gives new ones "(other)"; anonymous and overlong names collapse', () => {
    const label = operationLabels();
    expect(label(undefined)).toBe('(anonymous)');
    expect(label('x'.repeat(65))).toBe('(other)');
    for (let i = 0; i < 100; i++) expect(label(`Op${i}`)).toBe(`Op${i}`);
    expect(label('Op100')).toBe('(other)');
    expect(label('Op7')).toBe('Op7');
  });
});

describe('graphqlMetrics', () => {
  it('times each operation by name, type and outcome (the first error code)', async () => {
    const registry = new Registry();
    const { apolloPlugin } = graphqlMetrics(registry);
    const server = new ApolloServer({
      typeDefs: 'type Query { ok: Boolean, missing: Boolean }',
      resolvers: {
        Query: {
          ok: () => true,
          missing: () => {
            throw new NotFoundError();
          },
        },
      },
      plugins: [apolloPlugin],
    });
    await server.start();
    try {
      await server.executeOperation({ query: 'query Fine { ok }' });
      await server.executeOperation({ query: '{ missing }' });
      await server.executeOperation({ query: 'query Broken {' });
    } finally {
      await server.stop();
    }
    expect((await lines(registry, 'graphql_operation_duration_seconds')).filter((line) => line.includes('_count'))).toEqual([
      'graphql_operation_duration_seconds_count{operation="Fine",type="query",outcome="ok"} 1',
      'graphql_operation_duration_seconds_count{operation="(anonymous)",type="query",outcome="NOT_FOUND"} 1',
      'graphql_operation_duration_seconds_count{operation="(unknown)",type="unknown",outcome="GRAPHQL_PARSE_FAILED"} 1',
    ]);
  });

  it('counts errors by code', async () => {
    const registry = new Registry();
    graphqlMetrics(registry).graphqlErrors.inc({ code: 'NOT_FOUND' });
    expect(await lines(registry, 'graphql_errors_total')).toEqual(['graphql_errors_total{code="NOT_FOUND"} 1']);
  });
});

describe('buildInfoGauge', () => {
  it('is 1, the build in its labels', async () => {
    const registry = new Registry();
    buildInfoGauge(registry);
    expect(await lines(registry, 'build_info')).toEqual([
      `build_info{version="${BUILD_INFO.version}",commit="${BUILD_INFO.commit}",node_version="${BUILD_INFO.nodeVersion}"} 1`,
    ]);
  });
});

describe('sourceGauges', () => {
  const logger = { warn: jest.fn() };
  beforeEach(() => logger.warn.mockClear());

  function gauges(sources: Partial<MetricsSources>): Registry {
    const registry = new Registry();
    const all: MetricsSources = { queryCount: () => 0, poolStats: () => undefined, pendingPushes: async () => 0, liveSubscriptions: () => 0, ...sources };
    sourceGauges(registry, all, logger as unknown as Logger);
    return registry;
  }

  it('reads each source when scraped', async () => {
    let sent = 41;
    const registry = gauges({ queryCount: () => ++sent, pendingPushes: async () => 3, liveSubscriptions: () => 2 });
    expect(await lines(registry, 'db_queries_sent')).toEqual(['db_queries_sent 42']);
    expect(await lines(registry, 'db_queries_sent')).toEqual(['db_queries_sent 43']);
    expect(await lines(registry, 'push_outbox_pending')).toEqual(['push_outbox_pending 3']);
    expect(await lines(registry, 'graphql_subscriptions_open')).toEqual(['graphql_subscriptions_open 2']);
  });

  it('reports the pool by state where there is one, and no series where there is none', async () => {
    expect(await lines(gauges({ poolStats: () => ({ total: 5, idle: 2, waiting: 1 }) }), 'db_pool_connections')).toEqual([
      'db_pool_connections{state="total"} 5',
      'db_pool_connections{state="idle"} 2',
      'db_pool_connections{state="waiting"} 1',
    ]);
    expect(await lines(gauges({}), 'db_pool_connections')).toEqual([]);
  });

  it('keeps the outbox backlog it last read when the database does not answer, and logs a warning', async () => {
    let pending: () => Promise<number> = async () => 7;
    const registry = gauges({ pendingPushes: () => pending() });
    expect(await lines(registry, 'push_outbox_pending')).toEqual(['push_outbox_pending 7']);
    pending = () => Promise.reject(new Error('database unreachable'));
    expect(await lines(registry, 'push_outbox_pending')).toEqual(['push_outbox_pending 7']);
    expect(logger.warn).toHaveBeenCalledWith({ err: expect.any(Error) }, 'push outbox backlog could not be read');
  });
});

describe('scrapeHandler', () => {
  it("sends the registry's exposition as Prometheus text", async () => {
    const registry = new Registry();
    buildInfoGauge(registry);
    const res = { type: jest.fn().mockReturnThis(), send: jest.fn() };
    await scrapeHandler(registry)({} as Request, res as unknown as Response, jest.fn());
    expect(res.type).toHaveBeenCalledWith(registry.contentType);
    expect(res.send).toHaveBeenCalledWith(expect.stringContaining('# TYPE build_info gauge'));
  });
});
