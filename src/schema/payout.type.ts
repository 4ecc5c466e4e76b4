import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { Decimal } from '../domain/money';
import { PayoutSource, PayoutStatus } from './enums';
import { Paginated } from './pagination.type';
import { DecimalScalar } from './scalars';
import { UnitRef } from './withdrawal-request.type';
import type { PayoutView } from '../services/payout.service';
import { OptionalId } from './rules';

@ObjectType({ description: 'Money sent to an investor: a distributed distribution or an approved withdrawal.' })
export class Payout implements PayoutView {
  @Field(() => Int, { description: 'Id of the payout: what markPayoutPaid and markPayoutFailed take.' }) id: number;
  @Field(() => Int, { description: 'The investor paid.' }) investorId: number;
  @Field(() => UnitRef, { description: 'The unit the money comes from.' }) unit: UnitRef;
  @Field(() => PayoutSource, { description: 'Why the money is paid: a distribution or a withdrawal.' }) source: PayoutSource;
  @Field(() => Int, { nullable: true, description: 'The distribution paid, for source DISTRIBUTION.' }) distributionId: number | null;
  @Field(() => Int, { nullable: true, description: 'The withdrawal request paid, for source WITHDRAWAL.' }) withdrawalRequestId: number | null;
  @Field(() => DecimalScalar, { description: 'Money sent (Decimal, 2 places): the net distribution, or the withdrawn share at its current value.' })
  amount: Decimal;
  @Field(() => PayoutStatus, { description: 'PENDING until an admin marks it PAID (or FAILED, then it can still be paid).' }) status: PayoutStatus;
  @Field(() => String, { description: 'Bank transfer reference: "PO-D-<distribution id>" or "PO-W-<withdrawal request id>".' }) reference: string;
  @Field(() => Date, { nullable: true, description: 'When it was marked PAID; null before.' }) paidAt: Date | null;
  @Field(() => Date, { description: 'When the payout was created.' }) createdAt: Date;
}

@ObjectType({ description: 'One page of payouts, newest first.' })
export class PayoutPage extends Paginated(Payout) {}

@InputType({ description: 'All optional and combined with AND.' })
export class PayoutFilter {
  @Field(() => PayoutStatus, { nullable: true, description: 'Only payouts in this status (PENDING: the payment queue).' }) status?: PayoutStatus | null;
  @Field(() => PayoutSource, { nullable: true, description: 'Only payouts of this source.' }) source?: PayoutSource | null;

  @Field(() => Int, { nullable: true, description: 'Only payouts from this unit.' })
  @OptionalId('unit id')
  unitId?: number | null;

  @Field(() => Int, { nullable: true, description: 'Staff only; investors always see their own.' })
  @OptionalId('investor id')
  investorId?: number | null;
}
