import { Field, Int, ObjectType } from 'type-graphql';
import { Decimal } from '../services/money';
import { Category, CategoryRef } from './category.type';
import { QuarterlyDistributions, Transaction } from './portfolio.type';
import { DecimalScalar } from './scalars';
import { Unit } from './unit.type';

@ObjectType({ description: 'An AVAILABLE unit whose value rose over the last 12 months.' })
export class TopGainer {
  @Field(() => Int) id: number;
  @Field(() => String) code: string;
  @Field(() => String) name: string;
  @Field(() => String, { nullable: true }) imageUrl: string | null;
  @Field(() => CategoryRef) category: CategoryRef;
  @Field(() => DecimalScalar, { description: 'Value 12 months ago: the latest valuation then, else the offering value.' }) previousValue: Decimal;
  @Field(() => DecimalScalar, { description: 'The latest valuation.' }) currentValue: Decimal;
  @Field(() => DecimalScalar, { description: '(current − previous) / previous × 100, rounded to 2 places.' }) changePercentage: Decimal;
}

@ObjectType({ description: "The investor's totals (staff: the whole platform's)." })
export class DashboardSummary {
  @Field(() => Int, { description: 'Holdings with a positive ownership.' }) holdingsCount: number;
  @Field(() => DecimalScalar) totalInvested: Decimal;
  @Field(() => DecimalScalar, { description: 'Σ ownership% × latest valuation / 100, rounded to cents.' }) currentValue: Decimal;
  @Field(() => DecimalScalar, { description: 'currentValue − totalInvested.' }) totalReturn: Decimal;
  @Field(() => DecimalScalar, { description: 'Net of every DISTRIBUTED distribution.' }) totalDistributionsReceived: Decimal;
  @Field(() => Int, { description: 'Investment and withdrawal requests still PENDING.' }) pendingRequests: number;
}

@ObjectType({ description: 'The investment marketplace: catalogue highlights plus the investor’s own figures.' })
export class Dashboard {
  @Field(() => [Category], { description: 'Featured active categories, alphabetical.' }) featuredCategories: Category[];
  @Field(() => [TopGainer], { description: 'Up to 5, largest rise first.' }) topGainers: TopGainer[];
  @Field(() => [Unit], { description: 'The 5 newest AVAILABLE units.' }) newListings: Unit[];
  @Field(() => [QuarterlyDistributions], { description: 'Net distributions paid per quarter: the last 8, current one included, oldest first.' })
  trends: QuarterlyDistributions[];
  @Field(() => [Transaction], { description: 'The 10 latest transactions, newest first.' }) recentActivity: Transaction[];
  @Field(() => DashboardSummary) summary: DashboardSummary;
}
