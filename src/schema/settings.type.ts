import { IsISO4217CurrencyCode, IsISO6391, IsOptional, IsTimeZone, Matches } from 'class-validator';
import { Field, InputType, ObjectType } from 'type-graphql';
import { Text } from './rules';

@ObjectType({ description: "The user's preferences: locale and which notifications reach them." })
export class UserSettings {
  @Field(() => String, { description: 'ISO 639-1, lower case ("en").' }) language: string;
  @Field(() => String, { description: 'ISO 4217, upper case ("USD").' }) currency: string;
  @Field(() => String, { description: 'IANA time zone ("Europe/Lisbon").' }) timezone: string;
  @Field(() => Boolean) pushEnabled: boolean;
  @Field(() => Boolean) emailEnabled: boolean;
  @Field(() => Boolean) notifyInvestments: boolean;
  @Field(() => Boolean) notifyWithdrawals: boolean;
  @Field(() => Boolean) notifyDistributions: boolean;
  @Field(() => Boolean) notifyPayouts: boolean;
  @Field(() => Boolean) notifyKyc: boolean;
  @Field(() => Boolean) notifyNewUnits: boolean;
  @Field(() => Date) updatedAt: Date;
}

@InputType({ description: 'Only the fields given (not null) change.' })
export class UpdateSettingsInput {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsISO6391({ message: 'The language field must be a two-letter ISO 639-1 language code in lower case, such as en.' })
  @Text('language', 2)
  language?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  // The ISO check alone accepts any case; the stored form is upper case.
  @Matches(/^[A-Z]{3}$/, { message: 'The currency field must be a three-letter ISO 4217 code in upper case, such as USD.' })
  @IsISO4217CurrencyCode({ message: 'The selected currency is invalid.' })
  @Text('currency', 3)
  currency?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsTimeZone({ message: 'The timezone field must be a valid timezone.' })
  @Text('timezone', 64)
  timezone?: string | null;

  @Field(() => Boolean, { nullable: true }) pushEnabled?: boolean | null;
  @Field(() => Boolean, { nullable: true }) emailEnabled?: boolean | null;
  @Field(() => Boolean, { nullable: true }) notifyInvestments?: boolean | null;
  @Field(() => Boolean, { nullable: true }) notifyWithdrawals?: boolean | null;
  @Field(() => Boolean, { nullable: true }) notifyDistributions?: boolean | null;
  @Field(() => Boolean, { nullable: true }) notifyPayouts?: boolean | null;
  @Field(() => Boolean, { nullable: true }) notifyKyc?: boolean | null;
  @Field(() => Boolean, { nullable: true }) notifyNewUnits?: boolean | null;
}
