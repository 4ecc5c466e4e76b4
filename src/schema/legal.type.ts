import { Matches } from 'class-validator';
import { Field, InputType, ObjectType } from 'type-graphql';
import { LegalTextKind } from './enums';
import { Text } from './rules';
import type { LegalTextView, UpsertLegalTextData } from '../services/legal.service';

@ObjectType({ description: 'A published legal text (privacy policy, terms of service, investment disclaimer).' })
export class LegalText implements LegalTextView {
  @Field(() => LegalTextKind, { description: 'Which legal text this is.' }) kind: LegalTextKind;
  @Field(() => String, { description: 'Heading of the text.' }) title: string;
  @Field(() => String, { description: 'Plain text; paragraphs are separated by a blank line.' }) content: string;
  @Field(() => String, { description: '"1.0", then "2.0", … : every publication bumps it.' }) version: string;
  @Field(() => Date, { description: 'When this version was published.' }) publishedAt: Date;
  @Field(() => Date, { description: 'When the row last changed.' }) updatedAt: Date;
}

@InputType({ description: 'A new version of one legal text; it replaces the published one.' })
export class UpsertLegalTextInput implements UpsertLegalTextData {
  @Field(() => LegalTextKind, { description: 'Which legal text to publish.' }) kind: LegalTextKind;

  @Field(() => String, { description: 'Heading, 1..255 characters.' })
  @Matches(/\S/, { message: 'The title field is required.' })
  @Text('title', 255)
  title: string;

  @Field(() => String, { description: 'Plain text, 1..100 000 characters; separate paragraphs by a blank line.' })
  @Matches(/\S/, { message: 'The content field is required.' })
  @Text('content', 100_000)
  content: string;
}
