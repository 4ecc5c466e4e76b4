import { loadConfig } from '../src/platform/config';
import type { Prisma } from '../src/db/database';
import { eventually } from './support/eventually';
import { FaultProxy } from './support/fault-proxy';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

/**
 * DATABASE_READ_URLS: the "replica" here is a separate copy of the seeded database (on PostgreSQL
 * a second database reached through DATABASE_READ_URLS' code path, on PGlite a second copy), so a
 * change made on one side only shows which side each kind of read went to.
 */
let t: TestGateway;
let primary: Prisma;
let replica: Prisma;
let admin: string;
let investor: string;

beforeAll(async () => {
  t = await startTestGateway({}, { readReplica: true });
  primary = t.db.prisma;
  replica = t.db.replicas[0];
  // Sign-in writes a session on the primary only: every authenticated request below finds it there.
  admin = await t.token(DEMO_EMAILS.admin);
  investor = await t.token(DEMO_EMAILS.investor);
});
afterAll(() => t.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

it('sessions live on the primary: the replica never saw them, yet authenticated reads work', async () => {
  expect(await replica.session.count()).toBeLessThan(await primary.session.count());
  const me = await t.http.get('/api/v1/auth/me').set(bearer(investor));
  expect(me.status).toBe(200);
});

it('list and detail reads come from the replica', async () => {
  const unit = await primary.unit.findFirstOrThrow({ where: { status: 'AVAILABLE' }, orderBy: { id: 'asc' } });
  await replica.unit.update({ where: { id: unit.id }, data: { name: `${unit.name} (replica)` } });

  const detail = await t.http.get(`/api/v1/units/${unit.id}`).set(bearer(investor));
  expect(detail.body.data.name).toBe(`${unit.name} (replica)`);
  const list = await t.gql<{ units: { items: Array<{ id: number; name: string }> } }>(`{ units(perPage: 100) { items { id name } } }`, {}, investor);
  expect(list.data!.units.items.find((u) => u.id === unit.id)?.name).toBe(`${unit.name} (replica)`);
  expect((await primary.unit.findUniqueOrThrow({ where: { id: unit.id } })).name).toBe(unit.name);
});

it('aggregate reads come from the replica', async () => {
  const category = await primary.category.findFirstOrThrow({ orderBy: { id: 'asc' } });
  await replica.category.update({ where: { id: category.id }, data: { name: `${category.name} (replica)` } });
  const aum = await t.gql<{ assetsUnderManagement: Array<{ categoryId: number; category: string }> }>(
    `{ assetsUnderManagement { categoryId category } }`,
    {},
    admin,
  );
  expect(aum.data!.assetsUnderManagement.find((c) => c.categoryId === category.id)?.category).toBe(`${category.name} (replica)`);
});

it('a mutation reads what it wrote from the primary (both faces); a later plain read may lag behind on the replica', async () => {
  const user = await primary.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.investor } });
  const [viaGraphql, viaRest] = await primary.notification.findMany({ where: { userId: user.id, readAt: null }, orderBy: { id: 'asc' }, take: 2 });

  // markNotificationRead writes, then reads the notification back through the detail read.
  const marked = await t.gql<{ markNotificationRead: { id: number; readAt: string | null } }>(
    `mutation { markNotificationRead(id: ${viaGraphql.id}) { id readAt } }`,
    {},
    investor,
  );
  expect(marked.errors).toBeUndefined();
  expect(marked.data!.markNotificationRead.readAt).not.toBeNull();
  const rest = await t.http.post(`/api/v1/notifications/${viaRest.id}/read`).set(bearer(investor));
  expect(rest.status).toBe(200);
  expect(rest.body.data.read_at).not.toBeNull();

  // Nothing replicates here, so the replica still has it unread: the lag a client may see right after a write.
  expect((await t.http.get(`/api/v1/notifications/${viaGraphql.id}`).set(bearer(investor))).body.data.read_at).toBeNull();
  expect((await primary.notification.findUniqueOrThrow({ where: { id: viaGraphql.id } })).readAt).not.toBeNull();
});

