import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { ArgumentValidationError } from 'type-graphql';
import { isConnectionLost } from '../db/pg-pool';
import {
  CodedError,
  InternalError,
  ServiceUnavailableError,
  UnauthenticatedError,
  ValidationError,
  type DomainErrorCode,
  type UnauthenticatedReason,
} from '../domain/errors';

/**
 * The one error boundary. Services throw DomainErrors (src/domain/errors.ts: a code, a message,
 * details), the HTTP edge of both faces throws the transport errors below; here both become GraphQL
 * errors (`extensions.code` plus the details), and the one table below gives each code its HTTP
 * status, for the REST face and for the HTTP edge of /graphql.
 */

/** Codes of the transport, raised only by the HTTP edge of either face (HttpError, PersistedDocumentError below). */
export type TransportErrorCode =
  | 'BAD_REQUEST'
  | 'METHOD_NOT_ALLOWED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  // The HTTP edge of /graphql: a malformed automatic persisted query, an answer over its size limit.
  | 'PERSISTED_QUERY_HASH_MISMATCH'
  | 'RESPONSE_TOO_LARGE'
  // TRUSTED_DOCUMENTS=only, on /graphql.
  | 'PERSISTED_DOCUMENT_REQUIRED'
  | 'PERSISTED_DOCUMENT_NOT_FOUND';

export type ErrorCode = DomainErrorCode | TransportErrorCode;

/** The one code table: the domain's codes and the transport's, each with its HTTP status. */
const HTTP_STATUS: Record<ErrorCode, number> = {
  // The domain's codes.
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  BAD_USER_INPUT: 422,
  RATE_LIMITED: 429,
  INTERNAL_SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  // The transport's codes.
  BAD_REQUEST: 400,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PERSISTED_QUERY_HASH_MISMATCH: 400,
  RESPONSE_TOO_LARGE: 400,
  PERSISTED_DOCUMENT_REQUIRED: 400,
  PERSISTED_DOCUMENT_NOT_FOUND: 400,
};

/** Every code of the gateway's own errors; docs/api.md "Error codes" is checked against this table. */
export const ERROR_CODES = Object.keys(HTTP_STATUS) as ErrorCode[];

export function httpStatus(code: ErrorCode): number {
  return HTTP_STATUS[code];
}

/** RFC 6750 §3.1 error_description (printable ASCII, no quotes): what the client should do next. */
const TOKEN_PROBLEMS: Record<UnauthenticatedReason, string> = {
  TOKEN_EXPIRED: 'The access token expired; refresh it',
  SESSION_REVOKED: 'The session of this token has ended (logout, password change or expiry); log in again',
  TOKEN_INVALID: 'The access token is malformed or its signature is not valid; log in again',
};

/**
 * The `WWW-Authenticate` challenge of a 401 (RFC 6750): `Bearer` alone when no token was sent, with
 * `error="invalid_token"` and a description when one was refused; undefined for any other error.
 */
export function bearerChallenge(e: CodedError<ErrorCode>): string | undefined {
  if (e.code !== 'UNAUTHENTICATED') return undefined;
  const reason = e instanceof UnauthenticatedError ? e.reason : undefined;
  return reason ? `Bearer error="invalid_token", error_description="${TOKEN_PROBLEMS[reason]}"` : 'Bearer';
}

/** Transport-level errors that only the REST face (or the HTTP edge of /graphql) can produce. */
export class HttpError extends CodedError<TransportErrorCode | 'NOT_FOUND'> {
  static routeNotFound = () => new HttpError('Route not found.', 'NOT_FOUND');
  static methodNotAllowed = (allow: string[]) => new HttpError('Method not allowed.', 'METHOD_NOT_ALLOWED', { allow });
  static malformedJson = () => new HttpError('Malformed JSON body.', 'BAD_REQUEST');
  static jsonTooDeep = (maxDepth: number) => new HttpError(`JSON nested deeper than ${maxDepth} levels.`, 'BAD_REQUEST', { maxDepth });
  static payloadTooLarge = () => new HttpError('Payload too large.', 'PAYLOAD_TOO_LARGE');
  static unsupportedMediaType = () => new HttpError('Unsupported media type.', 'UNSUPPORTED_MEDIA_TYPE');
  /** /graphql: what a request asked for does not fit in `maxBytes` of JSON. */
  static responseTooLarge = (maxBytes: number) =>
    new HttpError(`The answer is larger than ${maxBytes} bytes: ask for fewer items, fields or shorter aliases.`, 'RESPONSE_TOO_LARGE', { maxBytes });
  /** Automatic persisted queries: not an object, a version other than 1, a hash that is not the query's SHA-256. */
  static persistedQueryNotObject = () => new HttpError('extensions.persistedQuery must be an object: { version: 1, sha256Hash }.', 'BAD_REQUEST');
  static persistedQueryVersion = () => new HttpError('Unsupported persisted query version: only version 1 is supported.', 'BAD_REQUEST');
  static persistedQueryHashMismatch = () =>
    new HttpError('extensions.persistedQuery.sha256Hash is not the SHA-256 of the query text.', 'PERSISTED_QUERY_HASH_MISMATCH');
  /** A multipart body that cannot be parsed: no boundary, a truncated part, a request cut short. */
  static malformedMultipart = () => new HttpError('Malformed multipart body.', 'BAD_REQUEST');
  /** A subscription sent over HTTP: it has no events to give there. */
  static subscriptionOverHttp = () =>
    new HttpError('Subscriptions are served over WebSocket (graphql-transport-ws) at this same URL; POST /graphql runs queries and mutations.', 'BAD_REQUEST');
}

