import { createHash } from 'node:crypto';
import { createLogger } from '../src/platform/logger';
import { eventually } from './support/eventually';
import { FaultProxy } from './support/fault-proxy';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';
import { TEST_REDIS_URL as REDIS_URL, testRedis } from './support/test-redis';

/** A distinct document per call, so no test sees another's registration. */
let documents = 0;
function newQuery(): { query: string; hash: string } {
  const query = `query Apq${++documents} { publicCategories { id name } }`;
  return { query, hash: createHash('sha256').update(query).digest('hex') };
}

const persisted = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });

async function register(t: TestGateway, q: { query: string; hash: string }) {
  return t.http
    .post('/graphql')
    .set('content-type', 'application/json')
    .send({ query: q.query, extensions: persisted(q.hash) });
}

async function byHash(t: TestGateway, hash: string) {
  return t.http
    .post('/graphql')
    .set('content-type', 'application/json')
    .send({ extensions: persisted(hash) });
}

async function redisCheck(t: TestGateway): Promise<string> {
  const res = await t.http.get('/readyz');
  expect(res.status).toBe(200);
  return res.body.checks.redis as string;
}

describe('automatic persisted queries', () => {
  const { prefix: PREFIX, redis } = testRedis('apq');

  it('without REDIS_URL each instance has its own cache, and /readyz says Redis is not configured', async () => {
    const a = await startTestGateway();
    const b = await a.twin();
    try {
      const q = newQuery();
      expect((await register(a, q)).body.data.publicCategories.length).toBeGreaterThan(0);
      await eventually(async () => (await byHash(a, q.hash)).body.data !== undefined);
      expect((await byHash(b, q.hash)).body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
      expect(await redisCheck(a)).toBe('not configured');
    } finally {
      await b.close();
      await a.close();
    }
  });

  it('with Redis a query registered through one instance is found through another', async () => {
    const env = { REDIS_URL, REDIS_KEY_PREFIX: PREFIX };
    const [a, b] = await Promise.all([startTestGateway(env), startTestGateway(env)]);
    try {
      const q = newQuery();
      expect((await byHash(b, q.hash)).body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
      const registered = await register(a, q);
      expect(registered.body.errors).toBeUndefined();
      // Apollo stores the query after answering (without waiting): wait for it to reach Redis.
      await eventually(async () => (await redis.exists(`${PREFIX}apq:${q.hash}`)) === 1);
      const hit = await byHash(b, q.hash);
      expect(hit.body).toEqual(registered.body);
      expect(await redis.ttl(`${PREFIX}apq:${q.hash}`)).toBeGreaterThan(0);
      // Readiness comes from background pings (every 250 ms): the first may predate the connection.
      await eventually(async () => (await redisCheck(b)) === 'ok');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('Redis going away: /readyz stays 200 and says so, APQ keeps working per instance, logged once; all back when Redis is', async () => {
    const { proxy, url } = await FaultProxy.start(REDIS_URL);
    const logger = createLogger('silent');
    const warn = jest.spyOn(logger, 'warn');
    const t = await startTestGateway({ REDIS_URL: url, REDIS_KEY_PREFIX: PREFIX }, { logger });
    try {
      await eventually(async () => (await redisCheck(t)) === 'ok');

      proxy.refuse();
      await eventually(async () => (await redisCheck(t)) !== 'ok');
      expect(await redisCheck(t)).toMatch(/^degraded .*per instance/);
      const ready = await t.http.get('/readyz');
      expect(ready.body).toMatchObject({ status: 'ready', checks: { database: 'ok' } });

      const local = newQuery();
      const registered = await register(t, local);
      expect(registered.status).toBe(200);
      expect(registered.body.errors).toBeUndefined();
      await eventually(async () => (await byHash(t, local.hash)).body.data !== undefined);
      for (let i = 0; i < 5; i++) expect((await byHash(t, local.hash)).status).toBe(200);
      expect(warn.mock.calls.filter(([, msg]) => /^persisted queries/.test(String(msg)))).toHaveLength(1);
      expect(await redis.exists(`${PREFIX}apq:${local.hash}`)).toBe(0);

      proxy.restore();
      await eventually(async () => (await redisCheck(t)) === 'ok');
      const shared = newQuery();
      await register(t, shared);
      await eventually(async () => (await redis.exists(`${PREFIX}apq:${shared.hash}`)) === 1);
    } finally {
      await t.close();
      await proxy.close();
    }
  });
});

describe('malformed automatic persisted queries are client errors (issue 22)', () => {
  /** graphql_errors_total for one code, from /metrics. */
  async function errorsCounted(t: TestGateway, code: string): Promise<number> {
    const text = (await t.http.get('/metrics')).text;
    const line = text.split('\n').find((l) => l.startsWith(`graphql_errors_total{code="${code}"}`));
    return line ? Number(line.split(' ').pop()) : 0;
  }

  it('a hash that is not the query text’s, or a version other than 1: 400 with their own codes, no internal error counted', async () => {
    for (const mode of ['allow', 'only'] as const) {
      const t = await startTestGateway({ TRUSTED_DOCUMENTS: mode });
      try {
        const internalBefore = await errorsCounted(t, 'INTERNAL_SERVER_ERROR');
        const q = newQuery();
        const mismatch = await t.http
          .post('/graphql')
          .set('content-type', 'application/json')
          .send({ query: q.query, extensions: persisted(newQuery().hash) });
        expect(mismatch.status).toBe(400);
        expect(mismatch.body.errors).toEqual([
          { message: 'extensions.persistedQuery.sha256Hash is not the SHA-256 of the query text.', extensions: { code: 'PERSISTED_QUERY_HASH_MISMATCH' } },
        ]);
        for (const version of [2, '1', null]) {
          const res = await t.http
            .post('/graphql')
            .set('content-type', 'application/json')
            .send({ query: q.query, extensions: { persistedQuery: { version, sha256Hash: q.hash } } });
          expect(res.status).toBe(400);
          expect(res.body.errors).toEqual([
            { message: 'Unsupported persisted query version: only version 1 is supported.', extensions: { code: 'BAD_REQUEST' } },
          ]);
        }
        const viaGet = await t.http.get('/graphql').query({ query: q.query, extensions: JSON.stringify(persisted('0'.repeat(64))) });
        expect(viaGet.status).toBe(400);
        expect(viaGet.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_HASH_MISMATCH');
        expect(await errorsCounted(t, 'INTERNAL_SERVER_ERROR')).toBe(internalBefore);
        // A well-formed registration still works where registrations are allowed.
        if (mode !== 'only') expect((await register(t, q)).body.errors).toBeUndefined();
      } finally {
        await t.close();
      }
    }
  });

  it('an extensions.persistedQuery that is not an object (a string, a number, a boolean, an array): 400 BAD_REQUEST, no internal error counted', async () => {
    for (const mode of ['off', 'only'] as const) {
      const t = await startTestGateway({ TRUSTED_DOCUMENTS: mode });
      try {
        const internalBefore = await errorsCounted(t, 'INTERNAL_SERVER_ERROR');
        const q = newQuery();
        for (const persistedQuery of [q.hash, 'x', '', 1, 0, true, false, [], [q.hash]]) {
          for (const body of [{ query: q.query, extensions: { persistedQuery } }, { extensions: { persistedQuery } }]) {
            const res = await t.http.post('/graphql').set('content-type', 'application/json').send(body);
            expect({ persistedQuery, status: res.status, errors: res.body.errors }).toEqual({
              persistedQuery,
              status: 400,
              errors: [{ message: 'extensions.persistedQuery must be an object: { version: 1, sha256Hash }.', extensions: { code: 'BAD_REQUEST' } }],
            });
          }
        }
        const viaGet = await t.http.get('/graphql').query({ query: q.query, extensions: JSON.stringify({ persistedQuery: q.hash }) });
        expect(viaGet.status).toBe(400);
        expect(viaGet.body.errors[0].extensions.code).toBe('BAD_REQUEST');
        expect(await errorsCounted(t, 'INTERNAL_SERVER_ERROR')).toBe(internalBefore);
        // null is no persisted query at all, as Apollo reads it: the text runs (staff only under `only`).
        const token = mode === 'only' ? await t.token(DEMO_EMAILS.admin) : undefined;
        const plain = await t.http
          .post('/graphql')
          .set('content-type', 'application/json')
          .set(token ? { authorization: `Bearer ${token}` } : {})
          .send({ query: q.query, extensions: { persistedQuery: null } });
        expect(plain.status).toBe(200);
        expect(plain.body.errors).toBeUndefined();
      } finally {
        await t.close();
      }
    }
  });
});
