import { IsOptional, Min } from 'class-validator';
import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { CategoryRef } from './category.type';
import { MembershipStatus } from './enums';

@ObjectType({ description: "An investor's subscription to a category: members hear of every new unit listed in it." })
export class CategoryMembership {
  @Field(() => Int) id: number;
  @Field(() => Int) investorId: number;
  @Field(() => CategoryRef) category: CategoryRef;
  @Field(() => MembershipStatus) status: MembershipStatus;
  @Field(() => Date) createdAt: Date;
  @Field(() => Date) updatedAt: Date;
}

@InputType()
export class CategoryMembershipFilter {
  @Field(() => MembershipStatus, { nullable: true }) status?: MembershipStatus | null;

  @Field(() => Int, { nullable: true, description: 'Staff only; investors always see their own.' })
  @IsOptional()
  @Min(1, { message: 'The investor id field must be at least 1.' })
  investorId?: number | null;
}

@ArgsType()
export class CreateCategoryMembershipArgs {
  @Field(() => Int)
  @Min(1, { message: 'The category id field must be at least 1.' })
  categoryId: number;
}
