import { IsOptional, Matches } from 'class-validator';
import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { Decimal } from '../domain/money';
import { DistributionCadence, DistributionStatus, DistributionType } from './enums';
import { Paginated } from './pagination.type';
import { DateScalar, DecimalScalar } from './scalars';
import { DecimalRange, Id, OptionalId, Text } from './rules';
import { MAX_MONEY } from '../domain/money-rules';
import type { DeclarationDetailView, DeclarationView, DeclareDistributionData, DistributionView } from '../services/distribution.service';

export const PERIOD_RULE = /^\d{4}-Q[1-4]$/;

/** Earliest removal of what this release deprecates (docs/api.md, "Deprecation policy"). */
const REMOVAL = 'Removal no earlier than 2.0.0.';
const TYPE_DEPRECATED = `Use profitKind (the same value). The REST face's \`type\` is cadence. ${REMOVAL}`;
const DISTRIBUTED_AT_DEPRECATED = `Use paidAt (the same value), or scheduledFor for the planned date. The REST face's \`distributed_at\` is paymentDate. ${REMOVAL}`;

// simpleResolvers: its fields read their properties with graphql's default resolver instead of a
// type-graphql wrapper each, which a list ran for every field of every item; they carry no roles or
// middlewares to apply (test/graphql/simple-resolvers.test.ts keeps it so).
@ObjectType({ simpleResolvers: true, description: "One investor's share of a unit's profit for a period." })
export class Distribution implements DistributionView {
  @Field(() => Int, { description: 'Id of the distribution (one holder’s share): what distribution(id:) takes.' }) id: number;
  @Field(() => Int, { description: 'The unit whose profit this is.' }) unitId: number;
  @Field(() => String, { description: 'Name of the unit.' }) unitName: string;
  @Field(() => Int, { description: 'The holder it is paid to.' }) investorId: number;
  @Field(() => String, { description: 'Quarter, e.g. "2026-Q1".' }) period: string;
  @Field(() => DistributionType, { description: 'What kind of profit was declared.', deprecationReason: TYPE_DEPRECATED }) type: DistributionType;
  @Field(() => DistributionType, { description: 'What kind of profit was declared (rent, dividend, …).' }) profitKind: DistributionType;
  @Field(() => DistributionCadence, { description: 'How often the unit pays: the REST face’s `type`.' }) cadence: DistributionCadence;
  @Field(() => DecimalScalar, { description: "The holder's share of the unit when the profit was declared, in percent (up to 6 places)." })
  ownershipPercentage: Decimal;
  @Field(() => DecimalScalar, { description: "The holder's share of the declared amount (Decimal, 2 places)." }) grossAmount: Decimal;
  @Field(() => DecimalScalar, { description: 'grossAmount − fees: what the holder receives (Decimal, 2 places).' }) netAmount: Decimal;
  @Field(() => DecimalScalar, { description: 'Management fee kept by the platform: grossAmount × the declaration’s feeRate (Decimal, 2 places).' })
  fees: Decimal;
  @Field(() => DistributionStatus, { description: 'Follows its declaration: PENDING → APPROVED → DISTRIBUTED, or CANCELLED.' }) status: DistributionStatus;
  @Field(() => Date, { nullable: true, description: 'When it was paid out (status DISTRIBUTED); null before.', deprecationReason: DISTRIBUTED_AT_DEPRECATED })
  distributedAt: Date | null;
  @Field(() => DateScalar, { description: 'The UTC date it is to be paid (kept once paid, and when cancelled).' }) scheduledFor: Date;
  @Field(() => Date, { nullable: true, description: 'When it was paid out (status DISTRIBUTED); null before.' }) paidAt: Date | null;
  @Field(() => Date, {
    description: 'paidAt once paid, else scheduledFor at 00:00 UTC: never null. The REST face’s `distributed_at`; the lists’ from/to filter on it.',
  })
  paymentDate: Date;
  @Field(() => Date, { description: 'When the profit was declared.' }) createdAt: Date;
}

@ObjectType({ description: 'One page of distributions, newest first.' })
export class DistributionPage extends Paginated(Distribution) {}

@InputType({ description: 'All optional; `from`/`to` are inclusive UTC dates on paymentDate.' })
export class DistributionFilter {
  @Field(() => DistributionStatus, { nullable: true, description: 'Only distributions in this status.' }) status?: DistributionStatus | null;
  @Field(() => DistributionType, { nullable: true, description: 'Only distributions of this kind of profit.', deprecationReason: TYPE_DEPRECATED })
  type?: DistributionType | null;
  @Field(() => DistributionType, { nullable: true, description: 'Only distributions of this kind of profit.' }) profitKind?: DistributionType | null;
  @Field(() => DistributionCadence, { nullable: true, description: 'Only distributions of this cadence (REST: `type`).' }) cadence?: DistributionCadence | null;

  @Field(() => Int, { nullable: true, description: 'Only distributions of this unit.' })
  @OptionalId('unit id')
  unitId?: number | null;

  @Field(() => String, { nullable: true, description: 'Only this quarter, e.g. "2026-Q1".' })
  @IsOptional()
  @Matches(PERIOD_RULE, { message: 'The period field must be a quarter such as 2026-Q1.' })
  @Text('period', 7)
  period?: string | null;

  @Field(() => DateScalar, { nullable: true, description: 'First UTC date (inclusive) of paymentDate.' }) from?: Date | null;
  @Field(() => DateScalar, { nullable: true, description: 'Last UTC date (inclusive) of paymentDate.' }) to?: Date | null;

  @Field(() => Int, { nullable: true, description: 'Staff only; investors always see their own.' })
  @OptionalId('investor id')
  investorId?: number | null;
}

