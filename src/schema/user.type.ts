import { Field, Int, ObjectType } from 'type-graphql';
import { Role } from './enums';

@ObjectType({ description: 'An account: investor, admin or analyst.' })
export class User {
  @Field(() => Int) id: number;
  @Field(() => String) name: string;
  @Field(() => String) email: string;
  @Field(() => String, { nullable: true }) phone: string | null;
  @Field(() => Role) role: Role;
  @Field(() => Int, { nullable: true, description: "The user's investor record, for role INVESTOR." }) investorId: number | null;
  @Field(() => Date) createdAt: Date;
  @Field(() => Date) updatedAt: Date;
}
