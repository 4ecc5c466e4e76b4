import { IsNotEmpty, MaxLength } from 'class-validator';
import { ArgsType, Field, Int } from 'type-graphql';

/** Arguments of every back-office rejection (investment, withdrawal, KYC document). */
@ArgsType()
export class RejectArgs {
  @Field(() => Int) id: number;

  @Field(() => String, { description: 'Shown to the investor.' })
  @IsNotEmpty({ message: 'The reason field is required.' })
  @MaxLength(1000, { message: 'The reason field must not be greater than 1000 characters.' })
  reason: string;
}
