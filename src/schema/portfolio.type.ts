import { IsOptional, Min } from 'class-validator';
import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { Decimal } from '../services/money';
import { TransactionType } from './enums';
import { Paginated } from './pagination.type';
import { DateScalar, DecimalScalar } from './scalars';
import { UnitRef } from './withdrawal-request.type';

@ObjectType({ description: "One holding, valued at the unit's latest valuation (its total value when it has none)." })
export class PortfolioHolding {
  @Field(() => Int) id: number;
  @Field(() => UnitRef) unit: UnitRef;
  @Field(() => DecimalScalar) ownershipPercentage: Decimal;
  @Field(() => DecimalScalar) investedAmount: Decimal;
  @Field(() => DecimalScalar, { description: 'The whole unit: latest valuation, or total value.' }) unitValue: Decimal;
  @Field(() => DecimalScalar, { description: 'ownershipPercentage × unitValue / 100, to the cent.' }) currentValue: Decimal;
  @Field(() => DecimalScalar, { description: 'currentValue − investedAmount.' }) returnAmount: Decimal;
  @Field(() => DecimalScalar, { description: 'returnAmount / investedAmount × 100, 2 places.' }) returnPercentage: Decimal;
}

@ObjectType({ description: "An investor's holdings with their totals; holdings newest first." })
export class Portfolio {
  @Field(() => Int) investorId: number;
  @Field(() => Int) holdingsCount: number;
  @Field(() => DecimalScalar) totalInvested: Decimal;
  @Field(() => DecimalScalar) currentValue: Decimal;
  @Field(() => DecimalScalar) returnAmount: Decimal;
  @Field(() => DecimalScalar) returnPercentage: Decimal;
  @Field(() => [PortfolioHolding]) holdings: PortfolioHolding[];
}

@ObjectType({ description: 'Net distributions paid out (DISTRIBUTED) in one calendar quarter (UTC) of distributedAt.' })
export class QuarterlyDistributions {
  @Field(() => String, { description: 'e.g. "2026-Q3".' }) quarter: string;
  @Field(() => DecimalScalar) amount: Decimal;
}

@ObjectType({ description: 'Performance of one unit: the holding, or for staff every holder of the unit together.' })
export class UnitPerformance {
  @Field(() => UnitRef) unit: UnitRef;
  @Field(() => DecimalScalar) ownershipPercentage: Decimal;
  @Field(() => DecimalScalar) investedAmount: Decimal;
  @Field(() => DecimalScalar) currentValue: Decimal;
  @Field(() => DecimalScalar) returnAmount: Decimal;
  @Field(() => DecimalScalar) returnPercentage: Decimal;
  @Field(() => DecimalScalar, { description: 'Net, DISTRIBUTED, all time.' }) distributionsReceived: Decimal;
}

@ObjectType()
export class PortfolioPerformance {
  @Field(() => DecimalScalar) totalInvested: Decimal;
  @Field(() => DecimalScalar) currentValue: Decimal;
  @Field(() => DecimalScalar) returnAmount: Decimal;
  @Field(() => DecimalScalar) returnPercentage: Decimal;
  @Field(() => DecimalScalar, { description: 'Net, DISTRIBUTED, all time.' }) distributionsReceived: Decimal;
  @Field(() => [QuarterlyDistributions], { description: 'The last 8 quarters up to the current one, oldest first; empty quarters are 0.' })
  distributionsByQuarter: QuarterlyDistributions[];
  @Field(() => [UnitPerformance], { description: 'Units held now or that paid distributions, largest invested amount first.' })
  holdings: UnitPerformance[];
}

@ObjectType({ description: "A ledger entry: positive amount, the type gives the direction." })
export class Transaction {
  @Field(() => Int) id: number;
  @Field(() => Int) investorId: number;
  @Field(() => TransactionType) type: TransactionType;
  @Field(() => DecimalScalar) amount: Decimal;
  @Field(() => String) description: string;
  @Field(() => UnitRef) unit: UnitRef;
  @Field(() => Int, { nullable: true }) investmentRequestId: number | null;
  @Field(() => Int, { nullable: true }) withdrawalRequestId: number | null;
  @Field(() => Int, { nullable: true }) distributionId: number | null;
  @Field(() => Int, { nullable: true }) payoutId: number | null;
  @Field(() => Date) occurredAt: Date;
  @Field(() => Date) createdAt: Date;
}

@ObjectType()
export class TransactionPage extends Paginated(Transaction) {}

@InputType({ description: 'All optional; `from`/`to` are inclusive UTC dates on occurredAt.' })
export class TransactionFilter {
  @Field(() => TransactionType, { nullable: true }) type?: TransactionType | null;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(1, { message: 'The unit id field must be at least 1.' })
  unitId?: number | null;

  @Field(() => DateScalar, { nullable: true }) from?: Date | null;
  @Field(() => DateScalar, { nullable: true }) to?: Date | null;

  @Field(() => Int, { nullable: true, description: 'Staff only; investors always see their own.' })
  @IsOptional()
  @Min(1, { message: 'The investor id field must be at least 1.' })
  investorId?: number | null;
}
