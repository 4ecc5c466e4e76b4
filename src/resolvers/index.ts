import type { buildSchema } from 'type-graphql';
import { AuthResolver } from './auth.resolver';
import { DistributionResolver } from './distribution.resolver';
import { WithdrawalRequestResolver } from './withdrawal-request.resolver';

/** Every resolver class of the schema (one line per feature). */
export const resolvers: Parameters<typeof buildSchema>[0]['resolvers'] = [AuthResolver, DistributionResolver, WithdrawalRequestResolver];
