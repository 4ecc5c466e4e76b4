import { Field, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A file to fetch with GET on `url` (no token needed) before `expiresAt`.' })
export class Download {
  @Field(() => String) fileName: string;
  @Field(() => String) contentType: string;
  @Field(() => String, { description: 'Path of a signed, short-lived link on this server.' }) url: string;
  @Field(() => Date) expiresAt: Date;
}
