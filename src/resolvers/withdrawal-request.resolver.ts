import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../http/context';
import type { AuthUser } from '../domain/auth-user';
import { CurrentUser } from '../schema/current-user';
import { Role } from '../schema/enums';
import { PageArgs } from '../schema/pagination.type';
import { RejectArgs } from '../schema/review.type';
import { CreateWithdrawalRequestInput, WithdrawalRequest, WithdrawalRequestFilter, WithdrawalRequestPage } from '../schema/withdrawal-request.type';
import { Idempotent } from '../schema/idempotent';

@Resolver(() => WithdrawalRequest)
export class WithdrawalRequestResolver {
  @Authorized()
  @Query(() => WithdrawalRequestPage, { description: 'Withdrawal requests, newest first. Investors see their own; staff see all.' })
  withdrawalRequests(
    @Args(() => PageArgs) { page, perPage }: PageArgs,
    @Arg('filter', () => WithdrawalRequestFilter, { nullable: true, description: 'Which requests; absent: all visible to the caller.' })
    filter: WithdrawalRequestFilter | null,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.withdrawalRequests.list(user, filter, page, perPage);
  }

  @Authorized(Role.INVESTOR)
  @Idempotent()
  @Mutation(() => WithdrawalRequest, {
    description: 'Ask to withdraw part of a holding; pending requests count against it. Investors only (staff: FORBIDDEN).',
  })
  createWithdrawalRequest(
    @Arg('input', () => CreateWithdrawalRequestInput, { description: 'Unit, share and reason.' }) input: CreateWithdrawalRequestInput,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.withdrawalRequests.create(user, input);
  }

  @Authorized(Role.ADMIN)
  @Idempotent()
  @Mutation(() => WithdrawalRequest, {
    description: 'PENDING → APPROVED: the share returns to the unit and a PENDING payout at its current value is created. Admins only (others: FORBIDDEN).',
  })
  approveWithdrawalRequest(
    @Arg('id', () => Int, { description: 'Id of the PENDING request; a reviewed one is CONFLICT.' }) id: number,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.withdrawalRequests.approve(user, id);
  }

  @Authorized(Role.ADMIN)
  @Mutation(() => WithdrawalRequest, { description: 'PENDING → REJECTED, with a reason shown to the investor. Admins only (others: FORBIDDEN).' })
  rejectWithdrawalRequest(@Args(() => RejectArgs) { id, reason }: RejectArgs, @Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.withdrawalRequests.reject(user, id, reason);
  }

  @Authorized(Role.ADMIN)
  @Idempotent()
  @Mutation(() => WithdrawalRequest, { description: 'APPROVED → COMPLETED: the money was sent; the payout becomes PAID. Admins only (others: FORBIDDEN).' })
  completeWithdrawalRequest(@Arg('id', () => Int, { description: 'Id of the APPROVED request; another status is CONFLICT.' }) id: number, @Ctx() ctx: Context) {
    return ctx.services.withdrawalRequests.complete(id);
  }

  @Authorized(Role.INVESTOR)
  @Mutation(() => WithdrawalRequest, { description: 'PENDING → CANCELLED, by the investor who asked. Investors only (staff: FORBIDDEN).' })
  cancelWithdrawalRequest(
    @Arg('id', () => Int, { description: 'Id of your PENDING request; a reviewed one is CONFLICT.' }) id: number,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.withdrawalRequests.cancel(user, id);
  }
}