@ObjectType({ description: 'A unit-level profit declaration for one period; it fans out into one Distribution per holder.' })
export class DistributionDeclaration implements DeclarationView {
  @Field(() => Int, { description: 'Id of the declaration: what approveDistribution, distributeDistribution and cancelDistribution take.' }) id: number;
  @Field(() => Int, { description: 'The unit whose profit was declared.' }) unitId: number;
  @Field(() => String, { description: 'Name of the unit.' }) unitName: string;
  @Field(() => String, { description: 'Quarter, e.g. "2026-Q1".' }) period: string;
  @Field(() => DistributionType, { description: 'What kind of profit was declared.', deprecationReason: TYPE_DEPRECATED }) type: DistributionType;
  @Field(() => DistributionType, { description: 'What kind of profit was declared (rent, dividend, …).' }) profitKind: DistributionType;
  @Field(() => DistributionCadence, { description: 'How often the unit pays.' }) cadence: DistributionCadence;
  @Field(() => DateScalar, { description: 'The UTC date it is to be paid (kept once paid, and when cancelled).' }) scheduledFor: Date;
  @Field(() => DecimalScalar, { description: 'The whole amount declared for the unit.' }) grossAmount: Decimal;
  @Field(() => DecimalScalar, { description: 'A fraction: 0.08 = 8 %.' }) feeRate: Decimal;
  @Field(() => DecimalScalar, { description: "Sum of the holders' fees." }) fees: Decimal;
  @Field(() => DecimalScalar, { description: "Sum of the holders' net amounts." }) netAmount: Decimal;
  @Field(() => DecimalScalar, { description: 'The unsold share of the gross, kept by the platform.' }) retainedAmount: Decimal;
  @Field(() => DistributionStatus, { description: 'PENDING → APPROVED → DISTRIBUTED, or CANCELLED; its distributions follow it.' }) status: DistributionStatus;
  @Field(() => Int, { description: 'Holders the declaration fanned out to.' }) holdersCount: number;
  @Field(() => Int, { nullable: true, description: 'The admin who declared it; null once that account is deleted.' }) declaredById: number | null;
  @Field(() => Date, { nullable: true, description: 'When an admin approved it; null before.' }) approvedAt: Date | null;
  @Field(() => Date, { nullable: true, description: 'When it was paid out to the holders; null before.', deprecationReason: DISTRIBUTED_AT_DEPRECATED })
  distributedAt: Date | null;
  @Field(() => Date, { nullable: true, description: 'When it was paid out to the holders; null before.' }) paidAt: Date | null;
  @Field(() => Date, { description: 'When it was declared.' }) createdAt: Date;
  @Field(() => Date, { description: 'When its status last changed.' }) updatedAt: Date;
}

/** Its `distributions` field answers one page of the holders' rows, read in SQL (DistributionDeclarationDetailResolver). */
@ObjectType({ description: "A declaration with its holders' distributions." })
export class DistributionDeclarationDetail extends DistributionDeclaration implements DeclarationDetailView {}

@ObjectType({ description: 'One page of distribution declarations, newest first.' })
export class DistributionDeclarationPage extends Paginated(DistributionDeclaration) {}

@InputType({ description: 'All optional and combined with AND.' })
export class DistributionDeclarationFilter {
  @Field(() => Int, { nullable: true, description: 'Only declarations for this unit.' })
  @OptionalId('unit id')
  unitId?: number | null;

  @Field(() => String, { nullable: true, description: 'Only this quarter, e.g. "2026-Q1".' })
  @IsOptional()
  @Matches(PERIOD_RULE, { message: 'The period field must be a quarter such as 2026-Q1.' })
  @Text('period', 7)
  period?: string | null;

  @Field(() => DistributionStatus, { nullable: true, description: 'Only declarations in this status.' }) status?: DistributionStatus | null;
  @Field(() => DistributionCadence, { nullable: true, description: 'Only declarations of this cadence.' }) cadence?: DistributionCadence | null;
}

@InputType({
  description:
    "A unit's profit for one quarter; one declaration per unit, period, profit kind, cadence and scheduled date (CONFLICT otherwise). The unit needs holders.",
})
export class DeclareDistributionInput implements DeclareDistributionData {
  @Field(() => Int, { description: 'The unit whose profit is declared.' })
  @Id('unit id')
  unitId: number;

  @Field(() => String, { description: 'The quarter it belongs to, e.g. "2026-Q1".' })
  @Matches(PERIOD_RULE, { message: 'The period field must be a quarter such as 2026-Q1.' })
  @Text('period', 7)
  period: string;

  @Field(() => DistributionType, { nullable: true, description: 'What kind of profit it is.', deprecationReason: TYPE_DEPRECATED })
  type?: DistributionType | null;

  @Field(() => DistributionType, { nullable: true, description: 'What kind of profit it is. Required (give it, or the deprecated type).' })
  profitKind?: DistributionType | null;

  @Field(() => DistributionCadence, { nullable: true, description: 'How often the unit pays. Default QUARTERLY (a period is a quarter).' })
  cadence?: DistributionCadence | null;

  @Field(() => DateScalar, {
    nullable: true,
    description:
      'The UTC date it is to be paid: from today to two years ahead. Default: the last day of the month after the quarter (2026-Q1 → 2026-04-30), or today when that has passed.',
  })
  scheduledFor?: Date | null;

  @Field(() => DecimalScalar, { description: 'Amount for the whole unit (> 0, cents).' })
  @DecimalRange('gross amount', { min: '0.01', max: MAX_MONEY, places: 2 })
  grossAmount: Decimal;

  @Field(() => DecimalScalar, { description: 'Management fee as a fraction, 0 ≤ rate < 1, up to 6 places.' })
  @DecimalRange('fee rate', { min: 0, below: 1, places: 6 })
  feeRate: Decimal;
}
