import { DriverAdapterError } from '@prisma/driver-adapter-utils';
import { GraphQLError } from 'graphql';
import pino from 'pino';
import { ArgumentValidationError } from 'type-graphql';
import {
  ConflictError,
  DomainError,
  ForbiddenError,
  HttpError,
  InternalError,
  NotFoundError,
  RateLimitedError,
  ServiceUnavailableError,
  UnauthenticatedError,
  ValidationError,
  errorCode,
  graphqlErrorAnswer,
  normalizeError,
  toGraphQLError,
} from '../../src/errors';
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

  it('reads a lost connection that the driver adapter reported as unavailable, whichever query raised it', () => {
    // A raw statement (P2010) on a connection reset under it (issue 22: an audit INSERT answered 500).
    for (const kind of ['ConnectionClosed', 'DatabaseNotReachable', 'SocketTimeout', 'TooManyConnections'] as const) {
      const raw = new Prisma.PrismaClientKnownRequestError('Raw query failed. Code: `N/A`. Message: `Server has closed the connection.`', {
        code: 'P2010',
        clientVersion: Prisma.prismaVersion.client,
        meta: { driverAdapterError: new DriverAdapterError(kind === 'DatabaseNotReachable' ? { kind, host: 'db', port: 5432 } : ({ kind } as never)) },
      });
      expect(normalizeError(raw)).toBeInstanceOf(ServiceUnavailableError);
    }
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
  ] as [DomainError, number][])('answers %p with %p', (err, status) => {
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
