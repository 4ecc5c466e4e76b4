import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { RedisHealth } from '../../src/services/redis';

/** The part of an ioredis client RedisHealth uses; like ioredis without an offline queue, a ping before `ready` fails. */
class FakeRedis extends EventEmitter {
  status = 'connecting';

  ping(): Promise<string> {
    return this.status === 'ready' ? Promise.resolve('PONG') : Promise.reject(new Error("Stream isn't writeable and enableOfflineQueue options is false"));
  }

  become(status: 'ready' | 'end'): void {
    this.status = status;
    this.emit(status);
  }
}

async function started(redis: FakeRedis, outcome: (r: FakeRedis) => void, boundMs?: number): Promise<string> {
  const health = new RedisHealth(redis as unknown as Redis, boundMs);
  const start = health.start();
  outcome(redis);
  await start;
  await health.stop();
  return health.detail();
}

describe('RedisHealth at start-up (a fresh instance shares limits and persisted queries from its first request)', () => {
  it('waits for a connection still being made, then reports it ok', async () => {
    expect(await started(new FakeRedis(), (r) => r.become('ready'))).toBe('ok');
  });

  it('does not wait for a connection that failed or ended: reported degraded, never required', async () => {
    expect(await started(new FakeRedis(), (r) => r.emit('error', new Error('connect ECONNREFUSED')))).toMatch(/^degraded \(ping failed/);
    expect(await started(new FakeRedis(), (r) => r.become('end'))).toMatch(/^degraded \(ping failed/);
  });

  it('waits at most its bound for a connection that never answers', async () => {
    expect(await started(new FakeRedis(), () => undefined, 5)).toMatch(/^degraded \(ping failed/);
  });

  it('does not wait for a connection that is ready already', async () => {
    const redis = new FakeRedis();
    redis.status = 'ready';
    expect(await started(redis, () => undefined, 60_000)).toBe('ok');
  });
});
