import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../context';
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
  investmentRequests(@Args(() => PageArgs) { page, perPage }: PageArgs, @Arg('filter', () => InvestmentRequestFilter, { nullable: true }) filter: InvestmentRequestFilter | null, @Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.investmentRequests.list(user, filter, page, perPage);
  }

  @Authorized()
  @Query(() => InvestmentRequest)
  investmentRequest(@Arg('id', () => Int) id: number, @Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.investmentRequests.get(user, id);
  }

  @Authorized(Role.INVESTOR)
  @Idempotent()
  @Mutation(() => InvestmentRequest, { description: 'Ask to buy a share of an AVAILABLE unit; pending requests count against its availability.' })
  createInvestmentRequest(@Arg('input', () => CreateInvestmentRequestInput) input: CreateInvestmentRequestInput, @Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.investmentRequests.create(user, input);
  }

  @Authorized(Role.INVESTOR)
  @Mutation(() => InvestmentRequest, { description: 'Withdraw your own PENDING request.' })
  cancelInvestmentRequest(@Arg('id', () => Int) id: number, @Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.investmentRequests.cancel(user, id);
  }

  @Authorized(Role.ADMIN)
  @Idempotent()
  @Mutation(() => InvestmentRequest, { description: 'PENDING → APPROVED: grows the holding, records the investment, reduces the unit availability.' })
  approveInvestmentRequest(@Arg('id', () => Int) id: number, @Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.investmentRequests.approve(user, id);
  }

  @Authorized(Role.ADMIN)
  @Mutation(() => InvestmentRequest, { description: 'PENDING → REJECTED with a reason the investor is told.' })
  rejectInvestmentRequest(@Args(() => RejectArgs) { id, reason }: RejectArgs, @Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.investmentRequests.reject(user, id, reason);
  }
}
