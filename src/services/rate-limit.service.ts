import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { RateLimitedError } from '../errors';

/**
 * Attempt limits for sensitive operations (login, register, password reset), enforced in the domain
 * so both faces share them. rate-limiter-flexible: atomic counters with a Redis store available
 * when the service runs as several processes.
 */
export class RateLimitService {
  private readonly limiter: RateLimiterMemory;

  constructor(readonly pointsPerMinute: number) {
    this.limiter = new RateLimiterMemory({ points: Math.max(pointsPerMinute, 1), duration: 60 });
  }

  async consume(key: string): Promise<void> {
    if (this.pointsPerMinute === 0) return; // 0 disables the limit (load tests)
    try {
      await this.limiter.consume(key);
    } catch (res) {
      if (res instanceof RateLimiterRes) throw new RateLimitedError(Math.ceil(res.msBeforeNext / 1000), this.pointsPerMinute);
      throw res;
    }
  }
}
