import { GraphQLError } from 'graphql';
import { ArgumentValidationError } from 'type-graphql';
import { isConnectionLost } from './db/pg-pool';

/**
 * The one error module. Each error is a GraphQLError with `extensions.code` (GraphQL face) and an
 * HTTP status plus the contract's sentence (REST face, mapped once in src/rest/respond.ts).
 */
export class AppError extends GraphQLError {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
    extensions: Record<string, unknown> = {},
  ) {
    super(message, { extensions: { code, ...extensions } });
  }
}

export class UnauthenticatedError extends AppError {
  constructor() {
    super('Unauthenticated.', 'UNAUTHENTICATED', 401);
  }
}

export class ForbiddenError extends AppError {
  constructor() {
    super('This action is unauthorized.', 'FORBIDDEN', 403);
  }
}

/** Missing, or owned by someone else: the two are indistinguishable on purpose. */
export class NotFoundError extends AppError {
  constructor() {
    super('Resource not found.', 'NOT_FOUND', 404);
  }
}

export class ConflictError extends AppError {
  constructor(message: string) {
    super(message, 'CONFLICT', 409);
  }
}

export type FieldErrors = Record<string, string[]>;

/** Laravel-style: the first message, then "(and N more error[s])"; `fields` maps field → messages. */
export class ValidationError extends AppError {
  constructor(readonly fields: FieldErrors) {
    super(ValidationError.summary(fields), 'BAD_USER_INPUT', 422, { fields });
  }

  static summary(fields: FieldErrors): string {
    const all = Object.values(fields).flat();
    const more = all.length - 1;
    return more > 0 ? `${all[0]} (and ${more} more error${more === 1 ? '' : 's'})` : (all[0] ?? 'The given data was invalid.');
  }

  static field(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] });
  }
}

export class RateLimitedError extends AppError {
  constructor(
    readonly retryAfterSeconds: number,
    readonly limit: number,
  ) {
    super('Too Many Attempts.', 'RATE_LIMITED', 429, { retryAfter: retryAfterSeconds });
  }
}

export class InternalError extends AppError {
  constructor() {
    super('Server Error.', 'INTERNAL_SERVER_ERROR', 500);
  }
}

export class ServiceUnavailableError extends AppError {
  constructor() {
    super('Service temporarily unavailable.', 'SERVICE_UNAVAILABLE', 503);
  }
}

/** Transport-level errors that only the REST face can produce. */
export class HttpError extends AppError {
  static routeNotFound = () => new HttpError('Route not found.', 'NOT_FOUND', 404);
  static methodNotAllowed = (allow: string[]) => new HttpError('Method not allowed.', 'METHOD_NOT_ALLOWED', 405, { allow });
  static malformedJson = () => new HttpError('Malformed JSON body.', 'BAD_REQUEST', 400);
  static payloadTooLarge = () => new HttpError('Payload too large.', 'PAYLOAD_TOO_LARGE', 413);
  static unsupportedMediaType = () => new HttpError('Unsupported media type.', 'UNSUPPORTED_MEDIA_TYPE', 415);
  /** A multipart body that cannot be parsed: no boundary, a truncated part, a request cut short. */
  static malformedMultipart = () => new HttpError('Malformed multipart body.', 'BAD_REQUEST', 400);
}

/** TRUSTED_DOCUMENTS=only refused a request without a staff token (docs/api.md "Persisted queries"). */
export class PersistedDocumentError extends AppError {
  private constructor(message: string, code: string) {
    super(message, code, 400);
  }
  static required = () => new PersistedDocumentError('This gateway runs only persisted documents: send extensions.persistedQuery.sha256Hash from the client SDK manifest.', 'PERSISTED_DOCUMENT_REQUIRED');
  static notFound = () => new PersistedDocumentError('Unknown persisted document: the id is not in the client SDK manifest this gateway trusts.', 'PERSISTED_DOCUMENT_NOT_FOUND');
}

/**
 * The database, not the request, failed: connection lost or refused, a timeout (statement, connect,
 * transaction), too many connections. Prisma codes: P1001 unreachable, P1002/P1008 timed out,
 * P1017 connection closed, P2024 pool timeout, P2028 transaction could not start or expired,
 * P2037 too many connections.
 */
const UNAVAILABLE_CODES = new Set(['57014', '25P03', '53300', 'P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028', 'P2037']);

type ErrorLike = { code?: unknown; cause?: unknown; errorCode?: unknown; originalCode?: unknown; name?: unknown; message?: unknown; meta?: { driverAdapterError?: unknown } };

function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err as ErrorLike | undefined, depth = 0; e && depth < 6; e = (e.meta?.driverAdapterError ?? e.cause) as ErrorLike | undefined, depth++) {
    if (isConnectionLost(e)) return true;
    if ([e.code, e.errorCode, e.originalCode].some((c) => typeof c === 'string' && (UNAVAILABLE_CODES.has(c) || isConnectionLost({ code: c })))) return true;
    if (e.name === 'PrismaClientInitializationError') return true;
    if (typeof e.message === 'string' && /PGlite is closed/i.test(e.message)) return true;
  }
  return false;
}

/**
 * Turns anything thrown into an AppError. Unknown errors become INTERNAL_SERVER_ERROR (the caller
 * logs the original); an unreachable database becomes 503. GraphQL's own request errors (syntax,
 * unknown field) are returned as they are, with their own codes.
 */
export function normalizeError(err: unknown): AppError | GraphQLError {
  let inner: unknown = err;
  while (inner instanceof GraphQLError && inner.originalError && !(inner instanceof AppError)) inner = inner.originalError;
  if (inner instanceof AppError) return inner;
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

interface ClassValidatorError {
  property: string;
  constraints?: Record<string, string>;
  children?: ClassValidatorError[];
}

/** type-graphql's ArgumentValidationError (class-validator) → our ValidationError, field → messages. */
function fromArgumentValidation(err: unknown): ValidationError | undefined {
  if (!(err instanceof ArgumentValidationError)) return undefined;
  const list = err.extensions.validationErrors as ClassValidatorError[] | undefined;
  // A validator that threw instead of answering is our bug: reported as such, never a crash here.
  if (!Array.isArray(list)) return undefined;
  const fields: FieldErrors = {};
  const walk = (errors: ClassValidatorError[], prefix: string) => {
    for (const v of errors) {
      const name = prefix ? `${prefix}.${v.property}` : v.property;
      if (v.constraints) fields[name] = Object.values(v.constraints);
      if (v.children?.length) walk(v.children, name);
    }
  };
  walk(list, '');
  return new ValidationError(fields);
}
