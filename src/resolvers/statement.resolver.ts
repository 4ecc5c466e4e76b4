import { Args, Authorized, Ctx, Query, Resolver, UseMiddleware } from 'type-graphql';
import type { Context } from '../http/context';
import type { AuthUser } from '../domain/auth-user';
import { CurrentUser } from '../schema/current-user';
import { Download, HandOverFile } from '../schema/download.type';
import { Role } from '../schema/enums';
import { ProfitStatementArgs, StatementFormatArgs, TaxStatementArgs } from '../schema/statement.type';

/** Investors' own statements; staff have no portfolio of their own (403). */
@Resolver()
export class StatementResolver {
  @Authorized(Role.INVESTOR)
  @Query(() => Download, { description: 'Distributions and payouts between two dates, as a PDF or CSV download link. Investors only (staff: FORBIDDEN).' })
  @UseMiddleware(HandOverFile)
  profitStatement(@Args(() => ProfitStatementArgs) { from, to, format }: ProfitStatementArgs, @Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.statements.profitLink(user, from, to, format);
  }

  @Authorized(Role.INVESTOR)
  @Query(() => Download, { description: 'Income per unit (gross, fees, net) and withdrawals of one tax year. Investors only (staff: FORBIDDEN).' })
  @UseMiddleware(HandOverFile)
  taxStatement(@Args(() => TaxStatementArgs) { year, format }: TaxStatementArgs, @Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.statements.taxLink(user, year, format);
  }

  @Authorized(Role.INVESTOR)
  @Query(() => Download, { description: 'Current holdings: invested, current value and return. Investors only (staff: FORBIDDEN).' })
  @UseMiddleware(HandOverFile)
  portfolioSummaryStatement(@Args(() => StatementFormatArgs) { format }: StatementFormatArgs, @Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.statements.portfolioSummaryLink(user, format);
  }
}
