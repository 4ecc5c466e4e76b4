import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Redis } from 'ioredis';
import pino from 'pino';
import { eventually } from './support/eventually';
import { DEMO_EMAILS, DEMO_PASSWORD, startTestGateway, type TestGateway } from './support/harness';
import { TEST_REDIS_URL, testRedis } from './support/test-redis';

/**
 * The gateway on Redis 7 as the ACL user docs/operations.md "Redis ACL user" documents, created here
 * from the documented line itself: every feature that uses Redis works through it, and a command
 * outside it is refused by Redis and handled (served as when Redis is down, logged once).
 */
const USER = `gateway-acl-test-${process.pid}`;
const PASSWORD = `pw-${process.pid}-${Date.now()}`;

/** The documented `ACL SETUSER gateway …` line, for this test's user, password and key prefix. */
async function documentedRules(prefix: string): Promise<string[]> {
  const docs = await readFile(path.join(__dirname, '..', 'docs', 'operations.md'), 'utf8');
  const line = docs.split('\n').find((l) => l.startsWith('ACL SETUSER gateway '));
  if (!line) throw new Error('docs/operations.md has no "ACL SETUSER gateway" line');
  const [, , , ...rules] = line.trim().split(/\s+/);
  expect(rules).toContain('~gateway:*');
  expect(rules).toContain('>CHANGE-ME');
  return rules.map((r) => (r === '~gateway:*' ? `~${prefix}*` : r === '>CHANGE-ME' ? `>${PASSWORD}` : r));
}

const url = () => {
  const u = new URL(TEST_REDIS_URL);
  u.username = USER;
  u.password = PASSWORD;
  return u.toString();
};

async function connected(t: TestGateway) {
  const redis = t.services.redis!;
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
}

const wrongLogin = async (t: TestGateway) => (await t.http.post('/api/v1/auth/login').send({ email: DEMO_EMAILS.investor, password: 'Guess1234!' })).status;

let documents = 0;
function newQuery(): { query: string; hash: string } {
  const query = `query AclApq${++documents} { publicCategories { id name } }`;
  return { query, hash: createHash('sha256').update(query).digest('hex') };
}
const apq = (t: TestGateway, hash: string, query?: string) =>
  t.http
    .post('/graphql')
    .set('content-type', 'application/json')
    .send({ ...(query ? { query } : {}), extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });

/** A logger whose lines the test reads. */
function capture() {
  const lines: Array<{ level: number; msg: string; command?: string }> = [];
  return { lines, logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) }) };
}

