import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * The one Redis connection of a process (REDIS_URL), for whatever instances share: rate limits
 * today. ioredis reconnects on its own; the offline queue is off so that while Redis is down a
 * command fails at once (callers fall back, e.g. to an in-memory insurance limiter) instead of
 * waiting. Each change of state is logged once, not every reconnection attempt.
 */
export function createRedis(url: string, logger: Logger): Redis {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
  let up: boolean | undefined;
  redis.on('ready', () => {
    if (up !== true) logger.info('redis connected');
    up = true;
  });
  redis.on('error', (err: Error) => {
    if (up !== false) logger.warn({ err }, 'redis unreachable: limits are counted per instance until it is back');
    up = false;
  });
  return redis;
}

/** Closes the connection: politely when it is up, at once when it is not. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
  else redis.disconnect();
}