/** A domain or transport error in GraphQL's shape; `extensions` may add transport facts (Apollo's `http`). */
export function toGraphQLError(e: CodedError<ErrorCode>, extensions: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(e.message, { originalError: e, extensions: { code: e.code, ...e.details, ...extensions } });
}

/** The `extensions.code` anything thrown ends up with on the GraphQL face. */
export function errorCode(err: unknown): string {
  const e = normalizeError(err);
  return e instanceof CodedError ? e.code : String(e.extensions.code ?? 'INTERNAL_SERVER_ERROR');
}

/** A GraphQL-shaped answer for a request refused before Apollo saw it (upload, body parser). */
export function graphqlErrorAnswer(e: CodedError<ErrorCode>): { status: number; body: { errors: GraphQLFormattedError[] } } {
  return { status: httpStatus(e.code), body: { errors: [{ message: e.message, extensions: toGraphQLError(e).extensions }] } };
}

/** TRUSTED_DOCUMENTS=only refused a request without a staff token (docs/api.md "Persisted queries"). */
export class PersistedDocumentError extends CodedError<'PERSISTED_DOCUMENT_REQUIRED' | 'PERSISTED_DOCUMENT_NOT_FOUND'> {
  static required = () =>
    new PersistedDocumentError(
      'This gateway runs only persisted documents: send extensions.persistedQuery.sha256Hash from the client SDK manifest.',
      'PERSISTED_DOCUMENT_REQUIRED',
    );
  static notFound = () =>
    new PersistedDocumentError('Unknown persisted document: the id is not in the client SDK manifest this gateway trusts.', 'PERSISTED_DOCUMENT_NOT_FOUND');
}

/**
 * The database, not the request, failed: connection lost or refused, a timeout (statement, connect,
 * transaction), too many connections. Prisma codes: P1001 unreachable, P1002/P1008 timed out,
 * P1017 connection closed, P2024 pool timeout, P2028 transaction could not start or expired,
 * P2037 too many connections.
 */
const UNAVAILABLE_CODES = new Set(['57014', '25P03', '53300', 'P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028', 'P2037']);
/**
 * The same facts as Prisma's driver adapters name them (`meta.driverAdapterError.cause.kind`). A raw
 * query ($queryRaw, $executeRaw) carries them under the catch-all P2010 "Raw query failed", never P1001.
 */
const UNAVAILABLE_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'TransactionAlreadyClosed']);

type ErrorLike = {
  kind?: unknown;
  code?: unknown;
  cause?: unknown;
  errorCode?: unknown;
  originalCode?: unknown;
  name?: unknown;
  message?: unknown;
  meta?: { driverAdapterError?: unknown };
};

function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err as ErrorLike | undefined, depth = 0; e && depth < 6; e = (e.meta?.driverAdapterError ?? e.cause) as ErrorLike | undefined, depth++) {
    if (isConnectionLost(e)) return true;
    if ([e.code, e.errorCode, e.originalCode].some((c) => typeof c === 'string' && (UNAVAILABLE_CODES.has(c) || isConnectionLost({ code: c })))) return true;
    if (typeof e.kind === 'string' && UNAVAILABLE_KINDS.has(e.kind)) return true;
    if (e.name === 'PrismaClientInitializationError') return true;
    if (typeof e.message === 'string' && /PGlite is closed/i.test(e.message)) return true;
  }
  return false;
}

/**
 * Turns anything thrown into a domain or transport error. Unknown errors become INTERNAL_SERVER_ERROR (the caller
 * logs the original); an unreachable database becomes 503. GraphQL's own request errors (syntax,
 * unknown field) are returned as they are, with their own codes.
 */
export function normalizeError(err: unknown): CodedError<ErrorCode> | GraphQLError {
  let inner: unknown = err;
  while (inner instanceof GraphQLError && inner.originalError) inner = inner.originalError;
  if (inner instanceof CodedError) return inner;
  const validation = fromArgumentValidation(inner);
  if (validation) return validation;
  if (isDatabaseUnavailable(inner)) return new ServiceUnavailableError();
  // Request errors (syntax, validation, variable values that a scalar refused) are the client's:
  // they keep the code GraphQL gave them instead of being masked as a server failure.
  if (err instanceof GraphQLError && err.path === undefined && CLIENT_CODES.has(String(err.extensions.code))) return err;
  if (inner instanceof GraphQLError && !inner.originalError) return inner;
  return new InternalError();
}

const CLIENT_CODES = new Set(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'BAD_REQUEST', 'OPERATION_RESOLUTION_FAILURE']);

/** type-graphql's ArgumentValidationError (class-validator) → our ValidationError, field → messages. */
function fromArgumentValidation(err: unknown): ValidationError | undefined {
  if (!(err instanceof ArgumentValidationError)) return undefined;
  const list = err.extensions.validationErrors;
  // A validator that threw instead of answering is our bug: reported as such, never a crash here.
  if (!Array.isArray(list)) return undefined;
  return ValidationError.fromClassValidator(list);
}
