import { Authorized, Ctx, Query, Resolver } from 'type-graphql';
import type { Context } from '../context';
import { Dashboard } from '../schema/dashboard.type';

@Resolver(() => Dashboard)
export class DashboardResolver {
  @Authorized()
  @Query(() => Dashboard, { description: 'The investment marketplace. Trends, activity and summary: the investor’s own; for staff, platform-wide.' })
  dashboard(@Ctx() ctx: Context) {
    return ctx.services.dashboard.get(ctx.user!);
  }
}
