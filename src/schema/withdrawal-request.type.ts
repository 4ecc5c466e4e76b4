import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { Decimal } from '../domain/money';
import { WithdrawalRequestStatus } from './enums';
import { Paginated } from './pagination.type';
import { RequestFilter } from './request-filter.type';
import { DecimalScalar } from './scalars';
import { DecimalRange, Id, RequiredText } from './rules';
import type { UnitRefView } from '../services/unit.service';
import type { CreateWithdrawalRequestData, WithdrawalRequestView } from '../services/withdrawal-request.service';

@ObjectType({ description: 'id, code and name of a unit, embedded in other records.' })
export class UnitRef implements UnitRefView {
  @Field(() => Int, { description: 'Id of the unit: what unit(id:) and every unitId take.' }) id: number;
  @Field(() => String, { description: 'Unit code, e.g. "UNT-0041".' }) code: string;
  @Field(() => String, { description: 'Unit name.' }) name: string;
}

@ObjectType({ description: 'A request to sell back part of a holding.' })
export class WithdrawalRequest implements WithdrawalRequestView {
  @Field(() => Int, { description: 'Id of the request: what the review mutations (approve, reject, complete, cancel) take.' }) id: number;
  @Field(() => Int, { description: 'The unit a share is sold back of.' }) unitId: number;
  @Field(() => Int, { description: 'The investor who asked.' }) investorId: number;
  @Field(() => DecimalScalar, { description: 'Share of the unit to sell back, in percent (up to 6 places).' }) ownershipPercentage: Decimal;
  @Field(() => DecimalScalar, { description: 'The invested amount the requested share stands for.' }) investedAmount: Decimal;
  @Field(() => String, { description: 'Why the investor withdraws, in their words.' }) reason: string;
  @Field(() => WithdrawalRequestStatus, { description: 'PENDING → APPROVED → COMPLETED, or REJECTED | CANCELLED.' }) status: WithdrawalRequestStatus;
  @Field(() => String, { nullable: true, description: 'Why an admin rejected it (shown to the investor); null unless REJECTED.' }) rejectionReason:
    string | null;
  @Field(() => Date, { nullable: true, description: 'When an admin approved or rejected it; null before.' }) reviewedAt: Date | null;
  @Field(() => Date, { nullable: true, description: 'When the money was sent (COMPLETED); null before.' }) completedAt: Date | null;
  @Field(() => Date, { description: 'When the investor asked.' }) createdAt: Date;
  @Field(() => Date, { description: 'When its status last changed.' }) updatedAt: Date;
  @Field(() => UnitRef, { description: 'Id, code and name of the unit.' }) unit: UnitRef;
}

@ObjectType({ description: 'One page of withdrawal requests, newest first.' })
export class WithdrawalRequestPage extends Paginated(WithdrawalRequest) {}

@InputType({ description: 'All optional and combined with AND.' })
export class WithdrawalRequestFilter extends RequestFilter(WithdrawalRequestStatus) {}

@InputType({ description: 'Needs an approved KYC status and a holding that covers the share with the pending requests (CONFLICT otherwise).' })
export class CreateWithdrawalRequestInput implements CreateWithdrawalRequestData {
  @Field(() => Int, { description: 'The unit held.' })
  @Id('unit id')
  unitId: number;

  @Field(() => DecimalScalar, { description: 'Share of the unit to withdraw, in percent (0 < p ≤ 100, up to 6 places).' })
  @DecimalRange('ownership percentage', { above: 0, max: 100, places: 6 })
  ownershipPercentage: Decimal;

  @Field(() => String, { description: 'Why the investor withdraws, 1..1000 characters.' })
  @RequiredText('reason', 1000)
  reason: string;
}
