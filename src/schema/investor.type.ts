import { IsOptional } from 'class-validator';
import { Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { KycStatus } from '../services/investor.service';
import { Decimal } from '../services/money';
import { Paginated } from './pagination.type';
import { DecimalScalar } from './scalars';
import { Text } from './rules';

registerEnumType(KycStatus, {
  name: 'KycStatus',
  description: 'Derived from the KYC documents: APPROVED if any is approved, else PENDING if any is pending, else REJECTED if any is rejected, else NOT_SUBMITTED.',
});

@ObjectType({ description: 'An investor account with its verification state and a summary of its holdings.' })
export class Investor {
  @Field(() => Int) id: number;
  @Field(() => Int) userId: number;
  @Field(() => String) name: string;
  @Field(() => String) email: string;
  @Field(() => String, { nullable: true }) phone: string | null;
  @Field(() => String, { nullable: true }) country: string | null;
  @Field(() => String, { nullable: true }) city: string | null;
  @Field(() => KycStatus) kycStatus: KycStatus;
  @Field(() => Int, { description: 'Holdings with a non-zero ownership.' }) holdingsCount: number;
  @Field(() => DecimalScalar, { description: 'Sum of the invested amounts of those holdings.' }) totalInvested: Decimal;
  @Field(() => Date) createdAt: Date;
}

@ObjectType()
export class InvestorPage extends Paginated(Investor) {}

@InputType()
export class InvestorFilter {
  @Field(() => String, { nullable: true, description: 'Case-insensitive part of the name or email.' })
  @IsOptional()
  @Text('q', 255)
  q?: string | null;
}
