import { IsOptional, IsUrl, Matches } from 'class-validator';
import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { Decimal } from '../domain/money';
import { CategoryRef } from './category.type';
import { UnitStatus } from './enums';
import { Paginated } from './pagination.type';
import { DecimalScalar } from './scalars';
import { AtLeastField, DecimalRange, Id, Money, OptionalId, RequiredText, Text } from './rules';
import type { MyHoldingView, NewUnitData, UnitData, UnitView } from '../services/unit.service';
import type { UnitValuation as UnitValuationRow } from '../generated/prisma/client';

export const UNIT_CODE_RULE = /^[A-Z0-9]+(?:-[A-Z0-9]+)*$/;

@ObjectType({ description: "The authenticated investor's holding in a unit." })
export class MyHolding implements MyHoldingView {
  @Field(() => DecimalScalar, { description: 'Share of the unit held, in percent (up to 6 places).' }) ownershipPercentage: Decimal;
  @Field(() => DecimalScalar, { description: 'Money invested in that share (Decimal, 2 places).' }) investedAmount: Decimal;
}

@ObjectType({ description: 'A unit as guests see it: public fields only, nothing about any investor.' })
export class PublicUnit implements Omit<UnitView, 'myHolding'> {
  @Field(() => Int, { description: 'Id of the unit: what unit(id:), publicUnit(id:) and every unitId take.' }) id: number;
  @Field(() => String, { description: 'Unique code, e.g. "UNT-0041".' }) code: string;
  @Field(() => String, { description: 'Display name.' }) name: string;
  @Field(() => String, { description: 'What the unit is, for the catalogue.' }) description: string;
  @Field(() => String, { description: 'Where the asset is, e.g. "Porto, Portugal".' }) location: string;
  @Field(() => CategoryRef, { description: "The unit's category." }) category: CategoryRef;
  @Field(() => UnitStatus, { description: 'DRAFT (staff only) → AVAILABLE (open for investment) → FUNDED (sold out) → CLOSED.' }) status: UnitStatus;
  @Field(() => DecimalScalar, { description: 'Offering value: prices every share (amount = percentage × totalValue / 100).' }) totalValue: Decimal;
  @Field(() => DecimalScalar, { description: 'Share of the unit still for sale, in percent.' }) availablePercentage: Decimal;
  @Field(() => DecimalScalar, { description: 'Smallest amount one investment request may ask for (Decimal, 2 places); the platform minimum applies too.' })
  minInvestment: Decimal;
  @Field(() => DecimalScalar, { description: 'Expected yearly return, in percent.' }) expectedReturn: Decimal;
  @Field(() => DecimalScalar, { description: 'The latest valuation, or totalValue before the first one.' }) currentValue: Decimal;
  @Field(() => String, { nullable: true, description: 'Picture of the unit (http or https URL), if it has one.' }) imageUrl: string | null;
  @Field(() => Date, { description: 'When it was first made AVAILABLE (its creation while DRAFT); lists are ordered by it.' }) listedAt: Date;
  @Field(() => Date, { description: 'When the unit was added.' }) createdAt: Date;
  @Field(() => Date, { description: 'When the unit last changed.' }) updatedAt: Date;
}

@ObjectType({ description: 'A unit (an investable asset) of the catalogue.' })
export class Unit extends PublicUnit implements UnitView {
  @Field(() => MyHolding, { nullable: true, description: "The authenticated investor's holding; null for staff and for units not held." })
  myHolding: MyHolding | null;
}

@ObjectType({ description: 'One page of units, newest listed first.' })
export class UnitPage extends Paginated(Unit) {}

@ObjectType({ description: 'One page of public units, newest listed first.' })
export class PublicUnitPage extends Paginated(PublicUnit) {}

@ObjectType({ description: 'One point of a unit’s valuation history.' })
export class UnitValuation implements UnitValuationRow {
  @Field(() => Int, { description: 'Id of the valuation.' }) id: number;
  @Field(() => Int, { description: 'The unit valued.' }) unitId: number;
  @Field(() => DecimalScalar, { description: 'Value of the whole unit (Decimal, 2 places).' }) value: Decimal;
  @Field(() => Date, { description: 'When the value applies.' }) valuedAt: Date;
}

@InputType({ description: 'All optional; the min investment bounds are inclusive.' })
export class UnitFilter {
  @Field(() => Int, { nullable: true, description: 'Only units of this category.' })
  @OptionalId('category id')
  categoryId?: number | null;

  @Field(() => UnitStatus, { nullable: true, description: 'Default AVAILABLE (public lists: AVAILABLE and FUNDED).' })
  status?: UnitStatus | null;

  @Field(() => DecimalScalar, { nullable: true, description: 'Only units whose minInvestment is at least this (Decimal).' })
  @DecimalRange('min investment from', { min: 0 })
  minInvestmentFrom?: Decimal | null;

