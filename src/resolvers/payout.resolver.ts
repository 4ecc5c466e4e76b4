import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../context';
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
  payouts(@Args(() => PageArgs) { page, perPage }: PageArgs, @Arg('filter', () => PayoutFilter, { nullable: true }) filter: PayoutFilter | null, @Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.payouts.list(user, filter, page, perPage);
  }

  @Authorized()
  @Query(() => Payout)
  payout(@Arg('id', () => Int) id: number, @Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.payouts.get(user, id);
  }

  @Authorized(Role.ADMIN)
  @Idempotent()
  @Mutation(() => Payout, { description: 'PENDING | FAILED → PAID: records a PAYOUT ledger entry and tells the investor.' })
  markPayoutPaid(@Arg('id', () => Int) id: number, @Ctx() ctx: Context) {
    return ctx.services.payouts.markPaid(id);
  }

  @Authorized(Role.ADMIN)
  @Mutation(() => Payout, { description: 'PENDING → FAILED: the transfer did not go through; it can be paid later.' })
  markPayoutFailed(@Arg('id', () => Int) id: number, @Ctx() ctx: Context) {
    return ctx.services.payouts.markFailed(id);
  }
}
