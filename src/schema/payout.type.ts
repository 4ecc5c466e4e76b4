import { IsOptional, Min } from 'class-validator';
import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { Decimal } from '../services/money';
import { PayoutSource, PayoutStatus } from './enums';
import { Paginated } from './pagination.type';
import { DecimalScalar } from './scalars';
import { UnitRef } from './withdrawal-request.type';

@ObjectType({ description: 'Money sent to an investor: a distributed distribution or an approved withdrawal.' })
export class Payout {
  @Field(() => Int) id: number;
  @Field(() => Int) investorId: number;
  @Field(() => UnitRef) unit: UnitRef;
  @Field(() => PayoutSource) source: PayoutSource;
  @Field(() => Int, { nullable: true }) distributionId: number | null;
  @Field(() => Int, { nullable: true }) withdrawalRequestId: number | null;
  @Field(() => DecimalScalar) amount: Decimal;
  @Field(() => PayoutStatus) status: PayoutStatus;
  @Field(() => String) reference: string;
  @Field(() => Date, { nullable: true }) paidAt: Date | null;
  @Field(() => Date) createdAt: Date;
}

@ObjectType()
export class PayoutPage extends Paginated(Payout) {}

@InputType()
export class PayoutFilter {
  @Field(() => PayoutStatus, { nullable: true }) status?: PayoutStatus | null;
  @Field(() => PayoutSource, { nullable: true }) source?: PayoutSource | null;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(1, { message: 'The unit id field must be at least 1.' })
  unitId?: number | null;

  @Field(() => Int, { nullable: true, description: 'Staff only; investors always see their own.' })
  @IsOptional()
  @Min(1, { message: 'The investor id field must be at least 1.' })
  investorId?: number | null;
}
