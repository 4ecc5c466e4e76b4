import { Arg, Args, Authorized, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { Context } from '../context';
import { Investor, InvestorFilter, InvestorPage } from '../schema/investor.type';
import { PageArgs } from '../schema/pagination.type';

@Resolver(() => Investor)
export class InvestorResolver {
  @Authorized()
  @Query(() => InvestorPage, { description: 'Investors, newest first. An investor sees only themself; staff see all.' })
  investors(@Args(() => PageArgs) { page, perPage }: PageArgs, @Arg('filter', () => InvestorFilter, { nullable: true }) filter: InvestorFilter | null, @Ctx() ctx: Context) {
    return ctx.services.investors.list(ctx.user!, filter, page, perPage);
  }

  @Authorized()
  @Query(() => Investor)
  investor(@Arg('id', () => Int) id: number, @Ctx() ctx: Context) {
    return ctx.services.investors.get(ctx.user!, id);
  }
}
