import { IsOptional, Min } from 'class-validator';
import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { Decimal } from '../services/money';
import { WithdrawalRequestStatus } from './enums';
import { Paginated } from './pagination.type';
import { DecimalScalar } from './scalars';
import { RequiredText } from './rules';

@ObjectType({ description: 'id, code and name of a unit, embedded in other records.' })
export class UnitRef {
  @Field(() => Int) id: number;
  @Field(() => String) code: string;
  @Field(() => String) name: string;
}

@ObjectType({ description: 'A request to sell back part of a holding.' })
export class WithdrawalRequest {
  @Field(() => Int) id: number;
  @Field(() => Int) unitId: number;
  @Field(() => Int) investorId: number;
  @Field(() => DecimalScalar) ownershipPercentage: Decimal;
  @Field(() => DecimalScalar, { description: 'The invested amount the requested share stands for.' }) investedAmount: Decimal;
  @Field(() => String) reason: string;
  @Field(() => WithdrawalRequestStatus) status: WithdrawalRequestStatus;
  @Field(() => String, { nullable: true }) rejectionReason: string | null;
  @Field(() => Date, { nullable: true }) reviewedAt: Date | null;
  @Field(() => Date, { nullable: true }) completedAt: Date | null;
  @Field(() => Date) createdAt: Date;
  @Field(() => Date) updatedAt: Date;
  @Field(() => UnitRef) unit: UnitRef;
}

@ObjectType()
export class WithdrawalRequestPage extends Paginated(WithdrawalRequest) {}

@InputType()
export class WithdrawalRequestFilter {
  @Field(() => WithdrawalRequestStatus, { nullable: true }) status?: WithdrawalRequestStatus | null;

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
export class CreateWithdrawalRequestInput {
  @Field(() => Int)
  @Min(1, { message: 'The unit id field must be at least 1.' })
  unitId: number;

  @Field(() => DecimalScalar, { description: 'Share of the unit to withdraw, in percent (0 < p ≤ 100, up to 6 places).' })
  ownershipPercentage: Decimal;

  @Field(() => String)
  @RequiredText('reason', 1000)
  reason: string;
}

