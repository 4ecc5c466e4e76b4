import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../http/context';
import type { AuthUser } from '../domain/auth-user';
import { CurrentUser } from '../schema/current-user';
import { UpdateSettingsInput, UserSettings } from '../schema/settings.type';

@Resolver(() => UserSettings)
export class SettingsResolver {
  @Authorized()
  @Query(() => UserSettings, { description: "The authenticated user's settings (the defaults until changed)." })
  settings(@Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.settings.get(user.id);
  }

  @Authorized()
  @Mutation(() => UserSettings, { description: 'Change some settings; fields left out (or null) keep their value.' })
  updateSettings(
    @Arg('input', () => UpdateSettingsInput, { description: 'The settings to change.' }) input: UpdateSettingsInput,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.settings.update(user.id, input);
  }
}
