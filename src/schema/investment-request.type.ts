import { IsOptional, Min } from 'class-validator';
import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { Decimal } from '../services/money';
import { InvestmentRequestStatus } from './enums';
import { Paginated } from './pagination.type';
import { DecimalScalar } from './scalars';
import { UnitRef } from './withdrawal-request.type';

@ObjectType({ description: 'A request to buy a share of a unit; an admin approves or rejects it.' })
export class InvestmentRequest {
  @Field(() => Int) id: number;
  @Field(() => Int) unitId: number;
  @Field(() => Int) investorId: number;
  @Field(() => DecimalScalar) amount: Decimal;
  @Field(() => DecimalScalar, { description: 'amount / unit total value × 100, rounded down to 6 places.' }) ownershipPercentage: Decimal;
  @Field(() => InvestmentRequestStatus) status: InvestmentRequestStatus;
  @Field(() => String, { nullable: true }) rejectionReason: string | null;
  @Field(() => Date, { nullable: true }) reviewedAt: Date | null;
  @Field(() => Date) createdAt: Date;
  @Field(() => Date) updatedAt: Date;
  @Field(() => UnitRef) unit: UnitRef;
}

@ObjectType()
export class InvestmentRequestPage extends Paginated(InvestmentRequest) {}

@InputType()
export class InvestmentRequestFilter {
  @Field(() => InvestmentRequestStatus, { nullable: true }) status?: InvestmentRequestStatus | null;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(1, { message: 'The unit id field must be at least 1.' })
  unitId?: number | null;

  @Field(() => Int, { nullable: true, description: 'Staff only; investors always see their own.' })
  @IsOptional()
  @Min(1, { message: 'The investor id field must be at least 1.' })
  investorId?: number | null;
}

@InputType()
export class CreateInvestmentRequestInput {
  @Field(() => Int)
  @Min(1, { message: 'The unit id field must be at least 1.' })
  unitId: number;

  @Field(() => DecimalScalar, { description: 'At least the larger of the platform and unit minimums, at most the platform maximum, 2 places.' })
  amount: Decimal;
}