it('DATABASE_READ_URLS is a list of PostgreSQL URLs and needs DATABASE_URL', () => {
  const primaryUrl = 'postgresql://gateway:secret@db:5432/invest';
  expect(loadConfig({ DATABASE_URL: primaryUrl, DATABASE_READ_URLS: 'postgresql://r1:5432/invest, postgresql://r2:5432/invest' }).databaseReadUrls).toEqual([
    'postgresql://r1:5432/invest',
    'postgresql://r2:5432/invest',
  ]);
  expect(loadConfig({}).databaseReadUrls).toEqual([]);
  expect(() => loadConfig({ DATABASE_URL: primaryUrl, DATABASE_READ_URLS: 'mysql://r1/invest' })).toThrow(
    /^Invalid configuration: DATABASE_READ_URLS must be a comma-separated list of PostgreSQL URLs/,
  );
  expect(() => loadConfig({ DATABASE_READ_URLS: 'postgresql://r1:5432/invest' })).toThrow(/DATABASE_READ_URLS needs DATABASE_URL/);
});

/**
 * The replica gone while the primary is fine (issue 22, finding 12): reads routed to it answer 503 in
 * the contract's format on both faces, whichever way it went (refused, reset, silent), and serve again
 * once it is back. On PGlite the replica's embedded database is closed under the gateway instead.
 */
describe('a read replica that is down', () => {
  /** Small timeouts so a silent replica is noticed quickly: connect 2 s, statements 1 s (the client gives up 1 s later). */
  const FAST = { DB_CONNECT_TIMEOUT_MS: '2000', DB_STATEMENT_TIMEOUT_MS: '1000' };
  let g: TestGateway;
  let proxy: FaultProxy | undefined;
  let token: string;

  beforeAll(async () => {
    g = await startTestGateway(FAST, {
      readReplica: true,
      readUrl: async (url) => {
        const started = await FaultProxy.start(url);
        proxy = started.proxy;
        return started.url;
      },
    });
    token = await g.token(DEMO_EMAILS.investor);
  });
  afterEach(() => proxy?.restore());
  afterAll(async () => {
    await g.close();
    await proxy?.close();
  });

  /** REST and GraphQL reads that go to the replica (aggregates through $queryRaw, lists through the model API). */
  const reads = async () => {
    const auth = { authorization: `Bearer ${token}` };
    const gql = (query: string) => g.http.post('/graphql').set(auth).set('content-type', 'application/json').send({ query });
    const answers = await Promise.all([
      g.http.get('/api/v1/portfolio/performance').set(auth),
      g.http.get('/api/v1/distributions').set(auth),
      gql('{ portfolioPerformance { totalInvested } }'),
      gql('{ distributions { items { id } } }'),
    ]);
    return answers.map((r) => ({ status: r.status, body: r.body as unknown }));
  };
  const UNAVAILABLE_REST = { status: 503, body: { success: false, message: 'Service temporarily unavailable.' } };
  const UNAVAILABLE_GRAPHQL = {
    status: 503,
    body: { data: null, errors: [expect.objectContaining({ message: 'Service temporarily unavailable.', extensions: { code: 'SERVICE_UNAVAILABLE' } })] },
  };

  const faults: Array<[string, () => Promise<void> | void]> = process.env.TEST_DATABASE_URL
    ? [
        ['refused (nothing listens)', () => proxy!.down()],
        ['reset (every connection closed)', () => proxy!.refuse()],
        ['silent (a partition)', () => proxy!.blackhole()],
      ]
    : [['closed (PGlite: for good, nothing to come back)', () => g.replicaPglite!.close()]];
  it.each(faults)('answers 503 on both faces, never 500, when the replica is %s, and serves again once it is back', async (_label, cut) => {
    // Ready first (the replica's pool may still hold connections the previous fault broke).
    await eventually(async () => (await reads()).every((r) => r.status === 200));
    await cut();

    expect(await reads()).toEqual([UNAVAILABLE_REST, UNAVAILABLE_REST, UNAVAILABLE_GRAPHQL, UNAVAILABLE_GRAPHQL]);
    // The primary still serves what does not read the replica.
    expect((await g.http.get('/api/v1/auth/me').set({ authorization: `Bearer ${token}` })).status).toBe(200);

    if (!proxy) return; // a closed PGlite does not come back
    proxy.restore();
    await eventually(async () => (await reads()).every((r) => r.status === 200));
  });
});
