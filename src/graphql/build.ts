import { defaultFieldResolver, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { buildSchema, type AuthChecker } from 'type-graphql';
import type { Context } from '../http/context';
import { pinToPrimary } from '../db/read-replicas';
import { ForbiddenError, UnauthenticatedError } from '../domain/errors';
import { resolvers } from '../resolvers';
import { withAuditOrigin } from '../services/audit.service';
import { withIdempotencyStep } from '../services/idempotency.service';
import '../schema/enums';
import { describeIdempotentFields, isIdempotentField } from '../schema/idempotent';
import { DateTimeScalar } from '../schema/scalars';

/** No user → 401; a user without one of the listed roles → 403 (our errors, not type-graphql's). */
const authChecker: AuthChecker<Context, string> = ({ context }, roles) => {
  if (!context.user) throw new UnauthenticatedError(context.authFailure);
  if (roles.length > 0 && !roles.includes(context.user.role)) throw new ForbiddenError();
  return true;
};

/**
 * Runs a root field with its request as the origin of the audit events it records (docs/audit.md).
 * Set on the query and mutation root fields once the schema is built, not as a type-graphql global
 * middleware: that one is dispatched on every resolved field of every object that is not a
 * simpleResolvers one (an async call and two promises each), which tripled a subscription event's
 * CPU (docs/benchmarks.md, "Code that exists for speed").
 */
const withOrigin =
  (resolve: GraphQLFieldResolver<unknown, Context>): GraphQLFieldResolver<unknown, Context> =>
  (root, args, context, info) => {
    const { user, request } = context;
    const origin = { actor: user && { id: user.id, role: user.role }, requestId: request.requestId, ip: request.ip, userAgent: request.userAgent };
    return withAuditOrigin(origin, () => resolve(root, args, context, info));
  };

/**
 * Runs an idempotent root field as one step of the key its request claimed, named by the field's
 * alias (a document may select several): its writes record their outcome under that name (writeOnce).
 */
const withIdempotency =
  (resolve: GraphQLFieldResolver<unknown, Context>): GraphQLFieldResolver<unknown, Context> =>
  (root, args, context, info) =>
    context.idempotency
      ? withIdempotencyStep({ ...context.idempotency, field: String(info.path.key) }, () => resolve(root, args, context, info))
      : resolve(root, args, context, info);

export async function buildGatewaySchema(): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    resolvers,
    authChecker,
    // Validation is opt-in in type-graphql 2: class-validator runs on every input and args type,
    // absent properties skipped, objects of classes without rules passed.
    validate: { skipMissingProperties: true, forbidUnknownValues: false },
    scalarsMap: [{ type: Date, scalar: DateTimeScalar }],
    // type-graphql wants a PubSub as soon as there is a @Subscription, even when each brings its own
    // `subscribe` (ours all do: they read the change feed, src/resolvers/subscription.resolver.ts).
    pubSub: {
      publish: () => {
        throw new Error('the change feed publishes (src/services/change-feed.ts)');
      },
      subscribe: () => {
        throw new Error('every subscription has its own subscribe');
      },
    },
  });
  for (const field of Object.values(schema.getQueryType()?.getFields() ?? {})) field.resolve = withOrigin(field.resolve ?? defaultFieldResolver);
  // A mutation reads what it wrote: its payload's fields too read the primary (DATABASE_READ_URLS).
  for (const field of Object.values(schema.getMutationType()?.getFields() ?? {})) {
    const own = field.resolve ?? defaultFieldResolver;
    const resolve = withOrigin(isIdempotentField(field) ? withIdempotency(own) : own);
    field.resolve = (root, args, context, info) => (pinToPrimary(), resolve(root, args, context, info));
  }
  return describeIdempotentFields(schema);
}
