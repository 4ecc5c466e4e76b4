import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../http/context';
import type { AuthUser } from '../domain/auth-user';
import { CurrentUser } from '../schema/current-user';
import {
  DeclareDistributionInput,
  Distribution,
  DistributionDeclarationDetail,
  DistributionDeclarationFilter,
  DistributionDeclarationPage,
  DistributionFilter,
  DistributionPage,
} from '../schema/distribution.type';
import { Role } from '../schema/enums';
import { PageArgs } from '../schema/pagination.type';
import { pageWindow } from '../services/pagination';
import { Idempotent } from '../schema/idempotent';

@Resolver(() => Distribution)
export class DistributionResolver {
  @Authorized()
  @Query(() => DistributionPage, { description: 'Distributions, newest first. Investors see their own; staff see all.' })
  distributions(
    @Args(() => PageArgs) { page, perPage }: PageArgs,
    @Arg('filter', () => DistributionFilter, { nullable: true, description: 'Which distributions; absent: all visible to the caller.' })
    filter: DistributionFilter | null,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.distributions.list(user, filter, page, perPage);
  }

  @Authorized()
  @Query(() => Distribution, { description: 'One distribution: investors their own, staff any. Another investor’s or a missing id is NOT_FOUND.' })
  distribution(
    @Arg('id', () => Int, { description: 'Id of the distribution (not of its declaration).' }) id: number,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.distributions.get(user, id);
  }

  @Authorized(Role.ADMIN, Role.ANALYST)
  @Query(() => DistributionDeclarationPage, { description: 'Staff: distribution declarations, newest first.' })
  distributionDeclarations(
    @Args(() => PageArgs) { page, perPage }: PageArgs,
    @Arg('filter', () => DistributionDeclarationFilter, { nullable: true, description: 'Which declarations; absent: all.' })
    filter: DistributionDeclarationFilter | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.distributions.listDeclarations(filter, page, perPage);
  }

  @Authorized(Role.ADMIN, Role.ANALYST)
  @Query(() => DistributionDeclarationDetail, { description: "Staff: one declaration with its holders' distributions." })
  distributionDeclaration(@Arg('id', () => Int, { description: 'Id of the declaration.' }) id: number, @Ctx() ctx: Context) {
    return ctx.services.distributions.getDeclaration(id);
  }

  @Authorized(Role.ADMIN)
  @Idempotent()
  @Mutation(() => DistributionDeclarationDetail, {
    description: "Declare a unit's profit for a period: one PENDING distribution per current holder. Admins only (others: FORBIDDEN).",
  })
  declareDistribution(
    @Arg('input', () => DeclareDistributionInput, { description: 'Unit, quarter, type, gross amount and fee rate.' }) input: DeclareDistributionInput,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.distributions.declare(user, input);
  }

  @Authorized(Role.ADMIN)
  @Mutation(() => DistributionDeclarationDetail, { description: 'PENDING → APPROVED. Admins only (others: FORBIDDEN).' })
  approveDistribution(@Arg('id', () => Int, { description: 'Declaration id.' }) id: number, @Ctx() ctx: Context) {
    return ctx.services.distributions.approve(id);
  }

  @Authorized(Role.ADMIN)
  @Idempotent()
  @Mutation(() => DistributionDeclarationDetail, {
    description: 'APPROVED → DISTRIBUTED: a PENDING payout and a ledger row per holder, who is notified. Admins only (others: FORBIDDEN).',
  })
  distributeDistribution(@Arg('id', () => Int, { description: 'Declaration id.' }) id: number, @Ctx() ctx: Context) {
    return ctx.services.distributions.distribute(id);
  }

  @Authorized(Role.ADMIN)
  @Mutation(() => DistributionDeclarationDetail, { description: 'PENDING | APPROVED → CANCELLED. Admins only (others: FORBIDDEN).' })
  cancelDistribution(@Arg('id', () => Int, { description: 'Declaration id.' }) id: number, @Ctx() ctx: Context) {
    return ctx.services.distributions.cancel(id);
  }
}

/**
 * A declaration has one distribution per holder, as many as the unit has holders: a cut list would
 * hide payments, so the field is paged like every list that grows (priced at perPage), in SQL: only
 * the page's rows are read. holdersCount gives the total. The paginated `distributions(filter:
 * {unitId, period})` lists them too.
 */
@Resolver(() => DistributionDeclarationDetail)
export class DistributionDeclarationDetailResolver {
  @FieldResolver(() => [Distribution], {
    description: "The holders' distributions, in holding order: one page (page, perPage: default 15, at most 100); holdersCount is the total.",
  })
  distributions(
    @Root() detail: DistributionDeclarationDetail,
    @Args(() => PageArgs) { page, perPage }: PageArgs,
    @Ctx() ctx: Context,
  ): Promise<Distribution[]> {
    return ctx.services.distributions.declarationRows(detail.id, pageWindow(page, perPage));
  }
}
