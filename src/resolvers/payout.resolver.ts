import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../http/context';
import type { AuthUser } from '../domain/auth-user';
import { CurrentUser } from '../schema/current-user';
import { Role } from '../schema/enums';
import { PageArgs } from '../schema/pagination.type';
import { Payout, PayoutFilter, PayoutPage } from '../schema/payout.type';
import { Idempotent } from '../schema/idempotent';

@Resolver(() => Payout)
export class PayoutResolver {
  @Authorized()
  @Query(() => PayoutPage, { description: 'Payouts, newest first. Investors see their own; staff see all.' })
  payouts(
    @Args(() => PageArgs) { page, perPage }: PageArgs,
    @Arg('filter', () => PayoutFilter, { nullable: true, description: 'Which payouts; absent: all visible to the caller.' }) filter: PayoutFilter | null,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.payouts.list(user, filter, page, perPage);
  }

  @Authorized()
  @Query(() => Payout, { description: 'One payout: investors their own, staff any. Another investor’s or a missing id is NOT_FOUND.' })
  payout(@Arg('id', () => Int, { description: 'Id of the payout.' }) id: number, @Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.payouts.get(user, id);
  }

  @Authorized(Role.ADMIN)
  @Idempotent()
  @Mutation(() => Payout, { description: 'PENDING | FAILED → PAID: records a PAYOUT ledger entry and tells the investor. Admins only (others: FORBIDDEN).' })
  markPayoutPaid(@Arg('id', () => Int, { description: 'Id of a PENDING or FAILED payout; a PAID one is CONFLICT.' }) id: number, @Ctx() ctx: Context) {
    return ctx.services.payouts.markPaid(id);
  }

  @Authorized(Role.ADMIN)
  @Mutation(() => Payout, { description: 'PENDING → FAILED: the transfer did not go through; it can be paid later. Admins only (others: FORBIDDEN).' })
  markPayoutFailed(@Arg('id', () => Int, { description: 'Id of a PENDING payout; another status is CONFLICT.' }) id: number, @Ctx() ctx: Context) {
    return ctx.services.payouts.markFailed(id);
  }
}
