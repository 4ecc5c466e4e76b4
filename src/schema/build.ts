import type { GraphQLSchema } from 'graphql';
import { buildSchema, type AuthChecker, type MiddlewareFn } from 'type-graphql';
import type { Context } from '../context';
import { onPrimary } from '../db/read-replicas';
import { ForbiddenError, UnauthenticatedError } from '../errors';
import { resolvers } from '../resolvers';
import { withAuditOrigin } from '../services/audit.service';
import './enums';
import { describeIdempotentFields } from './idempotent';
import { DateTimeScalar } from './scalars';

/** No user → 401; a user without one of the listed roles → 403 (our errors, not type-graphql's). */
const authChecker: AuthChecker<Context, string> = ({ context }, roles) => {
  if (!context.user) throw new UnauthenticatedError();
  if (roles.length > 0 && !roles.includes(context.user.role)) throw new ForbiddenError();
  return true;
};

/** Each root field runs with its request as the origin of the audit events it records (docs/audit.md). */
const auditOrigin: MiddlewareFn<Context> = ({ context, info }, next) => {
  if (info.path.prev !== undefined) return next();
  const { user, request } = context;
  return withAuditOrigin({ actor: user && { id: user.id, role: user.role }, requestId: request.requestId, ip: request.ip, userAgent: request.userAgent }, next);
};

/**
 * A mutation reads what it wrote: each of its fields (the payload's nested ones too) resolves with
 * every read on the primary, never a replica that may lag (DATABASE_READ_URLS, src/db/read-replicas.ts).
 */
const mutationsReadPrimary: MiddlewareFn<Context> = ({ info }, next) => (info.operation.operation === 'mutation' ? onPrimary(next) : next());

export function buildGatewaySchema(): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers,
    authChecker,
    // Validation is opt-in in type-graphql 2: class-validator runs on every input and args type.
    validate: { forbidUnknownValues: false },
    scalarsMap: [{ type: Date, scalar: DateTimeScalar }],
    globalMiddlewares: [auditOrigin, mutationsReadPrimary],
  }).then(describeIdempotentFields);
}
