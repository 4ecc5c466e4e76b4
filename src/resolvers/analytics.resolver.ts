import { Arg, Authorized, Ctx, Query, Resolver } from 'type-graphql';
import type { Context } from '../http/context';
import { CategoryAum, DistributionGrouping, DistributionTotal, DistributionTotalsFilter, WithdrawalVolume } from '../schema/analytics.type';
import { Role } from '../schema/enums';

@Resolver()
export class AnalyticsResolver {
  @Authorized(Role.ADMIN, Role.ANALYST)
  @Query(() => [CategoryAum], { description: 'Assets under management per category, by category name. Admins and analysts only (investors: FORBIDDEN).' })
  assetsUnderManagement(@Ctx() ctx: Context) {
    return ctx.services.analytics.assetsUnderManagement();
  }

  @Authorized(Role.ADMIN, Role.ANALYST)
  @Query(() => [DistributionTotal], {
    description: "Gross, fees, net and count of the holders' distributions per period or per unit. Admins and analysts only (investors: FORBIDDEN).",
  })
  distributionTotals(
    @Arg('filter', () => DistributionTotalsFilter, { nullable: true, description: 'Which distributions to sum; absent: all but CANCELLED ones.' })
    filter: DistributionTotalsFilter | null,
    @Arg('groupBy', () => DistributionGrouping, {
      defaultValue: DistributionGrouping.PERIOD,
      description: 'Rows per quarter (PERIOD, default) or per unit (UNIT).',
    })
    groupBy: DistributionGrouping,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.analytics.distributionTotals(filter, groupBy);
  }

  @Authorized(Role.ADMIN, Role.ANALYST)
  @Query(() => [WithdrawalVolume], {
    description: 'Withdrawal requests per status: count, ownership % and invested amount. Admins and analysts only (investors: FORBIDDEN).',
  })
  withdrawalVolumes(@Ctx() ctx: Context) {
    return ctx.services.analytics.withdrawalVolumes();
  }
}
