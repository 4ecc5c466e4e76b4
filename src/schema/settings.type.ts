import { IsIn, IsISO4217CurrencyCode, IsOptional, IsTimeZone, Matches } from 'class-validator';
import { Field, InputType, ObjectType } from 'type-graphql';
import { Text } from './rules';
import type { UpdateSettingsData, UserSettingsView } from '../services/settings.service';
import { LANGUAGES } from '../services/statements/texts';

const LANGUAGE_LIST = LANGUAGES.join(', ');

@ObjectType({ description: "The user's preferences: locale and which notifications reach them." })
export class UserSettings implements UserSettingsView {
  @Field(() => String, { description: `ISO 639-1, lower case ("en"): one of ${LANGUAGE_LIST}.` }) language: string;
  @Field(() => String, { description: 'ISO 4217, upper case ("USD").' }) currency: string;
  @Field(() => String, { description: 'IANA time zone ("Europe/Lisbon").' }) timezone: string;
  @Field(() => Boolean, { description: 'Push notifications to the registered devices at all; the notification list is kept either way.' }) pushEnabled: boolean;
  @Field(() => Boolean, { description: 'The user’s wish for notification emails; stored for the clients (the gateway itself sends none).' })
  emailEnabled: boolean;
  @Field(() => Boolean, { description: 'Push notifications of reviewed investment requests (with pushEnabled).' }) notifyInvestments: boolean;
  @Field(() => Boolean, { description: 'Push notifications of reviewed and completed withdrawal requests (with pushEnabled).' }) notifyWithdrawals: boolean;
  @Field(() => Boolean, { description: 'Push notifications of distributions paid out (with pushEnabled).' }) notifyDistributions: boolean;
  @Field(() => Boolean, { description: 'Push notifications of payouts sent (with pushEnabled).' }) notifyPayouts: boolean;
  @Field(() => Boolean, { description: 'Push notifications of reviewed KYC documents (with pushEnabled).' }) notifyKyc: boolean;
  @Field(() => Boolean, { description: 'Push notifications of new units in the categories the user is a member of (with pushEnabled).' })
  notifyNewUnits: boolean;
  @Field(() => Date, { description: 'When the settings last changed (account creation until then).' }) updatedAt: Date;
}

@InputType({ description: 'Only the fields given (not null) change.' })
export class UpdateSettingsInput implements UpdateSettingsData {
  @Field(() => String, {
    nullable: true,
    description: `ISO 639-1 code in lower case, one of the languages statements are written in: ${LANGUAGE_LIST}.`,
  })
  @IsOptional()
  // Only the languages statements are translated into: a setting the app offers is one it honours.
  @IsIn(LANGUAGES, { message: `The language field must be one of: ${LANGUAGE_LIST}.` })
  @Text('language', 2)
  language?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 4217 code in upper case, e.g. "EUR" (display only: nothing is converted).' })
  @IsOptional()
  // The ISO check alone accepts any case; the stored form is upper case.
  @Matches(/^[A-Z]{3}$/, { message: 'The currency field must be a three-letter ISO 4217 code in upper case, such as USD.' })
  @IsISO4217CurrencyCode({ message: 'The selected currency is invalid.' })
  @Text('currency', 3)
  currency?: string | null;

  @Field(() => String, { nullable: true, description: 'IANA time zone, e.g. "Europe/Lisbon".' })
  @IsOptional()
  @IsTimeZone({ message: 'The timezone field must be a valid timezone.' })
  @Text('timezone', 64)
  timezone?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'false stops every push notification; the notification list is kept either way.' }) pushEnabled?:
    boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'The user’s wish for notification emails (stored only; the gateway sends none).' }) emailEnabled?:
    boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'Push notifications of reviewed investment requests (with pushEnabled).' }) notifyInvestments?:
    boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'Push notifications of reviewed and completed withdrawal requests (with pushEnabled).' })
  notifyWithdrawals?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'Push notifications of distributions paid out (with pushEnabled).' }) notifyDistributions?:
    boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'Push notifications of payouts sent (with pushEnabled).' }) notifyPayouts?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'Push notifications of reviewed KYC documents (with pushEnabled).' }) notifyKyc?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'Push notifications of new units in the categories the user is a member of (with pushEnabled).' })
  notifyNewUnits?: boolean | null;
}
