import { Arg, Args, Authorized, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { Context } from '../context';
import type { AuthUser } from '../domain/auth-user';
import { CurrentUser } from '../schema/current-user';
import { Investor, InvestorFilter, InvestorPage } from '../schema/investor.type';
import { PageArgs } from '../schema/pagination.type';

@Resolver(() => Investor)
export class InvestorResolver {
  @Authorized()
  @Query(() => InvestorPage, { description: 'Investors, newest first. An investor sees only themself; staff see all.' })
  investors(@Args(() => PageArgs) { page, perPage }: PageArgs, @Arg('filter', () => InvestorFilter, { nullable: true }) filter: InvestorFilter | null, @Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.investors.list(user, filter, page, perPage);
  }

  @Authorized()
  @Query(() => Investor)
  investor(@Arg('id', () => Int) id: number, @Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.investors.get(user, id);
  }
}
