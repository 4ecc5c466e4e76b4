import { readFileSync } from 'node:fs';
import * as context from '../src/http/context';
import { PushStatus } from '../src/generated/prisma/enums';
import { fromRoot } from '../src/platform/paths';
import { captureLogger } from './support/log-capture';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

// buildContext wrapped (same behaviour) so a test can see what each face hands it: compiled modules
// export through getters, which jest.spyOn cannot replace.
jest.mock('../src/http/context', () => {
  const actual = jest.requireActual<typeof import('../src/http/context')>('../src/http/context');
  return { ...actual, buildContext: jest.fn(actual.buildContext) };
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const log = captureLogger('debug');
let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway({}, { logger: log.logger });
});
afterAll(() => t.close());

describe('request ids', () => {
  it('echoes a well-formed X-Request-Id and replaces a missing or malformed one with a UUID', async () => {
    const given = 'edge-01:req_42.a-b';
    expect((await t.http.get('/healthz').set('x-request-id', given)).headers['x-request-id']).toBe(given);
    expect((await t.http.get('/healthz')).headers['x-request-id']).toMatch(UUID);
    for (const bad of ['x'.repeat(129), 'has space', 'semi;colon', 'naïve']) {
      const res = await t.http.get('/api/v1/public/units').set('x-request-id', bad);
      expect(res.headers['x-request-id']).toMatch(UUID);
    }
  });

  it('puts the id on every log line of its request, services included, with concurrent requests kept apart', async () => {
    const ids = ['concurrent-a', 'concurrent-b', 'concurrent-c'];
    const before = log.lines().length;
    // A reset request for a registered address logs the mail (debug level, no SMTP_URL) from inside the service.
    const answers = await Promise.all(
      ids.map((id) => t.http.post('/api/v1/auth/password/forgot').set('x-request-id', id).send({ email: DEMO_EMAILS.investor })),
    );
    expect(answers.map((a) => a.headers['x-request-id'])).toEqual(ids);
    const lines = log.lines().slice(before);
    for (const id of ids) {
      const own = lines.filter((l) => l.reqId === id);
      expect(own.map((l) => l.msg).sort()).toEqual([`mail to ${DEMO_EMAILS.investor}: Reset your password`, 'request completed']);
      expect(own.find((l) => l.msg === 'request completed')?.req).toMatchObject({ id });
    }
    expect(lines.every((l) => l.reqId !== undefined && ids.includes(l.reqId))).toBe(true);
  });

  it('hands the id to the context of both faces (RequestMeta.requestId)', async () => {
    const spy = jest.mocked(context.buildContext);
    spy.mockClear();
    await t.http.get('/api/v1/public/categories').set('x-request-id', 'rest-face-1');
    await t.http.post('/graphql').set('x-request-id', 'graphql-face-1').send({ query: '{ publicCategories { id } }' });
    expect(spy.mock.calls.map((c) => c[2].requestId)).toEqual(['rest-face-1', 'graphql-face-1']);
  });
});

