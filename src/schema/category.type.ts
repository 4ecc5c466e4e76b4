import { IsBoolean, IsOptional, Matches } from 'class-validator';
import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { RequiredText, Text } from './rules';

export const SLUG_RULE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const COLOR_RULE = /^#[0-9A-Fa-f]{6}$/;

@ObjectType({ description: 'id, name and slug of a category, embedded in other records.' })
export class CategoryRef {
  @Field(() => Int) id: number;
  @Field(() => String) name: string;
  @Field(() => String) slug: string;
}

@ObjectType({ description: 'A category as guests see it: public fields only.' })
export class PublicCategory {
  @Field(() => Int) id: number;
  @Field(() => String) name: string;
  @Field(() => String) slug: string;
  @Field(() => String) description: string;
  @Field(() => String) icon: string;
  @Field(() => String, { description: 'Hex colour, e.g. "#2E7D32".' }) color: string;
  @Field(() => Boolean) isFeatured: boolean;
  @Field(() => Int, { description: 'Units of the category open for investment (status AVAILABLE).' }) unitsCount: number;
  @Field(() => Date) createdAt: Date;
  @Field(() => Date) updatedAt: Date;
}

@ObjectType({ description: 'A category of units. Inactive categories are visible to staff only.' })
export class Category extends PublicCategory {
  @Field(() => Boolean) isActive: boolean;
}

@ArgsType()
export class CategoriesArgs {
  @Field(() => Boolean, { nullable: true, description: 'Staff only: include inactive categories (ignored for investors).' })
  includeInactive?: boolean | null;
}

// Flags shared by create and update; a base only, never reachable itself, so never emitted.
@InputType()
abstract class CategoryFieldsInput {
  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean({ message: 'The is featured field must be true or false.' })
  isFeatured?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: 'false hides the category from investors and guests.' })
  @IsOptional()
  @IsBoolean({ message: 'The is active field must be true or false.' })
  isActive?: boolean | null;
}

@InputType()
export class CreateCategoryInput extends CategoryFieldsInput {
  @Field(() => String)
  @RequiredText('name', 255)
  name: string;

  @Field(() => String, { description: 'Lower-case words joined by hyphens, e.g. "student-housing".' })
  @Matches(SLUG_RULE, { message: 'The slug field must only contain lower-case letters, numbers and single hyphens.' })
  @Text('slug', 255)
  slug: string;

  @Field(() => String)
  @RequiredText('description', 2000)
  description: string;

  @Field(() => String)
  @RequiredText('icon', 64)
  icon: string;

  @Field(() => String)
  @Matches(COLOR_RULE, { message: 'The color field must be a hex colour such as #2E7D32.' })
  @Text('color', 7)
  color: string;
}

@InputType()
export class UpdateCategoryInput extends CategoryFieldsInput {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @RequiredText('name', 255)
  name?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Matches(SLUG_RULE, { message: 'The slug field must only contain lower-case letters, numbers and single hyphens.' })
  @Text('slug', 255)
  slug?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @RequiredText('description', 2000)
  description?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @RequiredText('icon', 64)
  icon?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Matches(COLOR_RULE, { message: 'The color field must be a hex colour such as #2E7D32.' })
  @Text('color', 7)
  color?: string | null;
}
