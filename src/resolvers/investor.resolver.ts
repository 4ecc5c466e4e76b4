import { Arg, Args, Authorized, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { Context } from '../http/context';
import type { AuthUser } from '../domain/auth-user';
import { CurrentUser } from '../schema/current-user';
import { Investor, InvestorFilter, InvestorPage } from '../schema/investor.type';
import { PageArgs } from '../schema/pagination.type';

@Resolver(() => Investor)
export class InvestorResolver {
  @Authorized()
  @Query(() => InvestorPage, { description: 'Investors, newest first. An investor sees only themself; staff see all.' })
  investors(
    @Args(() => PageArgs) { page, perPage }: PageArgs,
    @Arg('filter', () => InvestorFilter, { nullable: true, description: 'Which investors; absent: all visible to the caller.' }) filter: InvestorFilter | null,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.investors.list(user, filter, page, perPage);
  }

  @Authorized()
  @Query(() => Investor, {
    description: 'One investor with KYC state and holdings summary: investors themselves only, staff any. Another investor’s or a missing id is NOT_FOUND.',
  })
  investor(
    @Arg('id', () => Int, { description: 'Id of the investor record (User.investorId, not the user id).' }) id: number,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.investors.get(user, id);
  }
}
