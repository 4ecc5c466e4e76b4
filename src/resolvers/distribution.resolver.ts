import { Arg, Args, Authorized, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { Context } from '../context';
import { Distribution, DistributionFilter, DistributionPage } from '../schema/distribution.type';
import { PageArgs } from '../schema/pagination.type';

@Resolver(() => Distribution)
export class DistributionResolver {
  @Authorized()
  @Query(() => DistributionPage, { description: 'Distributions, newest first. Investors see their own; staff see all.' })
  distributions(@Args(() => PageArgs) { page, perPage }: PageArgs, @Arg('filter', () => DistributionFilter, { nullable: true }) filter: DistributionFilter | null, @Ctx() ctx: Context) {
    return ctx.services.distributions.list(ctx.user!, filter, page, perPage);
  }

  @Authorized()
  @Query(() => Distribution)
  distribution(@Arg('id', () => Int) id: number, @Ctx() ctx: Context) {
    return ctx.services.distributions.get(ctx.user!, id);
  }
}
