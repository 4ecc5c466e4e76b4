import { Arg, Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../http/context';
import type { AuthUser } from '../domain/auth-user';
import { CurrentUser } from '../schema/current-user';
import { AuthPayload, LoginArgs, RefreshArgs, RegisterInput } from '../schema/auth.type';
import { User } from '../schema/user.type';
import { Idempotent } from '../schema/idempotent';

@Resolver()
export class AuthResolver {
  @Mutation(() => AuthPayload, { description: 'Exchange email and password for an access and a refresh token.' })
  login(@Args(() => LoginArgs) { email, password, deviceName }: LoginArgs, @Ctx() ctx: Context) {
    return ctx.services.auth.login(email, password, ctx.request.ip, deviceName);
  }

  @Idempotent()
  @Mutation(() => AuthPayload, { description: 'Create an investor account and log it in.' })
  register(
    @Arg('input', () => RegisterInput, { description: 'The new account; a registered email is BAD_USER_INPUT on email.' }) input: RegisterInput,
    @Arg('deviceName', () => String, { nullable: true, description: 'A label for the first session, e.g. "iPhone 15" (at most 255 characters).' })
    deviceName: string | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.auth.register(input, ctx.request.ip, deviceName);
  }

  @Mutation(() => AuthPayload, { description: 'Rotate a refresh token: the old one stops working; reusing it revokes the session.' })
  refreshToken(@Args(() => RefreshArgs) { refreshToken }: RefreshArgs, @Ctx() ctx: Context) {
    return ctx.services.auth.refresh(refreshToken);
  }

  @Authorized()
  @Mutation(() => Boolean, { description: "Revoke this session's access and refresh tokens." })
  logout(@Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.auth.logout(user);
  }

  @Authorized()
  @Query(() => User, { description: 'The authenticated user.' })
  me(@Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.auth.me(user.id);
  }
}
