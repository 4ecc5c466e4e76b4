import type { Request } from 'express';
import type { AuthUser } from '../domain/auth-user';
import type { UnauthenticatedReason } from '../domain/errors';
import type { Upload } from './multipart';
import type { Services } from '../services';
import type { IdempotencyScope } from '../services/idempotency.service';
import type { WatchOptions } from '../services/change-feed';

export interface RequestMeta {
  ip: string;
  userAgent?: string;
  /** X-Request-Id: the caller's when well formed, else generated; on every log line of the request. */
  requestId: string;
}

/** The request facts the domain may record (audit, rate limits), read the same way on both faces. */
export function requestMeta(req: Request): RequestMeta {
  return { ip: req.ip ?? '', userAgent: headerText(req.get('user-agent')), requestId: String(req.id) };
}

/**
 * A header value as the client wrote it. Node reads each header byte as one latin-1 character, but
 * clients send UTF-8 ("é" would read "Ã©"); bytes that are not UTF-8 become U+FFFD.
 */
export function headerText(value: string | undefined): string | undefined {
  // ASCII reads the same either way: the common case makes no copy.
  return value === undefined || !/[\x80-\xff]/.test(value) ? value : Buffer.from(value, 'latin1').toString('utf8');
}

/** What every resolver sees, whichever face the request came through. */
export interface Context {
  user: AuthUser | null;
  /** A bearer token was sent and refused: why (UNAUTHENTICATED then carries it). */
  authFailure?: UnauthenticatedReason;
  services: Services;
  request: RequestMeta;
  /**
   * The Idempotency-Key this request claimed, set by the transport once it holds it (REST router,
   * GraphQL plugin); idempotent root fields hand it to their writes (src/graphql/build.ts).
   */
  idempotency?: IdempotencyScope;
  /** A multipart request's files (GraphQL multipart request spec), for the idempotency fingerprint. */
  uploads?: readonly Upload[];
  /** Set on the WebSocket face only: how far a subscriber may fall behind (src/graphql/subscriptions.ts). */
  live?: WatchOptions;
}

/**
 * The token of an `Authorization: Bearer <token>` value, the one reading of it for every face
 * (/graphql, /api/v1, the WebSocket's connection_init, /metrics): the scheme in any case, then
 * whitespace, then one token without whitespace, and nothing else. Anything else — another scheme,
 * no token, a second word, a value that is not a string — is no token.
 */
export function bearerToken(authorization: unknown): string | undefined {
  return typeof authorization === 'string' ? /^Bearer\s+(\S+)$/i.exec(authorization)?.[1] : undefined;
}

/**
 * The one context builder (bearer token → user) shared by /graphql and /api/v1. A bad token leaves
 * `user` null and says why in `authFailure`; protected fields then answer UNAUTHENTICATED with that
 * reason (401 on REST).
 */
export async function buildContext(services: Services, authorization: string | undefined, request: RequestMeta): Promise<Context> {
  return tokenContext(services, bearerToken(authorization), request);
}

/** buildContext for a token already read from its carrier (the WebSocket's connection_init payload, which also needs the token itself). */
export async function tokenContext(services: Services, token: string | undefined, request: RequestMeta): Promise<Context> {
  const auth = token ? await services.auth.identify(token) : undefined;
  return { user: auth?.user ?? null, authFailure: auth?.failure, services, request };
}
