import { ArrayMaxSize, ArrayUnique, IsOptional, Matches } from 'class-validator';
import { Field, InputType, ObjectType } from 'type-graphql';
import { Decimal } from '../domain/money';
import { DecimalScalar } from './scalars';
import { DecimalRange, Email, InvestmentLimit, Text } from './rules';
import type { AppConfigView, UpdateAppConfigData } from '../services/app-config.service';

@ObjectType({ description: 'Limits and options the mobile app reads at start (one row).' })
export class AppConfig implements AppConfigView {
  @Field(() => DecimalScalar, { description: 'Smallest amount one investment request may ask for (Decimal, 2 places); a unit may ask for more.' })
  minInvestment: Decimal;
  @Field(() => DecimalScalar, { description: 'Largest amount one investment request may ask for (Decimal, 2 places).' }) maxInvestment: Decimal;
  @Field(() => DecimalScalar, { description: 'Smallest share of a unit one withdrawal request may ask for, in percent.' }) minWithdrawalPercentage: Decimal;
  @Field(() => String, { description: 'Where the app sends investors for help.' }) supportEmail: string;
  @Field(() => [String], { description: 'Icon names the back office may give a category (e.g. "graduation-cap").' }) iconOptions: string[];
  @Field(() => [String], { description: 'Badge labels the app may show on units.' }) badgeOptions: string[];
  @Field(() => [String], { description: 'Colours as #RRGGBB.' }) colorOptions: string[];
  @Field(() => String, { description: 'Older app versions must update (semantic version, e.g. "2.0.0").' }) minAppVersion: string;
  @Field(() => Boolean, { description: 'True while the app should show its maintenance screen instead of trading.' }) maintenanceMode: boolean;
  @Field(() => Date, { description: 'When an admin last changed the configuration.' }) updatedAt: Date;
}

@InputType({ description: 'Only the fields given (not null) change. While no configuration exists, the amounts, support email and app version are required.' })
export class UpdateAppConfigInput implements UpdateAppConfigData {
  @Field(() => DecimalScalar, { nullable: true, description: 'New platform minimum per investment request (Decimal, 2 places; not above maxInvestment).' })
  @InvestmentLimit('min investment')
  minInvestment?: Decimal | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'New platform maximum per investment request (Decimal, 2 places).' })
  @InvestmentLimit('max investment')
  maxInvestment?: Decimal | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'New smallest share per withdrawal request, in percent (up to 6 places).' })
  @DecimalRange('min withdrawal percentage', { above: 0, max: 100 })
  minWithdrawalPercentage?: Decimal | null;

  @Field(() => String, { nullable: true, description: 'New support address (a valid email, at most 255 characters).' })
  @IsOptional()
  @Email('support email')
  supportEmail?: string | null;

  @Field(() => [String], { nullable: true, description: 'Replaces the list: up to 50 distinct icon names such as "graduation-cap".' })
  @IsOptional()
  @ArrayMaxSize(50, { message: 'The icon options field must not have more than 50 items.' })
  @ArrayUnique({ message: 'The icon options field has a duplicate value.' })
  @Matches(/^[a-z0-9]+(-[a-z0-9]+)*$/, { each: true, message: 'Each icon option must be an icon name such as graduation-cap.' })
  @Text('icon option', 50, { each: true })
  iconOptions?: string[] | null;

  @Field(() => [String], { nullable: true, description: 'Replaces the list: up to 50 distinct labels of 1..50 characters.' })
  @IsOptional()
  @ArrayMaxSize(50, { message: 'The badge options field must not have more than 50 items.' })
  @ArrayUnique({ message: 'The badge options field has a duplicate value.' })
  @Text('badge option', 50, { min: 1, each: true })
  badgeOptions?: string[] | null;

  @Field(() => [String], { nullable: true, description: 'Replaces the list: up to 50 distinct colours as #RRGGBB.' })
  @IsOptional()
  @ArrayMaxSize(50, { message: 'The color options field must not have more than 50 items.' })
  @ArrayUnique({ message: 'The color options field has a duplicate value.' })
  @Matches(/^#[0-9A-Fa-f]{6}$/, { each: true, message: 'Each color option must be a colour such as #2E7D32.' })
  @Text('color option', 7, { each: true })
  colorOptions?: string[] | null;

  @Field(() => String, { nullable: true, description: 'Oldest app version still allowed, e.g. "2.1.0".' })
  @IsOptional()
  @Matches(/^\d{1,4}\.\d{1,4}\.\d{1,4}$/, { message: 'The min app version field must be a version such as 2.1.0.' })
  @Text('min app version', 14)
  minAppVersion?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'true puts the app into maintenance mode; false ends it.' }) maintenanceMode?: boolean | null;
}
