import { Arg, Args, Authorized, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { Context } from '../http/context';
import type { AuthUser } from '../domain/auth-user';
import { CurrentUser } from '../schema/current-user';
import { Role } from '../schema/enums';
import { PageArgs } from '../schema/pagination.type';
import { Portfolio, PortfolioPerformance, Transaction, TransactionFilter, TransactionPage } from '../schema/portfolio.type';

@Resolver()
export class PortfolioResolver {
  @Authorized(Role.INVESTOR)
  @Query(() => Portfolio, { description: "The caller's holdings, valued, with totals. Investors only (staff: FORBIDDEN)." })
  portfolio(@Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.portfolio.mine(user);
  }

  @Authorized()
  @Query(() => Portfolio, { description: "An investor's holdings, valued, with totals. Investors: their own id only." })
  investorPortfolio(
    @Arg('investorId', () => Int, { description: 'Id of the investor record; for an investor only their own (others NOT_FOUND).' }) investorId: number,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.portfolio.ofInvestor(user, investorId);
  }

  @Authorized()
  @Query(() => PortfolioPerformance, { description: "Investors: their own. Staff: the whole platform, or one investor's with investorId." })
  portfolioPerformance(
    @Arg('investorId', () => Int, {
      nullable: true,
      description: 'Staff only: one investor’s figures; absent: the whole platform (investors always get their own).',
    })
    investorId: number | null,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.portfolio.performance(user, investorId);
  }

  @Authorized()
  @Query(() => TransactionPage, { description: 'Ledger entries, newest first by occurredAt. Investors see their own; staff see all.' })
  transactions(
    @Args(() => PageArgs) { page, perPage }: PageArgs,
    @Arg('filter', () => TransactionFilter, { nullable: true, description: 'Which entries; absent: all visible to the caller.' })
    filter: TransactionFilter | null,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.portfolio.transactions(user, filter, page, perPage);
  }

  @Authorized()
  @Query(() => Transaction, { description: 'One ledger entry: investors their own, staff any. Another investor’s or a missing id is NOT_FOUND.' })
  transaction(@Arg('id', () => Int, { description: 'Id of the ledger entry.' }) id: number, @Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.portfolio.transaction(user, id);
  }
}
