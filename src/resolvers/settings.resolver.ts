import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../context';
import { UpdateSettingsInput, UserSettings } from '../schema/settings.type';

@Resolver(() => UserSettings)
export class SettingsResolver {
  @Authorized()
  @Query(() => UserSettings, { description: "The authenticated user's settings (the defaults until changed)." })
  settings(@Ctx() ctx: Context) {
    return ctx.services.settings.get(ctx.user!.id);
  }

  @Authorized()
  @Mutation(() => UserSettings, { description: 'Change some settings; fields left out (or null) keep their value.' })
  updateSettings(@Arg('input', () => UpdateSettingsInput, { description: 'The settings to change.' }) input: UpdateSettingsInput, @Ctx() ctx: Context) {
    return ctx.services.settings.update(ctx.user!.id, input);
  }
}
