import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../http/context';
import { AppConfig, UpdateAppConfigInput } from '../schema/app-config.type';
import { Role } from '../schema/enums';

@Resolver(() => AppConfig)
export class AppConfigResolver {
  @Query(() => AppConfig, { description: 'Limits and options for the mobile app (public).' })
  appConfig(@Ctx() ctx: Context) {
    return ctx.services.appConfig.get();
  }

  @Authorized(Role.ADMIN)
  @Mutation(() => AppConfig, { description: 'Change the app configuration; fields left out (or null) keep their value. Admins only (others: FORBIDDEN).' })
  updateAppConfig(@Arg('input', () => UpdateAppConfigInput, { description: 'The fields to change.' }) input: UpdateAppConfigInput, @Ctx() ctx: Context) {
    return ctx.services.appConfig.update(input);
  }
}
