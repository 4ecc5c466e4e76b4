import { createParameterDecorator } from 'type-graphql';
import type { Context } from '../http/context';
import type { AuthUser } from '../domain/auth-user';
import { UnauthenticatedError } from '../domain/errors';

/**
 * The signed-in user as a resolver parameter, never null. Meant next to @Authorized(), which has
 * already refused guests; on a field without it a guest gets UNAUTHENTICATED rather than a crash.
 */
export function CurrentUser(): ReturnType<typeof createParameterDecorator> {
  return createParameterDecorator<Context>(({ context }): AuthUser => {
    if (!context.user) throw new UnauthenticatedError(context.authFailure);
    return context.user;
  });
}
