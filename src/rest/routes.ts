import { accountRoutes } from './account.routes';
import { appConfigRoutes } from './app-config.routes';
import { authRoutes } from './auth.routes';
import { categoryMembershipRoutes } from './category-memberships.routes';
import { categoryRoutes } from './categories.routes';
import { dashboardRoutes } from './dashboard.routes';
import { distributionRoutes } from './distributions.routes';
import { investmentRequestRoutes } from './investment-requests.routes';
import { investorRoutes } from './investors.routes';
import { kycRoutes } from './kyc.routes';
import { legalRoutes } from './legal.routes';
import { notificationRoutes } from './notifications.routes';
import { payoutRoutes } from './payouts.routes';
import { portfolioRoutes } from './portfolio.routes';
import { publicRoutes } from './public.routes';
import type { RestRoute } from './route';
import { settingsRoutes } from './settings.routes';
import { statementRoutes } from './statements.routes';
import { unitRoutes } from './units.routes';
import { withdrawalRoutes } from './withdrawals.routes';

/**
 * The whole /api/v1 route table (one line per feature). Within a path shape, literal segments must
 * come before parameters: `/x/available` before `/x/:id`.
 */
export const routeTable: RestRoute<unknown>[] = [
  ...authRoutes,
  ...accountRoutes,
  ...settingsRoutes,
  ...legalRoutes,
  ...appConfigRoutes,
  ...distributionRoutes,
  ...withdrawalRoutes,
  ...investorRoutes,
  ...investmentRequestRoutes,
  ...portfolioRoutes,
  ...payoutRoutes,
  ...categoryRoutes,
  ...unitRoutes,
  ...publicRoutes,
  ...dashboardRoutes,
  ...categoryMembershipRoutes,
  ...kycRoutes,
  ...notificationRoutes,
  ...statementRoutes,
];
