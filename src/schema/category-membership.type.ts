import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { CategoryRef } from './category.type';
import { MembershipStatus } from './enums';
import type { CategoryMembershipView } from '../services/category-membership.service';
import { Id, OptionalId } from './rules';

@ObjectType({ description: "An investor's subscription to a category: members hear of every new unit listed in it." })
export class CategoryMembership implements CategoryMembershipView {
  @Field(() => Int, { description: 'Id of the membership (rejoining after cancelling keeps it).' }) id: number;
  @Field(() => Int, { description: 'The member investor.' }) investorId: number;
  @Field(() => CategoryRef, { description: 'The category joined.' }) category: CategoryRef;
  @Field(() => MembershipStatus, { description: 'ACTIVE while the investor hears of new units; CANCELLED after leaving.' }) status: MembershipStatus;
  @Field(() => Date, { description: 'When the investor first joined.' }) createdAt: Date;
  @Field(() => Date, { description: 'When the membership last changed (joined again or cancelled).' }) updatedAt: Date;
}

@InputType({ description: 'All optional.' })
export class CategoryMembershipFilter {
  @Field(() => MembershipStatus, { nullable: true, description: 'Only memberships in this status.' }) status?: MembershipStatus | null;

  @Field(() => Int, { nullable: true, description: 'Staff only; investors always see their own.' })
  @OptionalId('investor id')
  investorId?: number | null;
}

@ArgsType()
export class CreateCategoryMembershipArgs {
  @Field(() => Int, { description: 'The active category to join; an unknown or inactive one is BAD_USER_INPUT, an active membership already there CONFLICT.' })
  @Id('category id')
  categoryId: number;
}
