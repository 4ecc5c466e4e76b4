import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createLogger } from '../src/platform/logger';
import { fromRoot } from '../src/platform/paths';
import { closeRedis, createRedis } from '../src/services/redis';
import { DEMO_EMAILS, DEMO_PASSWORD, startTestGateway, type TestGateway } from './support/harness';
import { TEST_REDIS_URL as REDIS_URL, testRedis } from './support/test-redis';

async function wrongLogin(t: TestGateway) {
  return (await t.http.post('/api/v1/auth/login').send({ email: DEMO_EMAILS.investor, password: 'Guess1234!' })).status;
}

/** Until its connection is up an instance counts in memory (the insurance limiter): wait for it. */
async function connected(t: TestGateway) {
  const redis = t.services.redis!;
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
}

describe('rate limits in Redis (REDIS_URL)', () => {
  const { prefix: PREFIX, redis } = testRedis('limits');

  it('two gateway instances share the login limit: the second sees the attempts made on the first', async () => {
    const env = { REDIS_URL, REDIS_KEY_PREFIX: PREFIX, AUTH_RATE_LIMIT_PER_MINUTE: '3' };
    const [a, b] = await Promise.all([startTestGateway(env), startTestGateway(env)]);
    try {
      await Promise.all([connected(a), connected(b)]);
      expect([await wrongLogin(a), await wrongLogin(a), await wrongLogin(b)]).toEqual([422, 422, 422]);
      const limited = await b.http.post('/api/v1/auth/login').send({ email: DEMO_EMAILS.investor, password: DEMO_PASSWORD });
      expect(limited.status).toBe(429);
      expect(limited.headers['x-ratelimit-limit']).toBe('3');
      expect(await wrongLogin(a)).toBe(429);
      expect((await redis.keys(`${PREFIX}rl:*`)).length).toBeGreaterThan(0);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('Redis unreachable: the gateway keeps serving and each instance still enforces the limits in memory', async () => {
    // Port 1 refuses connections: Redis is "down" from the start.
    const t = await startTestGateway({ REDIS_URL: 'redis://127.0.0.1:1', REDIS_KEY_PREFIX: PREFIX, AUTH_RATE_LIMIT_PER_MINUTE: '3' });
    try {
      expect(t.services.redis!.status).not.toBe('ready');
      expect((await t.http.post('/api/v1/auth/login').send({ email: DEMO_EMAILS.investor, password: DEMO_PASSWORD })).status).toBe(200);
      expect([await wrongLogin(t), await wrongLogin(t), await wrongLogin(t)]).toEqual([422, 422, 429]);
      expect((await t.http.get('/api/v1/public/units')).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  // In a process of its own, where no test runner keeps timers.
  it('closing an unreachable Redis leaves no timer running', async () => {
    const script = `
      const { createRedis, closeRedis } = require('./src/services/redis');
      const { createLogger } = require('./src/platform/logger');
      const redis = createRedis('redis://127.0.0.1:1', createLogger('silent'));
      // Closed while waiting to retry: its connection refused and already closed.
      redis.once('reconnecting', async () => {
        await closeRedis(redis);
        // Timers due now have fired by the next turn of the timer queue; anything left would keep the process alive.
        setTimeout(() => console.log(JSON.stringify(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length - 1)), 0);
      });`;
    const { stdout } = await promisify(execFile)(process.execPath, ['-r', fromRoot('scripts/ts-register.cjs'), '-e', script], { cwd: fromRoot() });
    expect(JSON.parse(stdout)).toBe(0); // timers besides the one printing this
  });

  // The worker that ran persisted-queries was force-exited by Jest: ioredis drops the commands it sent on a
  // connection that closed before it was ready (CLIENT SETINFO, the ready check) at its next connection,
  // without settling them, and each keeps its 1 s command timeout running.
  it('connections dropped before they were ready, then Redis closed: no command timer left running', async () => {
    const script = `
      const net = require('node:net');
      const { createHook } = require('node:async_hooks');
      const { createRedis, closeRedis } = require('./src/services/redis');
      const { createLogger } = require('./src/platform/logger');
      // The timers of at least a second (the command timeout) still due: ioredis' 1 ms close timer is not one.
      const timers = new Map();
      createHook({ init: (id, type, _, t) => type === 'Timeout' && t._idleTimeout >= 1000 && timers.set(id, t) }).enable();
      const due = () => [...timers.values()].filter((t) => !t._destroyed).length;
      // A server that accepts and drops every connection (Redis going away behind a proxy).
      const server = net.createServer((socket) => socket.destroy()).listen(0, '127.0.0.1', () => {
        const redis = createRedis('redis://127.0.0.1:' + server.address().port, createLogger('silent'));
        let connects = 0;
        redis.on('connect', () => connects++);
        // Closed while waiting to retry, after connections that were dropped before they were ready.
        redis.on('reconnecting', async () => {
          if (connects < 3) return;
          await closeRedis(redis);
          server.close();
          console.log(JSON.stringify(due()));
        });
      });`;
    const { stdout } = await promisify(execFile)(process.execPath, ['-r', fromRoot('scripts/ts-register.cjs'), '-e', script], { cwd: fromRoot() });
    expect(JSON.parse(stdout)).toBe(0);
  });

  it('an unreachable Redis is logged once, not at every reconnection attempt', async () => {
    const logger = createLogger('silent');
    const warn = jest.spyOn(logger, 'warn');
    const redis = createRedis('redis://127.0.0.1:1', logger);
    try {
      let errors = 0;
      redis.on('error', () => errors++);
      // Wait for a few failed connection attempts (ioredis retries on its own).
      await new Promise<void>((resolve) => redis.on('error', () => errors >= 3 && resolve()));
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0][1]).toMatch(/redis unreachable/);
    } finally {
      await closeRedis(redis);
    }
  });
});
