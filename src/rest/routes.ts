import { authRoutes } from './auth.routes';
import { distributionRoutes } from './distributions.routes';
import type { RestRoute } from './route';
import { withdrawalRoutes } from './withdrawals.routes';

/**
 * The whole /api/v1 route table (one line per feature). Within a path shape, literal segments must
 * come before parameters: `/x/available` before `/x/:id`.
 */
export const routeTable: RestRoute<unknown>[] = [...authRoutes, ...distributionRoutes, ...withdrawalRoutes];
