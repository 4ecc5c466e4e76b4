import { Field, InputType, Int } from 'type-graphql';
import type { RequestFilterInput } from '../services/listing';
import { OptionalId } from './rules';

/** The filter both money-request lists (investment, withdrawal) take, for their own status enum. */
export function RequestFilter<S extends string>(statusEnum: Record<string, S>) {
  @InputType() // a base only: never reachable itself, so never emitted
  abstract class RequestFilterClass implements RequestFilterInput<S> {
    @Field(() => statusEnum, { nullable: true, description: 'Only requests in this status (PENDING: the review queue).' })
    status?: S | null;

    @Field(() => Int, { nullable: true, description: 'Only requests for this unit.' })
    @OptionalId('unit id')
    unitId?: number | null;

    @Field(() => Int, { nullable: true, description: 'Staff only; investors always see their own.' })
    @OptionalId('investor id')
    investorId?: number | null;
  }
  return RequestFilterClass;
}
