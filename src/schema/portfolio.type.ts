import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { Decimal } from '../domain/money';
import { TransactionType } from './enums';
import { Paginated } from './pagination.type';
import { DateScalar, DecimalScalar } from './scalars';
import { UnitRef } from './withdrawal-request.type';
import type { QuarterView } from '../services/dashboard.service';
import type { PerformanceView, PortfolioHoldingView, PortfolioView, TransactionView, UnitPerformanceView } from '../services/portfolio.service';
import { OptionalId } from './rules';

@ObjectType({ description: "One holding, valued at the unit's latest valuation (its total value when it has none)." })
export class PortfolioHolding implements PortfolioHoldingView {
  @Field(() => Int, { description: 'Id of the holding.' }) id: number;
  @Field(() => UnitRef, { description: 'Id, code and name of the unit held.' }) unit: UnitRef;
  @Field(() => DecimalScalar, { description: 'Share of the unit held, in percent (up to 6 places).' }) ownershipPercentage: Decimal;
  @Field(() => DecimalScalar, { description: 'Money invested in the share still held (Decimal, 2 places).' }) investedAmount: Decimal;
  @Field(() => DecimalScalar, { description: 'The whole unit: latest valuation, or total value.' }) unitValue: Decimal;
  @Field(() => DecimalScalar, { description: 'ownershipPercentage × unitValue / 100, to the cent.' }) currentValue: Decimal;
  @Field(() => DecimalScalar, { description: 'currentValue − investedAmount.' }) returnAmount: Decimal;
  @Field(() => DecimalScalar, { description: 'returnAmount / investedAmount × 100, 2 places.' }) returnPercentage: Decimal;
}

@ObjectType({ description: "An investor's holdings with their totals; holdings newest first." })
export class Portfolio implements PortfolioView {
  @Field(() => Int, { description: 'The investor whose holdings these are.' }) investorId: number;
  @Field(() => Int, { description: 'Holdings with a positive ownership.' }) holdingsCount: number;
  @Field(() => DecimalScalar, { description: 'Sum of the holdings’ invested amounts (Decimal, 2 places).' }) totalInvested: Decimal;
  @Field(() => DecimalScalar, { description: 'Sum of the holdings’ current values (Decimal, 2 places).' }) currentValue: Decimal;
  @Field(() => DecimalScalar, { description: 'currentValue − totalInvested (Decimal, 2 places; negative for a loss).' }) returnAmount: Decimal;
  @Field(() => DecimalScalar, { description: 'returnAmount / totalInvested × 100, 2 places; 0 when nothing is invested.' }) returnPercentage: Decimal;
  @Field(() => [PortfolioHolding], { description: 'Each holding, valued, newest first.' }) holdings: PortfolioHolding[];
}

@ObjectType({ description: 'Net distributions paid out (DISTRIBUTED) in one calendar quarter (UTC) of distributedAt.' })
export class QuarterlyDistributions implements QuarterView {
  @Field(() => String, { description: 'e.g. "2026-Q3".' }) quarter: string;
  @Field(() => DecimalScalar, { description: 'Net amount paid in the quarter (Decimal, 2 places; 0 when none).' }) amount: Decimal;
}

@ObjectType({ description: 'Performance of one unit: the holding, or for staff every holder of the unit together.' })
export class UnitPerformance implements UnitPerformanceView {
  @Field(() => UnitRef, { description: 'Id, code and name of the unit.' }) unit: UnitRef;
  @Field(() => DecimalScalar, { description: 'Share of the unit held now, in percent (up to 6 places; 0 once sold back).' }) ownershipPercentage: Decimal;
  @Field(() => DecimalScalar, { description: 'Money invested in the share held now (Decimal, 2 places).' }) investedAmount: Decimal;
  @Field(() => DecimalScalar, { description: 'ownershipPercentage × the unit’s latest valuation / 100, to the cent.' }) currentValue: Decimal;
  @Field(() => DecimalScalar, { description: 'currentValue − investedAmount (Decimal, 2 places).' }) returnAmount: Decimal;
  @Field(() => DecimalScalar, { description: 'returnAmount / investedAmount × 100, 2 places; 0 when nothing is invested.' }) returnPercentage: Decimal;
  @Field(() => DecimalScalar, { description: 'Net, DISTRIBUTED, all time.' }) distributionsReceived: Decimal;
}

