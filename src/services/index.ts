import type { Logger } from 'pino';
import type { Config } from '../config';
import type { Prisma } from '../db/database';
import { AuthService } from './auth.service';
import { DistributionService } from './distribution.service';
import { RateLimitService } from './rate-limit.service';
import { WithdrawalRequestService } from './withdrawal-request.service';

/** The domain: every rule and every Prisma call lives behind these. */
export interface Services {
  prisma: Prisma;
  logger: Logger;
  auth: AuthService;
  distributions: DistributionService;
  withdrawalRequests: WithdrawalRequestService;
}

export function createServices(prisma: Prisma, config: Config, logger: Logger): Services {
  const limiter = new RateLimitService(config.rateLimitPerMinute);
  return {
    prisma,
    logger,
    auth: new AuthService(prisma, config, limiter),
    distributions: new DistributionService(prisma),
    withdrawalRequests: new WithdrawalRequestService(prisma),
  };
}
