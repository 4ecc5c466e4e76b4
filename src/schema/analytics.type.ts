import { IsOptional, Matches } from 'class-validator';
import { Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Decimal } from '../domain/money';
import { PERIOD_RULE } from './distribution.type';
import { DistributionStatus, WithdrawalRequestStatus } from './enums';
import { DecimalScalar } from './scalars';
import { OptionalId, Text } from './rules';
import type { CategoryAumView, DistributionTotalView, WithdrawalVolumeView } from '../services/analytics.service';

export enum DistributionGrouping {
  PERIOD = 'PERIOD',
  UNIT = 'UNIT',
}
registerEnumType(DistributionGrouping, {
  name: 'DistributionGrouping',
  description: 'PERIOD: one row per quarter, oldest first; UNIT: one row per unit, by unit id.',
  valuesConfig: {
    PERIOD: { description: 'One row per quarter ("2026-Q1") of the distributions, oldest first.' },
    UNIT: { description: 'One row per unit, by unit id.' },
  },
});

@ObjectType({ description: 'Assets under management in one category.' })
export class CategoryAum implements CategoryAumView {
  @Field(() => Int, { description: 'Id of the category.' }) categoryId: number;
  @Field(() => String, { description: 'Name of the category.' }) category: string;
  @Field(() => Int, { description: 'Units of the category that are listed (not DRAFT).' }) unitsCount: number;
  @Field(() => DecimalScalar, { description: 'Sum of the holdings’ invested amounts.' }) investedTotal: Decimal;
  @Field(() => DecimalScalar, {
    description: 'Sum over holdings of ownership % × the unit’s latest valuation (else its total value) / 100, each rounded to the cent.',
  })
  currentValueTotal: Decimal;
  @Field(() => Int, { description: 'Distinct investors holding a unit of the category.' }) holdersCount: number;
}

@InputType({ description: 'All optional; periods are inclusive quarters ("2026-Q1"). Without a status, CANCELLED distributions are left out.' })
export class DistributionTotalsFilter {
  @Field(() => String, { nullable: true, description: 'First quarter included, e.g. "2026-Q1".' })
  @IsOptional()
  @Matches(PERIOD_RULE, { message: 'The from period field must be a quarter such as 2026-Q1.' })
  @Text('from period', 7)
  fromPeriod?: string | null;

  @Field(() => String, { nullable: true, description: 'Last quarter included, e.g. "2026-Q4".' })
  @IsOptional()
  @Matches(PERIOD_RULE, { message: 'The to period field must be a quarter such as 2026-Q1.' })
  @Text('to period', 7)
  toPeriod?: string | null;

  @Field(() => Int, { nullable: true, description: 'Only the distributions of this unit.' })
  @OptionalId('unit id')
  unitId?: number | null;

  @Field(() => DistributionStatus, { nullable: true, description: 'Only distributions in this status (then CANCELLED ones can be asked for).' })
  status?: DistributionStatus | null;
}

@ObjectType({ description: "Sums of the holders' distributions in one group (period or unit)." })
export class DistributionTotal implements DistributionTotalView {
  @Field(() => String, { nullable: true, description: 'Set when grouped by PERIOD.' }) period: string | null;
  @Field(() => Int, { nullable: true, description: 'Set when grouped by UNIT.' }) unitId: number | null;
  @Field(() => String, { nullable: true, description: 'Set when grouped by UNIT.' }) unitName: string | null;
  @Field(() => Int, { description: 'Distribution rows (one per holder and declaration).' }) count: number;
  @Field(() => DecimalScalar, { description: "Sum of the holders' gross amounts (Decimal, 2 places)." }) grossAmount: Decimal;
  @Field(() => DecimalScalar, { description: 'Sum of the management fees kept by the platform (Decimal, 2 places).' }) fees: Decimal;
  @Field(() => DecimalScalar, { description: 'Sum of what the holders receive: gross − fees (Decimal, 2 places).' }) netAmount: Decimal;
}

@ObjectType({ description: 'Withdrawal requests in one status.' })
export class WithdrawalVolume implements WithdrawalVolumeView {
  @Field(() => WithdrawalRequestStatus, { description: 'The status these requests are in.' }) status: WithdrawalRequestStatus;
  @Field(() => Int, { description: 'Number of withdrawal requests in the status.' }) count: number;
  @Field(() => DecimalScalar, { description: 'Sum of the requested ownership percentages.' }) ownershipPercentage: Decimal;
  @Field(() => DecimalScalar, { description: 'Sum of the invested amounts the requests stand for.' }) investedAmount: Decimal;
}
