import { ArgsType, Field, Int } from 'type-graphql';
import { RequiredText } from './rules';

/** Arguments of every back-office rejection (investment, withdrawal, KYC document). */
@ArgsType()
export class RejectArgs {
  @Field(() => Int, { description: 'Id of the PENDING record to reject; one reviewed already is CONFLICT.' }) id: number;

  @Field(() => String, { description: 'Shown to the investor.' })
  @RequiredText('reason', 1000)
  reason: string;
}
