import type { InMemoryLRUCache, KeyValueCache, KeyValueCacheSetOptions } from '@apollo/utils.keyvaluecache';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { CACHE_BYTES, stringBytes } from '../platform/bounded-cache';
import { byteBoundedApolloCache } from './document-cache';

/** How long a registered persisted query is kept; a client that misses simply registers it again. */
export const PERSISTED_QUERY_TTL_SECONDS = 24 * 60 * 60;

/**
 * The automatic-persisted-query cache (Apollo's `persistedQueries.cache`). With Redis every
 * instance sees a query registered through any other; without it, an in-process LRU bounded in bytes.
 *
 * While Redis is unreachable it fails open: reads and writes go to the in-process LRU, so APQ keeps
 * working per instance (a client whose hash is unknown there gets PERSISTED_QUERY_NOT_FOUND and
 * sends the full query once, as the protocol intends). A Redis error never reaches the request:
 * Apollo would answer an exception from get() with a 500. The outage is logged once per episode.
 */
export function persistedQueryCache(redis: Redis | undefined, keyPrefix: string, logger: Logger): KeyValueCache {
  const local = byteBoundedApolloCache<string>(CACHE_BYTES.persistedQueries, stringBytes);
  return redis ? new RedisFirstCache(redis, keyPrefix, local, logger) : local;
}

class RedisFirstCache implements KeyValueCache {
  private failing = false;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly local: InMemoryLRUCache<string>,
    private readonly logger: Logger,
  ) {}

  async get(key: string): Promise<string | undefined> {
    return this.attempt(
      async () => (await this.redis.get(this.prefix + key)) ?? undefined,
      () => this.local.get(key),
    );
  }

  async set(key: string, value: string, options?: KeyValueCacheSetOptions): Promise<void> {
    const ttl = options?.ttl ?? PERSISTED_QUERY_TTL_SECONDS;
    await this.attempt(
      async () => void (await this.redis.set(this.prefix + key, value, 'EX', ttl)),
      () => this.local.set(key, value, { ttl }),
    );
  }

  async delete(key: string): Promise<void> {
    await this.attempt(
      async () => void (await this.redis.del(this.prefix + key)),
      async () => void (await this.local.delete(key)),
    );
  }

  private async attempt<T>(shared: () => Promise<T>, fallback: () => Promise<T>): Promise<T> {
    try {
      const result = await shared();
      if (this.failing) this.logger.info('persisted queries: back in Redis');
      this.failing = false;
      return result;
    } catch (err) {
      if (!this.failing) this.logger.warn({ err }, 'persisted queries: Redis failed, caching them per instance until it is back');
      this.failing = true;
      return fallback();
    }
  }
}
