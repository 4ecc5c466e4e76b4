import { IsOptional, IsUrl, Matches, Min } from 'class-validator';
import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { Decimal } from '../services/money';
import { CategoryRef } from './category.type';
import { UnitStatus } from './enums';
import { Paginated } from './pagination.type';
import { DecimalScalar } from './scalars';
import { RequiredText, Text } from './rules';

export const UNIT_CODE_RULE = /^[A-Z0-9]+(?:-[A-Z0-9]+)*$/;

@ObjectType({ description: "The authenticated investor's holding in a unit." })
export class MyHolding {
  @Field(() => DecimalScalar) ownershipPercentage: Decimal;
  @Field(() => DecimalScalar) investedAmount: Decimal;
}

@ObjectType({ description: 'A unit as guests see it: public fields only, nothing about any investor.' })
export class PublicUnit {
  @Field(() => Int) id: number;
  @Field(() => String) code: string;
  @Field(() => String) name: string;
  @Field(() => String) description: string;
  @Field(() => String) location: string;
  @Field(() => CategoryRef) category: CategoryRef;
  @Field(() => UnitStatus) status: UnitStatus;
  @Field(() => DecimalScalar, { description: 'Offering value: prices every share (amount = percentage × totalValue / 100).' }) totalValue: Decimal;
  @Field(() => DecimalScalar, { description: 'Share of the unit still for sale, in percent.' }) availablePercentage: Decimal;
  @Field(() => DecimalScalar) minInvestment: Decimal;
  @Field(() => DecimalScalar, { description: 'Expected yearly return, in percent.' }) expectedReturn: Decimal;
  @Field(() => DecimalScalar, { description: 'The latest valuation, or totalValue before the first one.' }) currentValue: Decimal;
  @Field(() => String, { nullable: true }) imageUrl: string | null;
  @Field(() => Date) listedAt: Date;
  @Field(() => Date) createdAt: Date;
  @Field(() => Date) updatedAt: Date;
}

@ObjectType({ description: 'A unit (an investable asset) of the catalogue.' })
export class Unit extends PublicUnit {
  @Field(() => MyHolding, { nullable: true, description: "The authenticated investor's holding; null for staff and for units not held." })
  myHolding: MyHolding | null;
}

@ObjectType()
export class UnitPage extends Paginated(Unit) {}

@ObjectType()
export class PublicUnitPage extends Paginated(PublicUnit) {}

@ObjectType({ description: 'One point of a unit’s valuation history.' })
export class UnitValuation {
  @Field(() => Int) id: number;
  @Field(() => Int) unitId: number;
  @Field(() => DecimalScalar) value: Decimal;
  @Field(() => Date) valuedAt: Date;
}

@InputType({ description: 'All optional; the min investment bounds are inclusive.' })
export class UnitFilter {
  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(1, { message: 'The category id field must be at least 1.' })
  categoryId?: number | null;

  @Field(() => UnitStatus, { nullable: true, description: 'Default AVAILABLE (public lists: AVAILABLE and FUNDED).' })
  status?: UnitStatus | null;

  @Field(() => DecimalScalar, { nullable: true }) minInvestmentFrom?: Decimal | null;
  @Field(() => DecimalScalar, { nullable: true }) minInvestmentTo?: Decimal | null;

  @Field(() => String, { nullable: true, description: 'Searches name, code and location (case-insensitive).' })
  @IsOptional()
  @Text('q', 100)
  q?: string | null;
}

const IMAGE_URL = { protocols: ['http', 'https'], require_protocol: true };

@InputType()
export class CreateUnitInput {
  @Field(() => String, { description: 'Unique, upper-case letters, digits and hyphens, e.g. "UNT-0041".' })
  @Matches(UNIT_CODE_RULE, { message: 'The code field must only contain upper-case letters, numbers and single hyphens.' })
  @Text('code', 32)
  code: string;

  @Field(() => String)
  @RequiredText('name', 255)
  name: string;

  @Field(() => String)
  @RequiredText('description', 5000)
  description: string;

  @Field(() => String)
  @RequiredText('location', 255)
  location: string;

  @Field(() => Int)
  @Min(1, { message: 'The category id field must be at least 1.' })
  categoryId: number;

  @Field(() => UnitStatus, { nullable: true, description: 'DRAFT (default) or AVAILABLE.' })
  status?: UnitStatus | null;

  @Field(() => DecimalScalar) totalValue: Decimal;
  @Field(() => DecimalScalar) minInvestment: Decimal;
  @Field(() => DecimalScalar, { description: 'Percent per year, 0..100.' }) expectedReturn: Decimal;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsUrl(IMAGE_URL, { message: 'The image url field must be a valid URL.' })
  @Text('image url', 2048)
  imageUrl?: string | null;
}

@InputType({ description: 'Only the fields given change. availablePercentage moves with investments only; totalValue only while DRAFT.' })
export class UpdateUnitInput {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @RequiredText('name', 255)
  name?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @RequiredText('description', 5000)
  description?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @RequiredText('location', 255)
  location?: string | null;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(1, { message: 'The category id field must be at least 1.' })
  categoryId?: number | null;

  @Field(() => UnitStatus, { nullable: true, description: 'DRAFT → AVAILABLE → FUNDED → CLOSED (also AVAILABLE → CLOSED, FUNDED → AVAILABLE).' })
  status?: UnitStatus | null;

  @Field(() => DecimalScalar, { nullable: true }) totalValue?: Decimal | null;
  @Field(() => DecimalScalar, { nullable: true }) minInvestment?: Decimal | null;
  @Field(() => DecimalScalar, { nullable: true }) expectedReturn?: Decimal | null;

  @Field(() => String, { nullable: true, description: 'null removes the image.' })
  @IsOptional()
  @IsUrl(IMAGE_URL, { message: 'The image url field must be a valid URL.' })
  @Text('image url', 2048)
  imageUrl?: string | null;
}

@ArgsType()
export class RecordUnitValuationArgs {
  @Field(() => Int)
  @Min(1, { message: 'The unit id field must be at least 1.' })
  unitId: number;

  @Field(() => DecimalScalar) value: Decimal;

  @Field(() => Date, { description: 'When the valuation applies; not in the future.' }) valuedAt: Date;
}
