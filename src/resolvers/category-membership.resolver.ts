import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../http/context';
import type { AuthUser } from '../domain/auth-user';
import { CurrentUser } from '../schema/current-user';
import { CategoryMembership, CategoryMembershipFilter, CreateCategoryMembershipArgs } from '../schema/category-membership.type';
import { Category } from '../schema/category.type';
import { Role } from '../schema/enums';
import { Idempotent } from '../schema/idempotent';

@Resolver(() => CategoryMembership)
export class CategoryMembershipResolver {
  @Authorized()
  @Query(() => [CategoryMembership], { description: 'Category memberships, newest first. Investors see their own; staff see all.' })
  categoryMemberships(
    @Arg('filter', () => CategoryMembershipFilter, { nullable: true, description: 'Which memberships; absent: all visible to the caller.' })
    filter: CategoryMembershipFilter | null,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.categoryMemberships.list(user, filter);
  }

  @Authorized()
  @Query(() => CategoryMembership, { description: 'One membership: investors their own, staff any. Another investor’s or a missing id is NOT_FOUND.' })
  categoryMembership(@Arg('id', () => Int, { description: 'Id of the membership.' }) id: number, @Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.categoryMemberships.get(user, id);
  }

  @Authorized(Role.INVESTOR)
  @Query(() => [Category], { description: 'Active categories the investor is not an active member of. Investors only (staff: FORBIDDEN).' })
  availableCategories(@Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.categoryMemberships.available(user);
  }

  @Authorized(Role.INVESTOR)
  @Idempotent()
  @Mutation(() => CategoryMembership, { description: 'Join an active category (a cancelled membership is reactivated). Investors only (staff: FORBIDDEN).' })
  createCategoryMembership(
    @Args(() => CreateCategoryMembershipArgs) { categoryId }: CreateCategoryMembershipArgs,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.categoryMemberships.create(user, categoryId);
  }
}
