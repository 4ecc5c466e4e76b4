import type { buildSchema } from 'type-graphql';
import { AccountResolver } from './account.resolver';
import { AnalyticsResolver } from './analytics.resolver';
import { AppConfigResolver } from './app-config.resolver';
import { AuditResolver } from './audit.resolver';
import { AuthResolver } from './auth.resolver';
import { CategoryMembershipResolver } from './category-membership.resolver';
import { CategoryResolver } from './category.resolver';
import { DashboardResolver } from './dashboard.resolver';
import { DistributionDeclarationDetailResolver, DistributionResolver } from './distribution.resolver';
import { DownloadResolver } from './download.resolver';
import { InvestmentRequestResolver } from './investment-request.resolver';
import { InvestorResolver } from './investor.resolver';
import { KycResolver } from './kyc.resolver';
import { LegalResolver } from './legal.resolver';
import { NotificationResolver } from './notification.resolver';
import { PayoutResolver } from './payout.resolver';
import { PortfolioResolver } from './portfolio.resolver';
import { SettingsResolver } from './settings.resolver';
import { StatementResolver } from './statement.resolver';
import { SubscriptionResolver } from './subscription.resolver';
import { UnitResolver } from './unit.resolver';
import { WithdrawalRequestResolver } from './withdrawal-request.resolver';

/** Every resolver class of the schema (one line per feature). */
export const resolvers: Parameters<typeof buildSchema>[0]['resolvers'] = [
  AuthResolver,
  AccountResolver,
  SettingsResolver,
  LegalResolver,
  AppConfigResolver,
  DistributionResolver,
  DistributionDeclarationDetailResolver,
  WithdrawalRequestResolver,
  InvestorResolver,
  InvestmentRequestResolver,
  PortfolioResolver,
  PayoutResolver,
  CategoryResolver,
  UnitResolver,
  CategoryMembershipResolver,
  DashboardResolver,
  KycResolver,
  AnalyticsResolver,
  NotificationResolver,
  StatementResolver,
  AuditResolver,
  DownloadResolver,
  SubscriptionResolver,
];
