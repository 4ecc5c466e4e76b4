import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { Decimal } from '../domain/money';
import { InvestmentRequestStatus } from './enums';
import { Paginated } from './pagination.type';
import { RequestFilter } from './request-filter.type';
import { DecimalScalar } from './scalars';
import { UnitRef } from './withdrawal-request.type';
import type { CreateInvestmentRequestData, InvestmentRequestView } from '../services/investment-request.service';
import { DecimalPlaces, Id } from './rules';

@ObjectType({ description: 'A request to buy a share of a unit; an admin approves or rejects it.' })
export class InvestmentRequest implements InvestmentRequestView {
  @Field(() => Int, { description: 'Id of the request: what investmentRequest(id:) and the review mutations take.' }) id: number;
  @Field(() => Int, { description: 'The unit the investor wants a share of.' }) unitId: number;
  @Field(() => Int, { description: 'The investor who asked.' }) investorId: number;
  @Field(() => DecimalScalar, { description: 'Money offered (Decimal, 2 places).' }) amount: Decimal;
  @Field(() => DecimalScalar, { description: 'amount / unit total value × 100, rounded down to 6 places.' }) ownershipPercentage: Decimal;
  @Field(() => InvestmentRequestStatus, { description: 'PENDING until an admin approves or rejects it or the investor cancels it.' })
  status: InvestmentRequestStatus;
  @Field(() => String, { nullable: true, description: 'Why an admin rejected it (shown to the investor); null unless REJECTED.' }) rejectionReason:
    string | null;
  @Field(() => Date, { nullable: true, description: 'When an admin approved or rejected it; null while PENDING or after a cancellation.' })
  reviewedAt: Date | null;
  @Field(() => Date, { description: 'When the investor asked.' }) createdAt: Date;
  @Field(() => Date, { description: 'When its status last changed.' }) updatedAt: Date;
  @Field(() => UnitRef, { description: 'Id, code and name of the unit.' }) unit: UnitRef;
}

@ObjectType({ description: 'One page of investment requests, newest first.' })
export class InvestmentRequestPage extends Paginated(InvestmentRequest) {}

@InputType({ description: 'All optional and combined with AND.' })
export class InvestmentRequestFilter extends RequestFilter(InvestmentRequestStatus) {}

@InputType({ description: 'Needs an approved KYC status and an AVAILABLE unit with enough share left (CONFLICT otherwise).' })
export class CreateInvestmentRequestInput implements CreateInvestmentRequestData {
  @Field(() => Int, { description: 'The unit to buy a share of.' })
  @Id('unit id')
  unitId: number;

  @Field(() => DecimalScalar, { description: 'At least the larger of the platform and unit minimums, at most the platform maximum, 2 places.' })
  @DecimalPlaces('amount', 2)
  amount: Decimal;
}
