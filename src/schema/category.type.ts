import { IsBoolean, IsOptional, Matches } from 'class-validator';
import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { RequiredText, Text } from './rules';
import type { CategoryData, CategoryRefView, CategoryView, NewCategoryData } from '../services/category.service';

export const SLUG_RULE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const COLOR_RULE = /^#[0-9A-Fa-f]{6}$/;

@ObjectType({ description: 'id, name and slug of a category, embedded in other records.' })
export class CategoryRef implements CategoryRefView {
  @Field(() => Int, { description: 'Id of the category: what category(id:) and every categoryId take.' }) id: number;
  @Field(() => String, { description: 'Display name of the category.' }) name: string;
  @Field(() => String, { description: 'URL-safe key, e.g. "student-housing".' }) slug: string;
}

@ObjectType({ description: 'A category as guests see it: public fields only.' })
export class PublicCategory implements Omit<CategoryView, 'isActive'> {
  @Field(() => Int, { description: 'Id of the category: what category(id:), publicCategory(id:) and every categoryId take.' }) id: number;
  @Field(() => String, { description: 'Display name, unique.' }) name: string;
  @Field(() => String, { description: 'URL-safe key, unique, e.g. "student-housing".' }) slug: string;
  @Field(() => String, { description: 'What the units of the category have in common, for the catalogue.' }) description: string;
  @Field(() => String, { description: 'Icon name from AppConfig.iconOptions, e.g. "graduation-cap".' }) icon: string;
  @Field(() => String, { description: 'Hex colour, e.g. "#2E7D32".' }) color: string;
  @Field(() => Boolean, { description: 'Shown among the featured categories of the dashboard.' }) isFeatured: boolean;
  @Field(() => Int, { description: 'Units of the category open for investment (status AVAILABLE).' }) unitsCount: number;
  @Field(() => Date, { description: 'When the category was added.' }) createdAt: Date;
  @Field(() => Date, { description: 'When the category last changed.' }) updatedAt: Date;
}

@ObjectType({ description: 'A category of units. Inactive categories are visible to staff only.' })
export class Category extends PublicCategory implements CategoryView {
  @Field(() => Boolean, { description: 'false: hidden from investors and guests (staff still see it).' }) isActive: boolean;
}

@ArgsType()
export class CategoriesArgs {
  @Field(() => Boolean, { nullable: true, description: 'Staff only: include inactive categories (ignored for investors).' })
  includeInactive?: boolean | null;
}

// Flags shared by create and update; a base only, never reachable itself, so never emitted.
@InputType()
abstract class CategoryFieldsInput {
  @Field(() => Boolean, { nullable: true, description: 'true shows the category among the featured ones of the dashboard.' })
  @IsOptional()
  @IsBoolean({ message: 'The is featured field must be true or false.' })
  isFeatured?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: 'false hides the category from investors and guests.' })
  @IsOptional()
  @IsBoolean({ message: 'The is active field must be true or false.' })
  isActive?: boolean | null;
}

@InputType({ description: 'A new category; name and slug must be unused (BAD_USER_INPUT otherwise). Featured and active default to false and true.' })
export class CreateCategoryInput extends CategoryFieldsInput implements NewCategoryData {
  @Field(() => String, { description: 'Display name, 1..255 characters, unique.' })
  @RequiredText('name', 255)
  name: string;

  @Field(() => String, { description: 'Lower-case words joined by hyphens, e.g. "student-housing".' })
  @Matches(SLUG_RULE, { message: 'The slug field must only contain lower-case letters, numbers and single hyphens.' })
  @Text('slug', 255)
  slug: string;

  @Field(() => String, { description: 'Catalogue text, 1..2000 characters.' })
  @RequiredText('description', 2000)
  description: string;

  @Field(() => String, { description: 'Icon name, 1..64 characters (see AppConfig.iconOptions).' })
  @RequiredText('icon', 64)
  icon: string;

  @Field(() => String, { description: 'Hex colour #RRGGBB, e.g. "#2E7D32".' })
  @Matches(COLOR_RULE, { message: 'The color field must be a hex colour such as #2E7D32.' })
  @Text('color', 7)
  color: string;
}

@InputType({ description: 'Only the fields given (not null) change; name and slug must stay unique.' })
export class UpdateCategoryInput extends CategoryFieldsInput implements CategoryData {
  @Field(() => String, { nullable: true, description: 'New display name, 1..255 characters.' })
  @IsOptional()
  @RequiredText('name', 255)
  name?: string | null;

  @Field(() => String, { nullable: true, description: 'New URL-safe key: lower-case words joined by hyphens.' })
  @IsOptional()
  @Matches(SLUG_RULE, { message: 'The slug field must only contain lower-case letters, numbers and single hyphens.' })
  @Text('slug', 255)
  slug?: string | null;

  @Field(() => String, { nullable: true, description: 'New catalogue text, 1..2000 characters.' })
  @IsOptional()
  @RequiredText('description', 2000)
  description?: string | null;

  @Field(() => String, { nullable: true, description: 'New icon name, 1..64 characters.' })
  @IsOptional()
  @RequiredText('icon', 64)
  icon?: string | null;

  @Field(() => String, { nullable: true, description: 'New hex colour #RRGGBB.' })
  @IsOptional()
  @Matches(COLOR_RULE, { message: 'The color field must be a hex colour such as #2E7D32.' })
  @Text('color', 7)
  color?: string | null;
}
