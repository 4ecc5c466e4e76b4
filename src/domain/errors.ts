/**
 * The domain's errors: what services raise, plain classes with a stable code, knowing nothing of
 * GraphQL or HTTP. Transport errors (a malformed body, a method a route lacks, …) are the HTTP
 * layer's, in src/http/errors.ts, which is also the one boundary: it turns both into GraphQL errors
 * (`extensions.code` plus `details`) and gives every code its HTTP status in one table.
 */
export type DomainErrorCode =
  'UNAUTHENTICATED' | 'FORBIDDEN' | 'NOT_FOUND' | 'CONFLICT' | 'BAD_USER_INPUT' | 'RATE_LIMITED' | 'INTERNAL_SERVER_ERROR' | 'SERVICE_UNAVAILABLE';

/** An error with a stable code: the base of the domain's errors and of the HTTP layer's transport errors, so the one boundary answers both. */
export class CodedError<Code extends string> extends Error {
  constructor(
    message: string,
    readonly code: Code,
    /** Machine-readable facts a client may act on (GraphQL: next to `code` in `extensions`). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** What services raise. INTERNAL_SERVER_ERROR is here too: a fault on our side is no transport's. */
export class DomainError extends CodedError<DomainErrorCode> {}

/**
 * Why a bearer token was refused, so a client knows what helps: TOKEN_EXPIRED → refresh;
 * SESSION_REVOKED (logout, password change, session ended, account deleted) → log in again;
 * TOKEN_INVALID (malformed, forged, signed by no key this gateway holds) → log in again.
 */
export type UnauthenticatedReason = 'TOKEN_EXPIRED' | 'SESSION_REVOKED' | 'TOKEN_INVALID';

/** No usable credentials; `reason` when a bearer token was sent but refused (none when it was missing). */
export class UnauthenticatedError extends DomainError {
  constructor(readonly reason?: UnauthenticatedReason) {
    super('Unauthenticated.', 'UNAUTHENTICATED', reason ? { reason } : {});
  }
}

export class ForbiddenError extends DomainError {
  constructor() {
    super('This action is unauthorized.', 'FORBIDDEN');
  }
}

/** Missing, or owned by someone else: the two are indistinguishable on purpose. */
export class NotFoundError extends DomainError {
  constructor() {
    super('Resource not found.', 'NOT_FOUND');
  }
}

export class ConflictError extends DomainError {
  constructor(message: string) {
    super(message, 'CONFLICT');
  }
}

export type FieldErrors = Record<string, string[]>;

interface ClassValidatorError {
  property: string;
  constraints?: Record<string, string>;
  children?: ClassValidatorError[];
}

/** Laravel-style: the first message, then "(and N more error[s])"; `fields` maps field → messages. */
export class ValidationError extends DomainError {
  constructor(readonly fields: FieldErrors) {
    super(ValidationError.summary(fields), 'BAD_USER_INPUT', { fields });
  }

  static summary(fields: FieldErrors): string {
    const all = Object.values(fields).flat();
    const more = all.length - 1;
    return more > 0 ? `${all[0]} (and ${more} more error${more === 1 ? '' : 's'})` : (all[0] ?? 'The given data was invalid.');
  }

  static field(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] });
  }

  /** class-validator's errors (nested inputs as `parent.child`) → field → messages. */
  static fromClassValidator(list: ClassValidatorError[]): ValidationError {
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
}

export class RateLimitedError extends DomainError {
  constructor(
    readonly retryAfterSeconds: number,
    readonly limit: number,
  ) {
    super('Too Many Attempts.', 'RATE_LIMITED', { retryAfter: retryAfterSeconds });
  }
}

export class InternalError extends DomainError {
  constructor() {
    super('Server Error.', 'INTERNAL_SERVER_ERROR');
  }
}

export class ServiceUnavailableError extends DomainError {
  constructor() {
    super('Service temporarily unavailable.', 'SERVICE_UNAVAILABLE');
  }
}