describe('REDIS_URL as the documented ACL user', () => {
  const { prefix: PREFIX, redis } = testRedis('acl');

  // Its own admin connection: testRedis' client may already be closed when this file's afterAll runs.
  const admin = new Redis(TEST_REDIS_URL);
  beforeAll(async () => {
    await admin.call('ACL', 'SETUSER', USER, 'reset', ...(await documentedRules(PREFIX)));
  });
  afterAll(async () => {
    await admin.call('ACL', 'DELUSER', USER);
    await admin.quit();
  });

  it('every feature that uses Redis works through it: shared rate limits, persisted queries across instances, /readyz', async () => {
    const { lines, logger } = capture();
    const env = { REDIS_URL: url(), REDIS_KEY_PREFIX: PREFIX, AUTH_RATE_LIMIT_PER_MINUTE: '3' };
    const [a, b] = await Promise.all([startTestGateway(env, { logger }), startTestGateway(env, { logger })]);
    try {
      await Promise.all([connected(a), connected(b)]);
      // Both instances' connections are this user's.
      expect(String(await redis.call('CLIENT', 'LIST')).match(new RegExp(`user=${USER} `, 'g'))).toHaveLength(2);

      // Rate limits (scripts, transactions, deletes), counted in Redis and shared.
      expect((await a.http.post('/api/v1/auth/login').send({ email: DEMO_EMAILS.investor, password: DEMO_PASSWORD })).status).toBe(200);
      expect([await wrongLogin(a), await wrongLogin(b)]).toEqual([422, 422]);
      const limited = await b.http.post('/api/v1/auth/login').send({ email: DEMO_EMAILS.investor, password: DEMO_PASSWORD });
      expect(limited.status).toBe(429);
      expect(await wrongLogin(a)).toBe(429);
      expect((await redis.keys(`${PREFIX}rl:*`)).length).toBeGreaterThan(0);

      // Persisted queries: registered on one instance, found on the other.
      const q = newQuery();
      const registered = await apq(a, q.hash, q.query);
      expect(registered.body.errors).toBeUndefined();
      await eventually(async () => (await redis.exists(`${PREFIX}apq:${q.hash}`)) === 1);
      expect((await apq(b, q.hash)).body).toEqual(registered.body);

      // /readyz pings Redis.
      await eventually(async () => (await b.http.get('/readyz')).body.checks.redis === 'ok');
      // Nothing was refused for lack of permission (a command timing out on a busy machine is no ACL matter).
      expect(lines.filter((l) => /NOPERM/.test(JSON.stringify(l)))).toEqual([]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('a command outside it is refused by Redis (NOPERM) and handled: no crash, one error line per command, the gateway still serves', async () => {
    const { lines, logger } = capture();
    const t = await startTestGateway({ REDIS_URL: url(), REDIS_KEY_PREFIX: PREFIX }, { logger });
    try {
      await connected(t);
      const client = t.services.redis!;
      await expect(client.keys('*')).rejects.toThrow(/^NOPERM/);
      await expect(client.flushall()).rejects.toThrow(/^NOPERM/);
      await expect(client.config('GET', 'maxmemory')).rejects.toThrow(/^NOPERM/);
      await expect(client.get('elsewhere:key')).rejects.toThrow(/^NOPERM/);
      await expect(client.keys('*')).rejects.toThrow(/^NOPERM/);
      const refusals = lines.filter((l) => l.msg.startsWith('redis refused'));
      expect(refusals.map((l) => [l.level, l.command])).toEqual([
        [50, 'keys'],
        [50, 'flushall'],
        [50, 'config'],
        [50, 'get'],
      ]);
      expect(refusals[0].msg).toBe(
        'redis refused KEYS (NOPERM): the ACL user of REDIS_URL lacks it or the key is outside its key pattern; served as when Redis is down',
      );
      expect(client.status).toBe('ready');
      expect((await t.http.get('/api/v1/public/units')).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('REDIS_KEY_PREFIX outside the user’s key pattern: every feature falls back as when Redis is down, and says why', async () => {
    const { lines, logger } = capture();
    const outside = `elsewhere-${process.pid}:`;
    const t = await startTestGateway({ REDIS_URL: url(), REDIS_KEY_PREFIX: outside, AUTH_RATE_LIMIT_PER_MINUTE: '3' }, { logger });
    try {
      await connected(t);
      // Limits still enforced, in this instance's memory.
      expect((await t.http.post('/api/v1/auth/login').send({ email: DEMO_EMAILS.investor, password: DEMO_PASSWORD })).status).toBe(200);
      expect([await wrongLogin(t), await wrongLogin(t), await wrongLogin(t)]).toEqual([422, 422, 429]);
      // Persisted queries still work, in this instance's cache.
      const q = newQuery();
      expect((await apq(t, q.hash, q.query)).body.errors).toBeUndefined();
      await eventually(async () => (await apq(t, q.hash)).body.data !== undefined);
      expect(await redis.keys(`${outside}*`)).toEqual([]);
      const errors = lines.filter((l) => l.level >= 50).map((l) => l.msg);
      expect(errors).toContain(
        'redis refused EVALSHA (NOPERM): the ACL user of REDIS_URL lacks it or the key is outside its key pattern; served as when Redis is down',
      );
      expect(lines.map((l) => l.msg)).toContain('persisted queries: Redis failed, caching them per instance until it is back');
    } finally {
      await t.close();
    }
  });
});
