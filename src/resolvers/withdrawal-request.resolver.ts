import { Arg, Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../context';
import { Role } from '../schema/enums';
import { PageArgs } from '../schema/pagination.type';
import { CreateWithdrawalRequestInput, WithdrawalRequest, WithdrawalRequestFilter, WithdrawalRequestPage } from '../schema/withdrawal-request.type';

@Resolver(() => WithdrawalRequest)
export class WithdrawalRequestResolver {
  @Authorized()
  @Query(() => WithdrawalRequestPage, { description: 'Withdrawal requests, newest first. Investors see their own; staff see all.' })
  withdrawalRequests(@Args(() => PageArgs) { page, perPage }: PageArgs, @Arg('filter', () => WithdrawalRequestFilter, { nullable: true }) filter: WithdrawalRequestFilter | null, @Ctx() ctx: Context) {
    return ctx.services.withdrawalRequests.list(ctx.user!, filter, page, perPage);
  }

  @Authorized(Role.INVESTOR)
  @Mutation(() => WithdrawalRequest, { description: 'Ask to withdraw part of a holding; pending requests count against it.' })
  createWithdrawalRequest(@Arg('input', () => CreateWithdrawalRequestInput) input: CreateWithdrawalRequestInput, @Ctx() ctx: Context) {
    return ctx.services.withdrawalRequests.create(ctx.user!, input);
  }
}
