import { Authorized, Ctx, Query, Resolver } from 'type-graphql';
import type { Context } from '../http/context';
import type { AuthUser } from '../domain/auth-user';
import { CurrentUser } from '../schema/current-user';
import { Dashboard } from '../schema/dashboard.type';

@Resolver(() => Dashboard)
export class DashboardResolver {
  @Authorized()
  @Query(() => Dashboard, { description: 'The investment marketplace. Trends, activity and summary: the investor’s own; for staff, platform-wide.' })
  dashboard(@Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.dashboard.get(user);
  }
}
