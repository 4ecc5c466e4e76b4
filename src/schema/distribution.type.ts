import { IsOptional, Matches, Min } from 'class-validator';
import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { Decimal } from '../services/money';
import { DistributionStatus, DistributionType } from './enums';
import { Paginated } from './pagination.type';
import { DateScalar, DecimalScalar } from './scalars';

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
  period?: string | null;

  @Field(() => DateScalar, { nullable: true }) from?: Date | null;
  @Field(() => DateScalar, { nullable: true }) to?: Date | null;

  @Field(() => Int, { nullable: true, description: 'Staff only; investors always see their own.' })
  @IsOptional()
  @Min(1, { message: 'The investor id field must be at least 1.' })
  investorId?: number | null;
}
