import { Redis } from 'ioredis';

/** The Redis that CI and the development machine provide. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * A key prefix of this test file's own on that Redis, and a client to look at it; call from a
 * describe block: the file's keys are removed after its tests.
 */
export function testRedis(name: string): { prefix: string; redis: Redis } {
  const prefix = `gateway-test:${name}:${process.pid}:${Date.now()}:`;
  const redis = new Redis(TEST_REDIS_URL);
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });
  return { prefix, redis };
}
