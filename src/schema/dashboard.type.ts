import { Field, Int, ObjectType } from 'type-graphql';
import { Decimal } from '../domain/money';
import { Category, CategoryRef } from './category.type';
import { QuarterlyDistributions, Transaction } from './portfolio.type';
import { DecimalScalar } from './scalars';
import { Unit } from './unit.type';
import type { DashboardView, SummaryView, TopGainerView } from '../services/dashboard.service';

@ObjectType({ description: 'An AVAILABLE unit whose value rose over the last 12 months.' })
export class TopGainer implements TopGainerView {
  @Field(() => Int, { description: 'Id of the unit: what unit(id:) takes.' }) id: number;
  @Field(() => String, { description: 'Unit code, e.g. "UNT-0041".' }) code: string;
  @Field(() => String, { description: 'Unit name.' }) name: string;
  @Field(() => String, { nullable: true, description: 'Picture of the unit (http or https URL), if it has one.' }) imageUrl: string | null;
  @Field(() => CategoryRef, { description: "The unit's category." }) category: CategoryRef;
  @Field(() => DecimalScalar, { description: 'Value 12 months ago: the latest valuation then, else the offering value.' }) previousValue: Decimal;
  @Field(() => DecimalScalar, { description: 'The latest valuation.' }) currentValue: Decimal;
  @Field(() => DecimalScalar, { description: '(current − previous) / previous × 100, rounded to 2 places.' }) changePercentage: Decimal;
}

@ObjectType({ description: "The investor's totals (staff: the whole platform's)." })
export class DashboardSummary implements SummaryView {
  @Field(() => Int, { description: 'Holdings with a positive ownership.' }) holdingsCount: number;
  @Field(() => DecimalScalar, { description: 'Sum of the invested amounts of those holdings (Decimal, 2 places).' }) totalInvested: Decimal;
  @Field(() => DecimalScalar, { description: 'Σ ownership% × latest valuation / 100, rounded to cents.' }) currentValue: Decimal;
  @Field(() => DecimalScalar, { description: 'currentValue − totalInvested.' }) totalReturn: Decimal;
  @Field(() => DecimalScalar, { description: 'Net of every DISTRIBUTED distribution.' }) totalDistributionsReceived: Decimal;
  @Field(() => Int, { description: 'Investment and withdrawal requests still PENDING.' }) pendingRequests: number;
}

@ObjectType({ description: 'The investment marketplace: catalogue highlights plus the investor’s own figures.' })
export class Dashboard implements DashboardView {
  @Field(() => [Category], { description: 'Featured active categories, alphabetical.' }) featuredCategories: Category[];
  @Field(() => [TopGainer], { description: 'Up to 5, largest rise first.' }) topGainers: TopGainer[];
  @Field(() => [Unit], { description: 'The 5 newest AVAILABLE units.' }) newListings: Unit[];
  @Field(() => [QuarterlyDistributions], { description: 'Net distributions paid per quarter: the last 8, current one included, oldest first.' })
  trends: QuarterlyDistributions[];
  @Field(() => [Transaction], { description: 'The 10 latest transactions, newest first.' }) recentActivity: Transaction[];
  @Field(() => DashboardSummary, { description: "The caller's totals (staff: the platform's)." }) summary: DashboardSummary;
}
