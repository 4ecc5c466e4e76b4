import { GraphQLBoolean, GraphQLError, GraphQLObjectType, GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import { InternalError, NotFoundError, ServiceUnavailableError, UnauthenticatedError } from '../../src/domain/errors';
import { fixedDocuments } from '../../src/graphql/compiled-execution';
import { createApolloServer, withHttpStatus } from '../../src/graphql/server';
import type { Context } from '../../src/http/context';
import { HttpError } from '../../src/http/errors';
import { graphqlMetrics } from '../../src/http/metrics';

/** One field per outcome: an answer, a domain error, an unreachable database, a broken upload, a fault of ours. */
const throwing = (error: Error) => ({
  type: GraphQLBoolean,
  resolve: () => {
    throw error;
  },
});
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      ok: { type: GraphQLBoolean, resolve: () => true },
      missing: throwing(new NotFoundError()),
      unavailable: throwing(new ServiceUnavailableError()),
      tooLarge: throwing(HttpError.payloadTooLarge()),
      failing: throwing(new InternalError()),
    },
  }),
});

const logger = { error: jest.fn() };
const registry = new Registry();
const apollo = createApolloServer(schema, {
  fixed: fixedDocuments(schema, []),
  persistedQueries: false,
  production: false,
  logger: logger as unknown as Logger,
  metrics: graphqlMetrics(registry),
});
beforeAll(() => apollo.start());
afterAll(() => apollo.stop());
beforeEach(() => logger.error.mockClear());

async function run(query: string) {
  const response = await apollo.executeOperation({ query }, { contextValue: { user: null } as Context });
  if (response.body.kind !== 'single') throw new Error('expected a single result');
  return { status: response.http.status, cacheControl: response.http.headers.get('cache-control'), result: response.body.singleResult };
}

describe("the gateway's Apollo server", () => {
  it('answers no-store', async () => {
    expect(await run('{ ok }')).toEqual({ status: undefined, cacheControl: 'no-store', result: { data: { ok: true } } });
  });

  it('gives domain errors their code and message, with HTTP 200 as GraphQL does, and counts them', async () => {
    const { status, result } = await run('{ missing }');
    expect(status).toBeUndefined();
    expect(result.errors).toEqual([
      { message: 'Resource not found.', locations: [{ line: 1, column: 3 }], path: ['missing'], extensions: { code: 'NOT_FOUND' } },
    ]);
    expect(await registry.getSingleMetricAsString('graphql_errors_total')).toContain('graphql_errors_total{code="NOT_FOUND"} 1');
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('answers an unreachable database with 503 and a broken upload with its own status', async () => {
    const unavailable = await run('{ unavailable }');
    expect(unavailable.status).toBe(503);
    expect(unavailable.result.errors?.[0].extensions).toEqual({ code: 'SERVICE_UNAVAILABLE' });
    const tooLarge = await run('{ tooLarge }');
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.result.errors?.[0].extensions).toEqual({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('logs the errors that are faults (5xx)', async () => {
    expect((await run('{ failing }')).result.errors?.[0].extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR' });
    expect(logger.error).toHaveBeenCalledWith({ err: expect.any(InternalError) }, 'GraphQL resolver failed');
  });
});

describe('withHttpStatus', () => {
  it("puts a refused context's status where Apollo reads it", () => {
    const err = withHttpStatus(new UnauthenticatedError());
    expect(err).toBeInstanceOf(GraphQLError);
    expect((err as GraphQLError).extensions).toMatchObject({ code: 'UNAUTHENTICATED', http: { status: 401 } });
  });
});
