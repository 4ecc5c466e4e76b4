import { Arg, Args, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import type { Context } from '../http/context';
import type { AuthUser } from '../domain/auth-user';
import { CurrentUser } from '../schema/current-user';
import { ChangePasswordInput, DeleteAccountArgs, ForgotPasswordArgs, ResetPasswordInput, UpdateProfileInput } from '../schema/account.type';
import { User } from '../schema/user.type';

@Resolver()
export class AccountResolver {
  @Mutation(() => Boolean, { description: 'Send a password reset token to the email. Answers true whether or not the email is registered.' })
  forgotPassword(@Args(() => ForgotPasswordArgs) { email }: ForgotPasswordArgs, @Ctx() ctx: Context) {
    return ctx.services.account.forgotPassword(email, ctx.request.ip);
  }

  @Mutation(() => Boolean, { description: 'Set a new password with a reset token (valid 60 minutes, once); every session of the user ends.' })
  resetPassword(
    @Arg('input', () => ResetPasswordInput, { description: 'Email, reset token and the new password twice; a wrong or used token is BAD_USER_INPUT on token.' })
    input: ResetPasswordInput,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.account.resetPassword(input, ctx.request.ip);
  }

  @Authorized()
  @Mutation(() => Boolean, { description: "Change the password; the user's other sessions end, this one stays." })
  changePassword(
    @Arg('input', () => ChangePasswordInput, { description: 'Current password and the new one twice.' }) input: ChangePasswordInput,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.account.changePassword(user, input);
  }

  @Authorized()
  @Mutation(() => User, { description: "Update the authenticated user's name and phone." })
  updateProfile(
    @Arg('input', () => UpdateProfileInput, { description: 'The profile fields to change.' }) input: UpdateProfileInput,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.account.updateProfile(user, input);
  }

  @Authorized()
  @Mutation(() => Boolean, {
    description: 'Close the account: personal data erased, every session ended. Refused (CONFLICT) while units are held or requests are pending.',
  })
  deleteAccount(@Args(() => DeleteAccountArgs) { password }: DeleteAccountArgs, @Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.account.deleteAccount(user, password);
  }
}
