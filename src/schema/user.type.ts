import { Field, Int, ObjectType } from 'type-graphql';
import { Role } from './enums';
import type { UserView } from '../services/auth.service';

@ObjectType({ description: 'An account: investor, admin or analyst.' })
export class User implements UserView {
  @Field(() => Int, { description: 'Id of the user (the login account).' }) id: number;
  @Field(() => String, { description: 'Display name.' }) name: string;
  @Field(() => String, { description: 'Login email, lower case.' }) email: string;
  @Field(() => String, { nullable: true, description: 'Phone number, if given.' }) phone: string | null;
  @Field(() => Role, { description: 'What the user may do.' }) role: Role;
  @Field(() => Int, { nullable: true, description: "The user's investor record, for role INVESTOR." }) investorId: number | null;
  @Field(() => Date, { description: 'When the account was created.' }) createdAt: Date;
  @Field(() => Date, { description: 'When the profile last changed.' }) updatedAt: Date;
}
