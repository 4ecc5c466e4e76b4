import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { CACHE_BYTES, byteBoundedLru, hashKey } from '../platform/bounded-cache';
import { RateLimitedError } from '../domain/errors';

export interface RateLimitOptions {
  /** Attempts per minute per key (login and register per client IP, resets, password checks); 0 disables every limit here. */
  perMinute: number;
  /** Failed logins in a row for one email from one client IP before that pair is blocked for an hour. */
  consecutiveFails: number;
  /** Failed logins per client IP per day, across emails, before that client is blocked for a day. */
  failsPerIpPerDay: number;
  /** Failed logins per account per hour, across client IPs. */
  failsPerAccountPerHour: number;
  /** Shared counters for every gateway instance; unset → this process's memory. */
  redis?: Redis;
  keyPrefix: string;
}

interface LimiterSpec {
  name: string;
  points: number;
  duration: number;
  blockDuration?: number;
}

/** A counter of the in-memory limiters, as rate-limiter-flexible's MemoryStorage keeps it. */
interface Counter {
  value: number;
  /** Epoch ms, or null for a counter that never expires (a duration of 0). */
  expiresAt: number | null;
}

/**
 * rate-limiter-flexible's MemoryStorage (incrby, set, get, delete, same answers) on a byte-bounded
 * LRU with hashed keys, instead of its unbounded Map with a timer per key: the keys are client
 * input (emails, IPs), and an attacker with many of them would otherwise grow the heap without end.
 * Under such a flood the least recently used counters go first; the limits of active clients hold.
 */
class BoundedCounters {
  private readonly counters = byteBoundedLru<Counter>(CACHE_BYTES.rateLimiter, () => 48);

  incrby(key: string, value: number, durationSec: number): RateLimiterRes {
    const counter = this.counters.get(hashKey(key));
    const left = counter?.expiresAt ? counter.expiresAt - Date.now() : -1;
    if (!counter || (counter.expiresAt !== null && left <= 0)) return this.set(key, value, durationSec);
    counter.value += value;
    return new RateLimiterRes(0, left, counter.value, false);
  }

  set(key: string, value: number, durationSec: number): RateLimiterRes {
    const ms = durationSec * 1000;
    this.counters.set(hashKey(key), { value, expiresAt: ms > 0 ? Date.now() + ms : null }, ms > 0 ? { ttl: ms } : {});
    return new RateLimiterRes(0, ms > 0 ? ms : -1, value, true);
  }

  get(key: string): RateLimiterRes | null {
    const counter = this.counters.get(hashKey(key));
    if (!counter) return null;
    return new RateLimiterRes(0, counter.expiresAt ? counter.expiresAt - Date.now() : -1, counter.value, false);
  }

  delete(key: string): boolean {
    return this.counters.delete(hashKey(key));
  }
}

/** RateLimiterMemory's limiting (points, blocks) over BoundedCounters. */
class BoundedMemoryLimiter extends RateLimiterMemory {
  constructor(opts: ConstructorParameters<typeof RateLimiterMemory>[0]) {
    super(opts);
    // The library keeps its store in this field and reaches it through the four methods above alone.
    (this as unknown as { _memoryStorage: BoundedCounters })._memoryStorage = new BoundedCounters();
  }
}

const HOUR = 3600;
const DAY = 24 * HOUR;

/**
 * Attempt limits for sensitive operations (login, register, password reset), enforced in the domain
 * so both faces share them, with rate-limiter-flexible. Login follows its "login endpoint
 * protection" pattern: only failures count towards the per-IP, per-account and per-(email, IP)
 * blocks, and a successful login clears the consecutive failures of its (email, IP) pair, so an
 * attacker elsewhere cannot keep the owner out for longer than the per-account window.
 *
 * With Redis every instance shares the counters; while Redis is unreachable each limiter falls back
 * to an in-memory insurance limiter (same numbers, counted per instance): limits stay on, per
 * instance, and serving continues.
 */
export class RateLimitService {
  private readonly attempts: RateLimiterAbstract;
  private readonly consecutive: RateLimiterAbstract;
  private readonly byIp: RateLimiterAbstract;
  private readonly byAccount: RateLimiterAbstract;

  constructor(private readonly options: RateLimitOptions) {
    this.attempts = this.limiter({ name: 'attempts', points: options.perMinute, duration: 60 });
    // The pattern remembers consecutive failures for 90 days; a day here (memory is bounded, and an
    // attacker's pair is blocked for the hour anyway).
    this.consecutive = this.limiter({ name: 'login-fails-email-ip', points: options.consecutiveFails, duration: DAY, blockDuration: HOUR });
    this.byIp = this.limiter({ name: 'login-fails-ip', points: options.failsPerIpPerDay, duration: DAY, blockDuration: DAY });
    this.byAccount = this.limiter({ name: 'login-fails-account', points: options.failsPerAccountPerHour, duration: HOUR });
  }

  private get enabled(): boolean {
    return this.options.perMinute > 0; // 0 disables the limits (load tests)
  }

  private limiter(spec: LimiterSpec): RateLimiterAbstract {
    const opts = {
      keyPrefix: `${this.options.keyPrefix}${spec.name}`,
      points: Math.max(spec.points, 1),
      duration: spec.duration,
      blockDuration: spec.blockDuration ?? 0,
    };
    if (!this.options.redis) return new BoundedMemoryLimiter(opts);
    return new RateLimiterRedis({ ...opts, storeClient: this.options.redis, rejectIfRedisNotReady: true, insuranceLimiter: new BoundedMemoryLimiter(opts) });
  }

  /** Counts one attempt against `key`; 429 once the minute's attempts are spent. */
  async consume(key: string): Promise<void> {
    if (!this.enabled) return;
    await this.spend(this.attempts, key);
  }

  /**
   * Runs one login attempt (`attempt` answers null for wrong credentials): refused at once (429)
   * while the client, the account or the (email, IP) pair is blocked; a failure counts against all
   * three (429 when it uses one up), a success clears the pair's consecutive failures.
   */
  async guardLogin<T>(email: string, ip: string, attempt: () => Promise<T | null>): Promise<T | null> {
    if (!this.enabled) return attempt();
    const pairKey = `${email}:${ip}`;
    await this.spend(this.attempts, `login:${ip}`);
    const [pair, client, account] = await Promise.all([this.consecutive.get(pairKey), this.byIp.get(ip), this.byAccount.get(email)]);
    this.refuseIfSpent(this.byIp, client);
    this.refuseIfSpent(this.byAccount, account);
    this.refuseIfSpent(this.consecutive, pair);
    const result = await attempt();
    if (result === null) {
      await Promise.all([this.spend(this.byIp, ip), this.spend(this.byAccount, email), this.spend(this.consecutive, pairKey)]);
    } else if (pair && pair.consumedPoints > 0) {
      await this.consecutive.delete(pairKey);
    }
    return result;
  }

  private refuseIfSpent(limiter: RateLimiterAbstract, res: RateLimiterRes | null): void {
    if (res && res.consumedPoints > limiter.points) throw new RateLimitedError(Math.max(Math.ceil(res.msBeforeNext / 1000), 1), limiter.points);
  }

  private async spend(limiter: RateLimiterAbstract, key: string): Promise<void> {
    try {
      await limiter.consume(key);
    } catch (res) {
      if (res instanceof RateLimiterRes) throw new RateLimitedError(Math.max(Math.ceil(res.msBeforeNext / 1000), 1), limiter.points);
      throw res;
    }
  }
}
