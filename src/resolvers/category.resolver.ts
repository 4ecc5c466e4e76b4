import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../http/context';
import { CategoriesArgs, Category, CreateCategoryInput, PublicCategory, UpdateCategoryInput } from '../schema/category.type';
import { Role } from '../schema/enums';
import { Idempotent } from '../schema/idempotent';

@Resolver(() => Category)
export class CategoryResolver {
  @Authorized()
  @Query(() => [Category], { description: 'Active categories, alphabetical, with their count of AVAILABLE units.' })
  categories(@Args(() => CategoriesArgs) { includeInactive }: CategoriesArgs, @Ctx() ctx: Context) {
    return ctx.services.categories.list(ctx.user, { includeInactive });
  }

  @Authorized()
  @Query(() => Category, { description: 'An active category (staff: any).' })
  category(@Arg('id', () => Int, { description: 'Id of the category; an inactive one is NOT_FOUND for investors.' }) id: number, @Ctx() ctx: Context) {
    return ctx.services.categories.get(ctx.user, id);
  }

  @Query(() => [PublicCategory], { description: 'Guests: active categories, public fields only.' })
  publicCategories(@Ctx() ctx: Context) {
    return ctx.services.categories.list(null);
  }

  @Query(() => PublicCategory, { description: 'Guests: an active category, public fields only.' })
  publicCategory(@Arg('id', () => Int, { description: 'Id of the category; an inactive one is NOT_FOUND.' }) id: number, @Ctx() ctx: Context) {
    return ctx.services.categories.get(null, id);
  }

  @Authorized(Role.ADMIN)
  @Idempotent()
  @Mutation(() => Category, { description: 'Admin: add a category (name and slug unique).' })
  createCategory(@Arg('input', () => CreateCategoryInput, { description: 'The new category.' }) input: CreateCategoryInput, @Ctx() ctx: Context) {
    return ctx.services.categories.create(input);
  }

  @Authorized(Role.ADMIN)
  @Mutation(() => Category, { description: 'Admin: change a category; isActive false hides it from investors and guests.' })
  updateCategory(
    @Arg('id', () => Int, { description: 'Id of the category to change.' }) id: number,
    @Arg('input', () => UpdateCategoryInput, { description: 'The fields to change.' }) input: UpdateCategoryInput,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.categories.update(id, input);
  }
}
