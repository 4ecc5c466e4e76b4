import type { Role } from './generated/prisma/enums';
import type { Services } from './services';

export interface AuthUser {
  id: number;
  role: Role;
  /** Set for investors: the owner key of every investor-scoped row. */
  investorId: number | null;
  sessionId: string;
}

export interface RequestMeta {
  ip: string;
  userAgent?: string;
  /** The caller's `X-Request-Id`, when well-formed (recorded on audit events). */
  requestId?: string;
}

/** Printable ASCII without spaces, 1..128 characters: anything else is not taken as a request id. */
const REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/** The request facts both faces put into the context (client IP as `trust proxy` sees it). */
export function requestMeta(req: { ip?: string; get(name: string): string | undefined }): RequestMeta {
  const requestId = req.get('x-request-id');
  return { ip: req.ip ?? '', userAgent: req.get('user-agent'), requestId: requestId && REQUEST_ID.test(requestId) ? requestId : undefined };
}

/** What every resolver sees, whichever face the request came through. */
export interface Context {
  user: AuthUser | null;
  services: Services;
  request: RequestMeta;
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
