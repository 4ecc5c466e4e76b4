import { IsOptional } from 'class-validator';
import { Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { KycStatus, type InvestorView } from '../services/investor.service';
import { Decimal } from '../domain/money';
import { Paginated } from './pagination.type';
import { DecimalScalar } from './scalars';
import { Text } from './rules';

registerEnumType(KycStatus, {
  name: 'KycStatus',
  description:
    'Derived from the KYC documents: APPROVED if any is approved, else PENDING if any is pending, else REJECTED if any is rejected, else NOT_SUBMITTED.',
  valuesConfig: {
    APPROVED: { description: 'Verified: the investor may invest and withdraw.' },
    PENDING: { description: 'Documents wait for review; investing and withdrawing are refused (CONFLICT).' },
    REJECTED: { description: 'None approved or pending, at least one rejected: the investor should upload another.' },
    NOT_SUBMITTED: { description: 'No document uploaded yet.' },
  },
});

@ObjectType({ description: 'An investor account with its verification state and a summary of its holdings.' })
export class Investor implements InvestorView {
  @Field(() => Int, { description: 'Id of the investor record (not the user id).' }) id: number;
  @Field(() => Int, { description: 'The login account of the investor.' }) userId: number;
  @Field(() => String, { description: 'Display name of the account.' }) name: string;
  @Field(() => String, { description: 'Login email of the account.' }) email: string;
  @Field(() => String, { nullable: true, description: 'Phone number, if given.' }) phone: string | null;
  @Field(() => String, { nullable: true, description: 'Country of residence, if known.' }) country: string | null;
  @Field(() => String, { nullable: true, description: 'City of residence, if known.' }) city: string | null;
  @Field(() => KycStatus, { description: 'Verification state derived from the KYC documents.' }) kycStatus: KycStatus;
  @Field(() => Int, { description: 'Holdings with a non-zero ownership.' }) holdingsCount: number;
  @Field(() => DecimalScalar, { description: 'Sum of the invested amounts of those holdings.' }) totalInvested: Decimal;
  @Field(() => Date, { description: 'When the investor registered.' }) createdAt: Date;
}

@ObjectType({ description: 'One page of investors, newest first.' })
export class InvestorPage extends Paginated(Investor) {}

@InputType({ description: 'All optional.' })
export class InvestorFilter {
  @Field(() => String, { nullable: true, description: 'Case-insensitive part of the name or email.' })
  @IsOptional()
  @Text('q', 255)
  q?: string | null;
}