/** Reads one sample from the Prometheus text format; undefined when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    const m = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = m[2] ? m[2].split(/,(?=[a-z_]+=")/) : [];
    if (want.every((w) => have.includes(w)) && have.length === want.length) return Number(m[3]);
  }
  return undefined;
}
const scrape = async () => (await t.http.get('/metrics')).text;

describe('metrics', () => {
  it('times REST routes by their route-table pattern, never the raw path', async () => {
    const token = await t.token(DEMO_EMAILS.investor);
    const labels = { method: 'GET', route: '/api/v1/distributions/{id}', status: '404' };
    const before = sample(await scrape(), 'http_request_duration_seconds_count', labels) ?? 0;
    await t.http.get('/api/v1/distributions/999999').set('authorization', `Bearer ${token}`);
    await t.http.get('/api/v1/distributions/888888').set('authorization', `Bearer ${token}`);
    const text = await scrape();
    expect(sample(text, 'http_request_duration_seconds_count', labels)).toBe(before + 2);
    expect(text).not.toMatch(/route="[^"]*(999999|888888)/);
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status: '404' })).toBeUndefined();
    await t.http.get('/no/such/path/12345');
    expect(sample(await scrape(), 'http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
  });

  it('times GraphQL operations by name, type and outcome; anonymous and unparsable ones collapse', async () => {
    const token = await t.token(DEMO_EMAILS.investor);
    const gql = (query: string, auth?: string) => {
      const req = t.http.post('/graphql').set('content-type', 'application/json');
      if (auth) req.set('authorization', `Bearer ${auth}`);
      return req.send({ query });
    };
    await gql('query MyDistributions { distributions { pageInfo { total } } }', token);
    await gql('query MyDistributions { distributions { pageInfo { total } } }');
    await gql('{ me { id } }');
    await gql('mutation SeeYou { logout }', token);
    await gql('query {');
    const text = await scrape();
    const count = (operation: string, type: string, outcome: string) => sample(text, 'graphql_operation_duration_seconds_count', { operation, type, outcome });
    expect(count('MyDistributions', 'query', 'ok')).toBe(1);
    expect(count('MyDistributions', 'query', 'UNAUTHENTICATED')).toBe(1);
    expect(count('(anonymous)', 'query', 'UNAUTHENTICATED')).toBe(1);
    expect(count('SeeYou', 'mutation', 'ok')).toBe(1);
    expect(count('(unknown)', 'unknown', 'GRAPHQL_PARSE_FAILED')).toBe(1);
  });

  it('keeps operation-name cardinality bounded: past 100 names, new ones share "(other)"', async () => {
    for (let i = 0; i < 110; i++) await t.http.post('/graphql').send({ query: `query Name${i} { __typename }` });
    const text = await scrape();
    const names = new Set([...text.matchAll(/graphql_operation_duration_seconds_count\{operation="([^"]+)"/g)].map((m) => m[1]));
    expect([...names].filter((n) => !n.startsWith('('))).toHaveLength(100);
    expect(sample(text, 'graphql_operation_duration_seconds_count', { operation: '(other)', type: 'query', outcome: 'ok' })).toBeGreaterThanOrEqual(10);
  });

  it('reports the push outbox backlog as it is when scraped', async () => {
    const pending = () => t.db.prisma.pushDelivery.count({ where: { status: PushStatus.PENDING } });
    expect(sample(await scrape(), 'push_outbox_pending')).toBe(await pending());
    const user = await t.db.prisma.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.investor } });
    const n = await t.db.prisma.notification.create({ data: { userId: user.id, type: 'SYSTEM', title: 'Backlog', body: 'metrics test' } });
    await t.db.prisma.pushDelivery.createMany({ data: [1, 2, 3].map((i) => ({ notificationId: n.id, token: `metrics-token-${i}` })) });
    const now = await pending();
    expect(sample(await scrape(), 'push_outbox_pending')).toBe(now);
    await t.db.prisma.pushDelivery.updateMany({ where: { notificationId: n.id }, data: { status: PushStatus.SENT } });
    expect(sample(await scrape(), 'push_outbox_pending')).toBe(now - 3);
  });

  it('reports database pool usage where there is a pool (PostgreSQL), and no series on embedded PGlite', async () => {
    const text = await scrape();
    const state = (s: string) => sample(text, 'db_pool_connections', { state: s });
    if (t.db.kind === 'postgres') {
      expect(state('total')).toBeGreaterThanOrEqual(1);
      expect(state('total')).toBeLessThanOrEqual(10);
      expect(state('idle')).toBeLessThanOrEqual(state('total')!);
      expect(state('waiting')).toBe(0);
    } else {
      expect(state('total')).toBeUndefined();
    }
  });
});

describe('what is running', () => {
  // From the sources (as here) no build recorded a commit: `unknown`, not a guess. The commit of a
  // build: test/unit/build-info.test.ts, test/production-path.test.ts, npm run check:dockerfile.
  const { version } = JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')) as { version: string };

  it("/healthz names package.json's version and the commit", async () => {
    expect((await t.http.get('/healthz')).body).toEqual({ status: 'ok', version, commit: 'unknown' });
  });

  it('build_info{version,commit,node_version} is 1', async () => {
    expect(sample(await scrape(), 'build_info', { version, commit: 'unknown', node_version: process.version })).toBe(1);
  });
});