@ObjectType({ description: "Valuation, return and distributions of an investor's holdings (staff: of the platform or one investor)." })
export class PortfolioPerformance implements PerformanceView {
  @Field(() => DecimalScalar, { description: 'Sum of the invested amounts (Decimal, 2 places).' }) totalInvested: Decimal;
  @Field(() => DecimalScalar, { description: 'Sum of the current values (Decimal, 2 places).' }) currentValue: Decimal;
  @Field(() => DecimalScalar, { description: 'currentValue − totalInvested (Decimal, 2 places).' }) returnAmount: Decimal;
  @Field(() => DecimalScalar, { description: 'returnAmount / totalInvested × 100, 2 places; 0 when nothing is invested.' }) returnPercentage: Decimal;
  @Field(() => DecimalScalar, { description: 'Net, DISTRIBUTED, all time.' }) distributionsReceived: Decimal;
  @Field(() => [QuarterlyDistributions], { description: 'The last 8 quarters up to the current one, oldest first; empty quarters are 0.' })
  distributionsByQuarter: QuarterlyDistributions[];
  @Field(() => [UnitPerformance], { description: 'Units held now or that paid distributions, largest invested amount first.' })
  holdings: UnitPerformance[];
}

@ObjectType({ description: 'A ledger entry: positive amount, the type gives the direction.' })
export class Transaction implements TransactionView {
  @Field(() => Int, { description: 'Id of the ledger entry: what transaction(id:) takes.' }) id: number;
  @Field(() => Int, { description: 'The investor whose ledger this is.' }) investorId: number;
  @Field(() => TransactionType, { description: 'The kind of money movement.' }) type: TransactionType;
  @Field(() => DecimalScalar, { description: 'Money moved, always positive (Decimal, 2 places).' }) amount: Decimal;
  @Field(() => String, { description: 'Human-readable line, e.g. "Payout PO-D-12 · Student Flats Porto".' }) description: string;
  @Field(() => UnitRef, { description: 'Id, code and name of the unit concerned.' }) unit: UnitRef;
  @Field(() => Int, { nullable: true, description: 'The approved investment request, for type INVESTMENT.' }) investmentRequestId: number | null;
  @Field(() => Int, { nullable: true, description: 'The withdrawal request, for type WITHDRAWAL (and its PAYOUT).' }) withdrawalRequestId: number | null;
  @Field(() => Int, { nullable: true, description: 'The distribution, for type DISTRIBUTION (and its PAYOUT).' }) distributionId: number | null;
  @Field(() => Int, { nullable: true, description: 'The payout, for type PAYOUT (and the entry that created it).' }) payoutId: number | null;
  @Field(() => Date, { description: 'When the money moved; lists are ordered by it.' }) occurredAt: Date;
  @Field(() => Date, { description: 'When the entry was written.' }) createdAt: Date;
}

@ObjectType({ description: 'One page of ledger entries, newest first by occurredAt.' })
export class TransactionPage extends Paginated(Transaction) {}

@InputType({ description: 'All optional; `from`/`to` are inclusive UTC dates on occurredAt.' })
export class TransactionFilter {
  @Field(() => TransactionType, { nullable: true, description: 'Only entries of this kind.' }) type?: TransactionType | null;

  @Field(() => Int, { nullable: true, description: 'Only entries of this unit.' })
  @OptionalId('unit id')
  unitId?: number | null;

  @Field(() => DateScalar, { nullable: true, description: 'First UTC date (inclusive) of occurredAt.' }) from?: Date | null;
  @Field(() => DateScalar, { nullable: true, description: 'Last UTC date (inclusive) of occurredAt.' }) to?: Date | null;

  @Field(() => Int, { nullable: true, description: 'Staff only; investors always see their own.' })
  @OptionalId('investor id')
  investorId?: number | null;
}
