import { DriverAdapterError } from '@prisma/driver-adapter-utils';
import { GraphQLError } from 'graphql';
import pg from 'pg';
import pino from 'pino';
import { ArgumentValidationError } from 'type-graphql';
import {
  CodedError,
  ConflictError,
  DomainError,
  ForbiddenError,
  InternalError,
  NotFoundError,
  RateLimitedError,
  ServiceUnavailableError,
  UnauthenticatedError,
  ValidationError,
} from '../../src/domain/errors';
import { HttpError, PersistedDocumentError, errorCode, graphqlErrorAnswer, normalizeError, toGraphQLError, type ErrorCode } from '../../src/http/errors';
import { Prisma } from '../../src/generated/prisma/client';
import { errorAnswer } from '../../src/rest/respond';

const logger = pino({ level: 'silent' });
const rest = (err: unknown) => {
  const answer = errorAnswer(err, logger);
  return { status: answer.status, headers: answer.headers, body: JSON.parse(answer.body) as Record<string, unknown> };
};

describe('domain errors', () => {
  it('know nothing of transports: plain Errors with a stable code', () => {
    const e = new NotFoundError();
    expect(e).toBeInstanceOf(Error);
    expect(e).not.toBeInstanceOf(GraphQLError);
    expect(e).not.toHaveProperty('status');
    expect(e.code).toBe('NOT_FOUND');
  });

  it('sum up field errors the Laravel way', () => {
    expect(new ValidationError({ a: ['First.'], b: ['Second.', 'Third.'] }).message).toBe('First. (and 2 more errors)');
    expect(new ValidationError({ a: ['Only.'] }).message).toBe('Only.');
    expect(new ValidationError({}).message).toBe('The given data was invalid.');
  });

  it('leave failures of the transport to the HTTP layer: its errors share only the coded base', () => {
    for (const e of [HttpError.methodNotAllowed(['GET']), HttpError.responseTooLarge(1), PersistedDocumentError.required()]) {
      expect(e).toBeInstanceOf(CodedError);
      expect(e).not.toBeInstanceOf(DomainError);
    }
  });
});

describe('the GraphQL face', () => {
  it('carries the code and the details in extensions', () => {
    expect(toGraphQLError(new RateLimitedError(30, 5)).extensions).toEqual({ code: 'RATE_LIMITED', retryAfter: 30 });
    expect(toGraphQLError(ValidationError.field('email', 'Taken.')).extensions).toEqual({ code: 'BAD_USER_INPUT', fields: { email: ['Taken.'] } });
  });

  it('finds the domain error inside what graphql-js wrapped around it', () => {
    const inner = new ConflictError('No.');
    expect(normalizeError(new GraphQLError('wrapped', { originalError: inner }))).toBe(inner);
    expect(errorCode(new GraphQLError('wrapped', { originalError: inner }))).toBe('CONFLICT');
  });

  it('masks what nobody expected, and reads a lost database as unavailable', () => {
    expect(normalizeError(new TypeError('x is undefined'))).toBeInstanceOf(InternalError);
    expect(normalizeError(Object.assign(new Error('timed out'), { code: 'P2024' }))).toBeInstanceOf(ServiceUnavailableError);
    expect(normalizeError(new Error('wrapped', { cause: { code: '57014' } }))).toBeInstanceOf(ServiceUnavailableError);
  });

  it("keeps GraphQL's own request errors with their codes", () => {
    const syntax = new GraphQLError('Syntax Error', { extensions: { code: 'GRAPHQL_PARSE_FAILED' } });
    expect(normalizeError(syntax)).toBe(syntax);
    expect(errorCode(syntax)).toBe('GRAPHQL_PARSE_FAILED');
  });

  it("turns type-graphql's argument validation into field errors, nested inputs dotted", () => {
    const err = new ArgumentValidationError([
      { property: 'input', children: [{ property: 'email', constraints: { isEmail: 'email must be an email' }, children: [] }] },
    ] as never);
    const e = normalizeError(err);
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).fields).toEqual({ 'input.email': ['email must be an email'] });
  });

  it('answers a request refused before Apollo in the GraphQL shape with its status', () => {
    expect(graphqlErrorAnswer(HttpError.payloadTooLarge())).toEqual({
      status: 413,
      body: { errors: [{ message: 'Payload too large.', extensions: { code: 'PAYLOAD_TOO_LARGE' } }] },
    });
  });
});

