import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../http/context';
import type { AuthUser } from '../domain/auth-user';
import { CurrentUser } from '../schema/current-user';
import { Role } from '../schema/enums';
import { PageArgs } from '../schema/pagination.type';
import {
  CreateUnitInput,
  PublicUnit,
  PublicUnitPage,
  RecordUnitValuationArgs,
  Unit,
  UnitFilter,
  UnitPage,
  UnitValuation,
  UpdateUnitInput,
} from '../schema/unit.type';
import { Idempotent } from '../schema/idempotent';

@Resolver(() => Unit)
export class UnitResolver {
  @Authorized()
  @Query(() => UnitPage, { description: 'Units, newest listed first; AVAILABLE only unless filtered by status (DRAFT: staff only).' })
  units(
    @Args(() => PageArgs) { page, perPage }: PageArgs,
    @Arg('filter', () => UnitFilter, { nullable: true, description: 'Which units; absent: AVAILABLE ones.' }) filter: UnitFilter | null,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.units.list(user, filter, page, perPage);
  }

  @Authorized()
  @Query(() => Unit, { description: 'A unit in any status; DRAFT units are found by staff only.' })
  unit(
    @Arg('id', () => Int, { description: 'Id of the unit; a DRAFT one is NOT_FOUND for investors.' }) id: number,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.units.get(user, id);
  }

  @Query(() => PublicUnitPage, { description: 'Guests: AVAILABLE and FUNDED units, newest listed first, public fields only.' })
  publicUnits(
    @Args(() => PageArgs) { page, perPage }: PageArgs,
    @Arg('filter', () => UnitFilter, { nullable: true, description: 'Which units; a status other than AVAILABLE or FUNDED finds none.' })
    filter: UnitFilter | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.units.listPublic(filter, page, perPage);
  }

  @Query(() => PublicUnit, { description: 'Guests: a unit that is not DRAFT, public fields only.' })
  publicUnit(@Arg('id', () => Int, { description: 'Id of the unit; a DRAFT one is NOT_FOUND.' }) id: number, @Ctx() ctx: Context) {
    return ctx.services.units.getPublic(id);
  }

  @Authorized(Role.ADMIN)
  @Idempotent()
  @Mutation(() => Unit, { description: 'Admin: add a unit, DRAFT or AVAILABLE (AVAILABLE notifies the category members).' })
  createUnit(@Arg('input', () => CreateUnitInput, { description: 'The new unit.' }) input: CreateUnitInput, @Ctx() ctx: Context) {
    return ctx.services.units.create(input);
  }

  @Authorized(Role.ADMIN)
  @Mutation(() => Unit, { description: 'Admin: change a unit and move it along DRAFT → AVAILABLE → FUNDED → CLOSED.' })
  updateUnit(
    @Arg('id', () => Int, { description: 'Id of the unit to change.' }) id: number,
    @Arg('input', () => UpdateUnitInput, { description: 'The fields to change and, through status, the move to make.' }) input: UpdateUnitInput,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.units.update(id, input);
  }

  @Authorized(Role.ADMIN)
  @Idempotent()
  @Mutation(() => UnitValuation, { description: "Admin: add a point to a unit's valuation history." })
  recordUnitValuation(@Args(() => RecordUnitValuationArgs) { unitId, value, valuedAt }: RecordUnitValuationArgs, @Ctx() ctx: Context) {
    return ctx.services.units.recordValuation(unitId, value, valuedAt);
  }
}
