import { IsOptional, Matches, Min } from 'class-validator';
import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { Decimal } from '../services/money';
import { DistributionStatus, DistributionType } from './enums';
import { Paginated } from './pagination.type';
import { DateScalar, DecimalScalar } from './scalars';
import { Text } from './rules';

export const PERIOD_RULE = /^\d{4}-Q[1-4]$/;

@ObjectType({ description: "One investor's share of a unit's profit for a period." })
export class Distribution {
  @Field(() => Int) id: number;
  @Field(() => Int) unitId: number;
  @Field(() => String) unitName: string;
  @Field(() => Int) investorId: number;
  @Field(() => String, { description: 'Quarter, e.g. "2026-Q1".' }) period: string;
  @Field(() => DistributionType) type: DistributionType;
  @Field(() => DecimalScalar) ownershipPercentage: Decimal;
  @Field(() => DecimalScalar) grossAmount: Decimal;
  @Field(() => DecimalScalar) netAmount: Decimal;
  @Field(() => DecimalScalar) fees: Decimal;
  @Field(() => DistributionStatus) status: DistributionStatus;
  @Field(() => Date, { nullable: true }) distributedAt: Date | null;
  @Field(() => Date) createdAt: Date;
}

@ObjectType()
export class DistributionPage extends Paginated(Distribution) {}

@InputType({ description: 'All optional; `from`/`to` are inclusive UTC dates on distributedAt.' })
export class DistributionFilter {
  @Field(() => DistributionStatus, { nullable: true }) status?: DistributionStatus | null;
  @Field(() => DistributionType, { nullable: true }) type?: DistributionType | null;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(1, { message: 'The unit id field must be at least 1.' })
  unitId?: number | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Matches(PERIOD_RULE, { message: 'The period field must be a quarter such as 2026-Q1.' })
  @Text('period', 7)
  period?: string | null;

  @Field(() => DateScalar, { nullable: true }) from?: Date | null;
  @Field(() => DateScalar, { nullable: true }) to?: Date | null;

  @Field(() => Int, { nullable: true, description: 'Staff only; investors always see their own.' })
  @IsOptional()
  @Min(1, { message: 'The investor id field must be at least 1.' })
  investorId?: number | null;
}

@ObjectType({ description: 'A unit-level profit declaration for one period; it fans out into one Distribution per holder.' })
export class DistributionDeclaration {
  @Field(() => Int) id: number;
  @Field(() => Int) unitId: number;
  @Field(() => String) unitName: string;
  @Field(() => String, { description: 'Quarter, e.g. "2026-Q1".' }) period: string;
  @Field(() => DistributionType) type: DistributionType;
  @Field(() => DecimalScalar, { description: 'The whole amount declared for the unit.' }) grossAmount: Decimal;
  @Field(() => DecimalScalar, { description: 'A fraction: 0.08 = 8 %.' }) feeRate: Decimal;
  @Field(() => DecimalScalar, { description: "Sum of the holders' fees." }) fees: Decimal;
  @Field(() => DecimalScalar, { description: "Sum of the holders' net amounts." }) netAmount: Decimal;
  @Field(() => DecimalScalar, { description: 'The unsold share of the gross, kept by the platform.' }) retainedAmount: Decimal;
  @Field(() => DistributionStatus) status: DistributionStatus;
  @Field(() => Int, { description: 'Holders the declaration fanned out to.' }) holdersCount: number;
  @Field(() => Int, { nullable: true }) declaredById: number | null;
  @Field(() => Date, { nullable: true }) approvedAt: Date | null;
  @Field(() => Date, { nullable: true }) distributedAt: Date | null;
  @Field(() => Date) createdAt: Date;
  @Field(() => Date) updatedAt: Date;
}

@ObjectType({ description: "A declaration with its holders' distributions." })
export class DistributionDeclarationDetail extends DistributionDeclaration {
  @Field(() => [Distribution], { description: 'One per holder, in holding order.' }) distributions: Distribution[];
}

@ObjectType()
export class DistributionDeclarationPage extends Paginated(DistributionDeclaration) {}

@InputType()
export class DistributionDeclarationFilter {
  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(1, { message: 'The unit id field must be at least 1.' })
  unitId?: number | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Matches(PERIOD_RULE, { message: 'The period field must be a quarter such as 2026-Q1.' })
  @Text('period', 7)
  period?: string | null;

  @Field(() => DistributionStatus, { nullable: true }) status?: DistributionStatus | null;
}

@InputType()
export class DeclareDistributionInput {
  @Field(() => Int)
  @Min(1, { message: 'The unit id field must be at least 1.' })
  unitId: number;

  @Field(() => String)
  @Matches(PERIOD_RULE, { message: 'The period field must be a quarter such as 2026-Q1.' })
  @Text('period', 7)
  period: string;

  @Field(() => DistributionType) type: DistributionType;

  @Field(() => DecimalScalar, { description: 'Amount for the whole unit (> 0, cents).' })
  grossAmount: Decimal;

  @Field(() => DecimalScalar, { description: 'Management fee as a fraction, 0 ≤ rate < 1, up to 6 places.' })
  feeRate: Decimal;
}
