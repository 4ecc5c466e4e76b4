import { IsOptional, Matches } from 'class-validator';
import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { Decimal } from '../domain/money';
import { DistributionStatus, DistributionType } from './enums';
import { Paginated } from './pagination.type';
import { DateScalar, DecimalScalar } from './scalars';
import { Id, OptionalId, Text } from './rules';
import type { DeclarationDetailView, DeclarationView, DeclareDistributionData, DistributionView } from '../services/distribution.service';

export const PERIOD_RULE = /^\d{4}-Q[1-4]$/;

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
  @Field(() => DistributionType, { description: 'What kind of profit was declared.' }) type: DistributionType;
  @Field(() => DecimalScalar, { description: "The holder's share of the unit when the profit was declared, in percent (up to 6 places)." })
  ownershipPercentage: Decimal;
  @Field(() => DecimalScalar, { description: "The holder's share of the declared amount (Decimal, 2 places)." }) grossAmount: Decimal;
  @Field(() => DecimalScalar, { description: 'grossAmount − fees: what the holder receives (Decimal, 2 places).' }) netAmount: Decimal;
  @Field(() => DecimalScalar, { description: 'Management fee kept by the platform: grossAmount × the declaration’s feeRate (Decimal, 2 places).' })
  fees: Decimal;
  @Field(() => DistributionStatus, { description: 'Follows its declaration: PENDING → APPROVED → DISTRIBUTED, or CANCELLED.' }) status: DistributionStatus;
  @Field(() => Date, { nullable: true, description: 'When it was paid out (status DISTRIBUTED); null before.' }) distributedAt: Date | null;
  @Field(() => Date, { description: 'When the profit was declared.' }) createdAt: Date;
}

@ObjectType({ description: 'One page of distributions, newest first.' })
export class DistributionPage extends Paginated(Distribution) {}

@InputType({ description: 'All optional; `from`/`to` are inclusive UTC dates on distributedAt.' })
export class DistributionFilter {
  @Field(() => DistributionStatus, { nullable: true, description: 'Only distributions in this status.' }) status?: DistributionStatus | null;
  @Field(() => DistributionType, { nullable: true, description: 'Only distributions of this kind.' }) type?: DistributionType | null;

  @Field(() => Int, { nullable: true, description: 'Only distributions of this unit.' })
  @OptionalId('unit id')
  unitId?: number | null;

  @Field(() => String, { nullable: true, description: 'Only this quarter, e.g. "2026-Q1".' })
  @IsOptional()
  @Matches(PERIOD_RULE, { message: 'The period field must be a quarter such as 2026-Q1.' })
  @Text('period', 7)
  period?: string | null;

  @Field(() => DateScalar, { nullable: true, description: 'First UTC date (inclusive) of distributedAt.' }) from?: Date | null;
  @Field(() => DateScalar, { nullable: true, description: 'Last UTC date (inclusive) of distributedAt.' }) to?: Date | null;

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
  @Field(() => DistributionType, { description: 'What kind of profit was declared.' }) type: DistributionType;
  @Field(() => DecimalScalar, { description: 'The whole amount declared for the unit.' }) grossAmount: Decimal;
  @Field(() => DecimalScalar, { description: 'A fraction: 0.08 = 8 %.' }) feeRate: Decimal;
  @Field(() => DecimalScalar, { description: "Sum of the holders' fees." }) fees: Decimal;
  @Field(() => DecimalScalar, { description: "Sum of the holders' net amounts." }) netAmount: Decimal;
  @Field(() => DecimalScalar, { description: 'The unsold share of the gross, kept by the platform.' }) retainedAmount: Decimal;
  @Field(() => DistributionStatus, { description: 'PENDING → APPROVED → DISTRIBUTED, or CANCELLED; its distributions follow it.' }) status: DistributionStatus;
  @Field(() => Int, { description: 'Holders the declaration fanned out to.' }) holdersCount: number;
  @Field(() => Int, { nullable: true, description: 'The admin who declared it; null once that account is deleted.' }) declaredById: number | null;
  @Field(() => Date, { nullable: true, description: 'When an admin approved it; null before.' }) approvedAt: Date | null;
  @Field(() => Date, { nullable: true, description: 'When it was paid out to the holders; null before.' }) distributedAt: Date | null;
  @Field(() => Date, { description: 'When it was declared.' }) createdAt: Date;
  @Field(() => Date, { description: 'When its status last changed.' }) updatedAt: Date;
}

@ObjectType({ description: "A declaration with its holders' distributions." })
export class DistributionDeclarationDetail extends DistributionDeclaration implements DeclarationDetailView {
  /** Every holder's row, as the service loads it; the `distributions` field answers a page of them (DistributionDeclarationDetailResolver). */
  distributions: Distribution[];
}

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
}

@InputType({ description: "A unit's profit for one quarter; one declaration per unit, period and type (CONFLICT otherwise). The unit needs holders." })
export class DeclareDistributionInput implements DeclareDistributionData {
  @Field(() => Int, { description: 'The unit whose profit is declared.' })
  @Id('unit id')
  unitId: number;

  @Field(() => String, { description: 'The quarter it belongs to, e.g. "2026-Q1".' })
  @Matches(PERIOD_RULE, { message: 'The period field must be a quarter such as 2026-Q1.' })
  @Text('period', 7)
  period: string;

  @Field(() => DistributionType, { description: 'What kind of profit it is.' }) type: DistributionType;

  @Field(() => DecimalScalar, { description: 'Amount for the whole unit (> 0, cents).' })
  grossAmount: Decimal;

  @Field(() => DecimalScalar, { description: 'Management fee as a fraction, 0 ≤ rate < 1, up to 6 places.' })
  feeRate: Decimal;
}
