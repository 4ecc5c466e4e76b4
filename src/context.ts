import type { Request } from 'express';
import type { AuthUser } from './domain/auth-user';
import type { Services } from './services';
import type { WatchOptions } from './services/change-feed';

export interface RequestMeta {
  ip: string;
  userAgent?: string;
  /** X-Request-Id: the caller's when well formed, else generated; on every log line of the request. */
  requestId: string;
}

/** The request facts the domain may record (audit, rate limits), read the same way on both faces. */
export function requestMeta(req: Request): RequestMeta {
  return { ip: req.ip ?? '', userAgent: req.get('user-agent'), requestId: String(req.id) };
}

/** What every resolver sees, whichever face the request came through. */
export interface Context {
  user: AuthUser | null;
  services: Services;
  request: RequestMeta;
  /** Set on the WebSocket face only: how far a subscriber may fall behind (src/subscriptions.ts). */
  live?: WatchOptions;
}

/**
 * The one context builder (bearer token → user) shared by /graphql and /api/v1. A bad token leaves
 * `user` null; protected fields then answer UNAUTHENTICATED (401 on REST).
 */
export async function buildContext(services: Services, authorization: string | undefined, request: RequestMeta): Promise<Context> {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  const user = match ? await services.auth.authenticate(match[1]) : null;
  return { user, services, request };
}
