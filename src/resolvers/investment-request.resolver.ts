import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../http/context';
import type { AuthUser } from '../domain/auth-user';
import { CurrentUser } from '../schema/current-user';
import { Role } from '../schema/enums';
import { CreateInvestmentRequestInput, InvestmentRequest, InvestmentRequestFilter, InvestmentRequestPage } from '../schema/investment-request.type';
import { RejectArgs } from '../schema/review.type';
import { PageArgs } from '../schema/pagination.type';
import { Idempotent } from '../schema/idempotent';

@Resolver(() => InvestmentRequest)
export class InvestmentRequestResolver {
  @Authorized()
  @Query(() => InvestmentRequestPage, { description: 'Investment requests, newest first. Investors see their own; staff see all.' })
  investmentRequests(
    @Args(() => PageArgs) { page, perPage }: PageArgs,
    @Arg('filter', () => InvestmentRequestFilter, { nullable: true, description: 'Which requests; absent: all visible to the caller.' })
    filter: InvestmentRequestFilter | null,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.investmentRequests.list(user, filter, page, perPage);
  }

  @Authorized()
  @Query(() => InvestmentRequest, { description: 'One investment request: investors their own, staff any. Another investor’s or a missing id is NOT_FOUND.' })
  investmentRequest(@Arg('id', () => Int, { description: 'Id of the request.' }) id: number, @Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.investmentRequests.get(user, id);
  }

  @Authorized(Role.INVESTOR)
  @Idempotent()
  @Mutation(() => InvestmentRequest, {
    description: 'Ask to buy a share of an AVAILABLE unit; pending requests count against its availability. Investors only (staff: FORBIDDEN).',
  })
  createInvestmentRequest(
    @Arg('input', () => CreateInvestmentRequestInput, { description: 'Unit and amount.' }) input: CreateInvestmentRequestInput,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.investmentRequests.create(user, input);
  }

  @Authorized(Role.INVESTOR)
  @Mutation(() => InvestmentRequest, { description: 'Withdraw your own PENDING request. Investors only (staff: FORBIDDEN).' })
  cancelInvestmentRequest(
    @Arg('id', () => Int, { description: 'Id of your PENDING request; a reviewed one is CONFLICT.' }) id: number,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.investmentRequests.cancel(user, id);
  }

  @Authorized(Role.ADMIN)
  @Idempotent()
  @Mutation(() => InvestmentRequest, {
    description: 'PENDING → APPROVED: grows the holding, records the investment, reduces the unit availability. Admins only (others: FORBIDDEN).',
  })
  approveInvestmentRequest(
    @Arg('id', () => Int, { description: 'Id of the PENDING request; a reviewed one, or one that no longer fits the unit, is CONFLICT.' }) id: number,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.investmentRequests.approve(user, id);
  }

  @Authorized(Role.ADMIN)
  @Mutation(() => InvestmentRequest, { description: 'PENDING → REJECTED with a reason the investor is told. Admins only (others: FORBIDDEN).' })
  rejectInvestmentRequest(@Args(() => RejectArgs) { id, reason }: RejectArgs, @Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.investmentRequests.reject(user, id, reason);
  }
}