describe('the REST face', () => {
  it.each([
    [new UnauthenticatedError(), 401],
    [new ForbiddenError(), 403],
    [new NotFoundError(), 404],
    [new ConflictError('Taken.'), 409],
    [ValidationError.field('x', 'Bad.'), 422],
    [new RateLimitedError(1, 1), 429],
    [new InternalError(), 500],
    [new ServiceUnavailableError(), 503],
    [HttpError.malformedJson(), 400],
    [HttpError.methodNotAllowed(['GET']), 405],
    [HttpError.payloadTooLarge(), 413],
    [HttpError.unsupportedMediaType(), 415],
  ] as [CodedError<ErrorCode>, number][])('answers %p with %p', (err, status) => {
    expect(rest(err)).toMatchObject({ status, body: { success: false, message: err.message } });
  });

  it('snake-cases the field names of a validation error', () => {
    expect(rest(new ValidationError({ 'input.unitId': ['Required.'], perPage: ['Too big.'] })).body.errors).toEqual({
      'input.unit_id': ['Required.'],
      per_page: ['Too big.'],
    });
  });

  it('tells a rate-limited client when to come back, and a wrong method which methods there are', () => {
    expect(rest(new RateLimitedError(42, 5)).headers).toEqual({ 'Retry-After': '42', 'X-RateLimit-Limit': '5', 'X-RateLimit-Remaining': '0' });
    expect(rest(HttpError.methodNotAllowed(['GET', 'HEAD'])).headers).toEqual({ Allow: 'GET, HEAD' });
  });

  it('answers an unexpected error, even a GraphQL request error, with 500 and no detail', () => {
    expect(rest(new Error('secret detail'))).toEqual({ status: 500, headers: {}, body: { success: false, message: 'Server Error.' } });
    expect(rest(new GraphQLError('Cannot query field', { extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })).status).toBe(500);
  });
});

/**
 * Every shape in which a client says "the database cannot be reached" is 503, never 500 (issue 22,
 * finding 12: a replica read through $queryRaw answered 500). The shapes are the ones each client
 * raises: pg's socket and server errors, pg-pool's, Prisma's model API and raw queries (driver adapter
 * errors under P2010), Prisma's start-up error, PGlite closed, and any of them wrapped by graphql-js.
 */
describe('a database that cannot be reached, whichever client says so', () => {
  const socketError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, errno: -1, syscall: 'connect' });
  const serverError = (code: string) =>
    Object.assign(new pg.DatabaseError('terminating connection due to administrator command', 0, 'error'), { code, severity: 'FATAL' });
  const known = (code: string, meta?: Record<string, unknown>) =>
    new Prisma.PrismaClientKnownRequestError(`\nInvalid \`prisma.$queryRaw()\` invocation:\n\n\nRaw query failed.`, { code, clientVersion: '7', meta });
  const adapter = (cause: Record<string, unknown>) => ({ driverAdapterError: new DriverAdapterError(cause as never) });

  it.each<[string, unknown]>([
    ...['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'].map((c): [string, unknown] => [
      `pg socket ${c}`,
      socketError(c),
    ]),
    ...['57P01', '57P02', '57P03', '08006', '08001', '53300', '57014', '25P03'].map((c): [string, unknown] => [`server ${c}`, serverError(c)]),
    ['pg: connection ended', new Error('Connection terminated unexpectedly')],
    ['pg: connect timeout', new Error('Connection terminated due to connection timeout', { cause: new Error('Connection terminated unexpectedly') })],
    ['pg-pool: no free connection in time', new Error('timeout exceeded when trying to connect')],
    ['pg: broken client', new Error('Client has encountered a connection error and is not queryable')],
    ['pg-pool: ended', new Error('Cannot use a pool after calling end on the pool')],
    ['the pool watchdog', Object.assign(new Error('Database did not answer within 2000 ms'), { code: 'ETIMEDOUT' })],
    ['model API: unreachable (P1001)', known('P1001', { modelName: 'User', ...adapter({ kind: 'DatabaseNotReachable', host: 'replica', port: 5432 }) })],
    ...['P1002', 'P1008', 'P1017', 'P2024', 'P2028', 'P2037'].map((c): [string, unknown] => [`Prisma ${c}`, known(c)]),
    ...['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'TransactionAlreadyClosed'].map((kind): [string, unknown] => [
      `raw query (P2010): ${kind}`,
      known('P2010', adapter({ kind, cause: 'x' })),
    ]),
    [
      'raw query (P2010): the server ended the session',
      known('P2010', adapter({ kind: 'postgres', code: '57P01', severity: 'FATAL', message: 'terminating connection' })),
    ],
    ['a socket error as the cause', new Error('query failed', { cause: socketError('ECONNREFUSED') })],
    ['start-up', new Prisma.PrismaClientInitializationError("Can't reach database server at replica:5432", '7', 'P1001')],
    ['PGlite closed', new Error('PGlite is closed')],
    [
      'wrapped by graphql-js',
      new GraphQLError('Raw query failed.', { originalError: known('P2010', adapter({ kind: 'DatabaseNotReachable', host: 'replica' })) }),
    ],
  ])('%s → 503 on both faces', (_label, err) => {
    expect(normalizeError(err)).toBeInstanceOf(ServiceUnavailableError);
    expect(rest(err)).toEqual({ status: 503, headers: {}, body: { success: false, message: 'Service temporarily unavailable.' } });
  });

  it.each<[string, unknown]>([
    ['unique violation (P2002)', known('P2002', adapter({ kind: 'UniqueConstraintViolation', constraint: { fields: ['email'] } }))],
    ['record not found (P2025)', known('P2025')],
    [
      'raw query (P2010): a missing table',
      known('P2010', adapter({ kind: 'postgres', code: '42P01', severity: 'ERROR', message: 'relation "x" does not exist' })),
    ],
    ['raw query (P2010): a bad value', known('P2010', adapter({ kind: 'InvalidInputValue', message: 'invalid input syntax' }))],
    ['server: syntax error', serverError('42601')],
    ['a bug', new TypeError('x is undefined')],
  ])('%s stays a server error (500), not an outage', (_label, err) => {
    expect(normalizeError(err)).toBeInstanceOf(InternalError);
  });
});
