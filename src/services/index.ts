import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../platform/config';
import type { Database, Prisma } from '../db/database';
import { ReadReplicas } from '../db/read-replicas';
import { AccountService } from './account.service';
import { AnalyticsService } from './analytics.service';
import { AppConfigService } from './app-config.service';
import { AuditService } from './audit.service';
import { AuthService } from './auth.service';
import { DownloadService } from './download.service';
import { IdempotencyService } from './idempotency.service';
import { READ_MARGIN_MS } from '../db/pg-pool';
import { CategoryMembershipService } from './category-membership.service';
import { ChangeFeed } from './change-feed';
import { CategoryService } from './category.service';
import { DashboardService } from './dashboard.service';
import { DistributionService } from './distribution.service';
import { InvestmentRequestService } from './investment-request.service';
import { InvestorService } from './investor.service';
import { KycService } from './kyc.service';
import { LegalService } from './legal.service';
import { createMailer, type Mailer } from './mailer';
import { NotificationService } from './notification.service';
import { PayoutService } from './payout.service';
import { PortfolioService } from './portfolio.service';
import { RateLimitService } from './rate-limit.service';
import { createRedis } from './redis';
import { SettingsService } from './settings.service';
import { StatementService } from './statement.service';
import { createFileStorage } from './storage';
import { UnitService } from './unit.service';
import { WithdrawalRequestService } from './withdrawal-request.service';

/** The domain: every rule and every Prisma call lives behind these. */
export interface Services {
  prisma: Prisma;
  logger: Logger;
  /** The shared Redis connection (REDIS_URL), if any; closed by the gateway's stop(). */
  redis: Redis | undefined;
  downloads: DownloadService;
  auth: AuthService;
  /** Outgoing e-mail (password reset, account notices); tests spy on it. */
  mailer: Mailer;
  account: AccountService;
  settings: SettingsService;
  legal: LegalService;
  appConfig: AppConfigService;
  distributions: DistributionService;
  withdrawalRequests: WithdrawalRequestService;
  investors: InvestorService;
  investmentRequests: InvestmentRequestService;
  portfolio: PortfolioService;
  payouts: PayoutService;
  categories: CategoryService;
  units: UnitService;
  categoryMemberships: CategoryMembershipService;
  dashboard: DashboardService;
  kyc: KycService;
  analytics: AnalyticsService;
  statements: StatementService;
  notifications: NotificationService;
  /** Idempotency-Key store shared by both faces (REST router, GraphQL plugin). */
  idempotency: IdempotencyService;
  audit: AuditService;
  /** Committed changes, fanned out to this instance's live subscribers (the gateway feeds it from LISTEN). */
  changes: ChangeFeed;
}

/** `db.replicas`: clients for DATABASE_READ_URLS, which list, detail and aggregate reads use (src/db/read-replicas.ts). */
export function createServices(db: Pick<Database, 'prisma' | 'replicas' | 'read'>, config: Config, logger: Logger): Services {
  const { prisma, replicas } = db;
  const reads = new ReadReplicas(prisma, replicas);
  const redis = config.redisUrl ? createRedis(config.redisUrl, logger) : undefined;
  const limiter = new RateLimitService({
    perMinute: config.rateLimitPerMinute,
    consecutiveFails: config.loginConsecutiveFails,
    failsPerIpPerDay: config.loginFailsPerIpPerDay,
    failsPerAccountPerHour: config.loginFailsPerAccountPerHour,
    redis,
    keyPrefix: `${config.redisKeyPrefix}rl:`,
  });
  const auth = new AuthService(prisma, config, limiter, db.read);
  const downloads = new DownloadService({ current: config.jwtSecret, previous: config.jwtSecretPrevious }, (sessionId) => auth.sessionUser(sessionId));
  const mailer = createMailer(config, logger);
  const portfolio = new PortfolioService(reads);
  const storage = createFileStorage(config);
  return {
    prisma,
    logger,
    redis,
    downloads,
    auth,
    mailer,
    account: new AccountService(prisma, auth, limiter, mailer, logger),
    settings: new SettingsService(prisma),
    legal: new LegalService(prisma),
    appConfig: new AppConfigService(prisma),
    distributions: new DistributionService(prisma, reads),
    withdrawalRequests: new WithdrawalRequestService(prisma, reads),
    investors: new InvestorService(reads),
    investmentRequests: new InvestmentRequestService(prisma, reads),
    portfolio,
    payouts: new PayoutService(prisma, reads),
    categories: new CategoryService(prisma, reads),
    units: new UnitService(prisma, reads),
    categoryMemberships: new CategoryMembershipService(prisma),
    dashboard: new DashboardService(reads),
    kyc: new KycService(prisma, downloads, storage, config.uploadMaxBytes),
    analytics: new AnalyticsService(reads),
    statements: new StatementService(prisma, downloads, portfolio),
    notifications: new NotificationService(prisma, reads),
    idempotency: new IdempotencyService(
      prisma,
      config.jwtSecret,
      {
        ttlSeconds: config.idempotencyTtlSeconds,
        lockSeconds: config.idempotencyLockSeconds,
        // The longest a statement may keep a request waiting (docs/api.md, "Database timeouts").
        settleWithinMs: config.dbStatementTimeoutMs && config.dbStatementTimeoutMs + READ_MARGIN_MS,
      },
      logger,
    ),
    // Signed checkpoints of the chain go to the file store and the log (docs/audit.md "Checkpoints").
    audit: new AuditService(prisma, downloads, {
      storage,
      signingKey: config.auditSigningKey,
      intervalMs: config.auditCheckpointIntervalMs,
      retentionDays: config.auditCheckpointRetentionDays,
      logger,
      production: config.env === 'production',
    }),
    changes: new ChangeFeed(),
  };
}