  @Field(() => DecimalScalar, { nullable: true, description: 'Only units whose minInvestment is at most this (Decimal).' })
  @DecimalRange('min investment to', { min: 0 })
  @AtLeastField('min investment to', 'minInvestmentFrom', 'min investment from')
  minInvestmentTo?: Decimal | null;

  @Field(() => String, { nullable: true, description: 'Searches name, code and location (case-insensitive).' })
  @IsOptional()
  @Text('q', 100)
  q?: string | null;
}

const IMAGE_URL = { protocols: ['http', 'https'], require_protocol: true };
const EXPECTED_RETURN = { min: 0, max: 100, places: 6 };

@InputType({ description: 'A new unit; the code must be unused and the category must exist.' })
export class CreateUnitInput implements NewUnitData {
  @Field(() => String, { description: 'Unique, upper-case letters, digits and hyphens, e.g. "UNT-0041".' })
  @Matches(UNIT_CODE_RULE, { message: 'The code field must only contain upper-case letters, numbers and single hyphens.' })
  @Text('code', 32)
  code: string;

  @Field(() => String, { description: 'Display name, 1..255 characters.' })
  @RequiredText('name', 255)
  name: string;

  @Field(() => String, { description: 'Catalogue text, 1..5000 characters.' })
  @RequiredText('description', 5000)
  description: string;

  @Field(() => String, { description: 'Where the asset is, 1..255 characters.' })
  @RequiredText('location', 255)
  location: string;

  @Field(() => Int, { description: 'The category the unit belongs to.' })
  @Id('category id')
  categoryId: number;

  @Field(() => UnitStatus, { nullable: true, description: 'DRAFT (default) or AVAILABLE.' })
  status?: UnitStatus | null;

  @Field(() => DecimalScalar, { description: 'Offering value of the whole unit (Decimal, > 0, 2 places); prices every share.' })
  @Money('total value')
  totalValue: Decimal;

  @Field(() => DecimalScalar, { description: 'Smallest amount per investment request (Decimal, > 0, 2 places).' })
  @Money('min investment')
  minInvestment: Decimal;

  @Field(() => DecimalScalar, { description: 'Percent per year, 0..100.' })
  @DecimalRange('expected return', EXPECTED_RETURN)
  expectedReturn: Decimal;

  @Field(() => String, { nullable: true, description: 'Picture of the unit: an http or https URL, at most 2048 characters.' })
  @IsOptional()
  @IsUrl(IMAGE_URL, { message: 'The image url field must be a valid URL.' })
  @Text('image url', 2048)
  imageUrl?: string | null;
}

@InputType({ description: 'Only the fields given change. availablePercentage moves with investments only; totalValue only while DRAFT.' })
export class UpdateUnitInput implements UnitData {
  @Field(() => String, { nullable: true, description: 'New display name, 1..255 characters.' })
  @IsOptional()
  @RequiredText('name', 255)
  name?: string | null;

  @Field(() => String, { nullable: true, description: 'New catalogue text, 1..5000 characters.' })
  @IsOptional()
  @RequiredText('description', 5000)
  description?: string | null;

  @Field(() => String, { nullable: true, description: 'New location, 1..255 characters.' })
  @IsOptional()
  @RequiredText('location', 255)
  location?: string | null;

  @Field(() => Int, { nullable: true, description: 'Move the unit to this category.' })
  @OptionalId('category id')
  categoryId?: number | null;

  @Field(() => UnitStatus, { nullable: true, description: 'DRAFT → AVAILABLE → FUNDED → CLOSED (also AVAILABLE → CLOSED, FUNDED → AVAILABLE).' })
  status?: UnitStatus | null;

  @Field(() => DecimalScalar, {
    nullable: true,
    description: 'New offering value (Decimal, > 0, 2 places); only while the unit is DRAFT (CONFLICT otherwise).',
  })
  @Money('total value')
  totalValue?: Decimal | null;

  @Field(() => DecimalScalar, { nullable: true, description: 'New smallest amount per investment request (Decimal, > 0, 2 places).' })
  @Money('min investment')
  minInvestment?: Decimal | null;

  @Field(() => DecimalScalar, { nullable: true, description: 'New expected yearly return, in percent, 0..100.' })
  @DecimalRange('expected return', EXPECTED_RETURN)
  expectedReturn?: Decimal | null;

  @Field(() => String, { nullable: true, description: 'null removes the image.' })
  @IsOptional()
  @IsUrl(IMAGE_URL, { message: 'The image url field must be a valid URL.' })
  @Text('image url', 2048)
  imageUrl?: string | null;
}

@ArgsType()
export class RecordUnitValuationArgs {
  @Field(() => Int, { description: 'The unit valued.' })
  @Id('unit id')
  unitId: number;

  @Field(() => DecimalScalar, { description: 'Value of the whole unit (Decimal, > 0, 2 places); it becomes the unit’s currentValue if it is the newest.' })
  @Money('value')
  value: Decimal;

  @Field(() => Date, { description: 'When the valuation applies; not in the future.' }) valuedAt: Date;
}
