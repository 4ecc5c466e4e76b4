import { Matches } from 'class-validator';
import { Field, InputType, ObjectType } from 'type-graphql';
import { LegalTextKind } from './enums';
import { Text } from './rules';

@ObjectType({ description: 'A published legal text (privacy policy, terms of service, investment disclaimer).' })
export class LegalText {
  @Field(() => LegalTextKind) kind: LegalTextKind;
  @Field(() => String) title: string;
  @Field(() => String, { description: 'Plain text; paragraphs are separated by a blank line.' }) content: string;
  @Field(() => String, { description: '"1.0", then "2.0", … : every publication bumps it.' }) version: string;
  @Field(() => Date) publishedAt: Date;
  @Field(() => Date) updatedAt: Date;
}

@InputType()
export class UpsertLegalTextInput {
  @Field(() => LegalTextKind) kind: LegalTextKind;

  @Field(() => String)
  @Matches(/\S/, { message: 'The title field is required.' })
  @Text('title', 255)
  title: string;

  @Field(() => String)
  @Matches(/\S/, { message: 'The content field is required.' })
  @Text('content', 100_000)
  content: string;
}
