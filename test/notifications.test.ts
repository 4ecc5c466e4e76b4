import * as Enums from '../src/generated/prisma/enums';
import { NotificationType, PushStatus } from '../src/generated/prisma/enums';
import { notify } from '../src/services/notification.service';
import { createTestUnit } from './support/fixtures';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

let t: TestGateway;
let token: string;
let otherToken: string;
let adminToken: string;
let userId: number;
let otherUserId: number;
let investorId: number;
let noteCounter = 0;
let tokenCounter = 0;

beforeAll(async () => {
  t = await startTestGateway();
  const demo = await t.db.prisma.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.investor }, include: { investor: true } });
  userId = demo.id;
  investorId = demo.investor!.id;
  const other = await t.db.prisma.user.findFirstOrThrow({ where: { role: 'INVESTOR', id: { not: userId }, deletedAt: null } });
  otherUserId = other.id;
  [token, otherToken, adminToken] = await Promise.all([t.token(DEMO_EMAILS.investor), t.token(other.email), t.token(DEMO_EMAILS.admin)]);
});
afterAll(() => t.close());

const prisma = () => t.db.prisma;
const auth = (req: ReturnType<TestGateway['http']['get']>, bearer: string | null) => (bearer ? req.set('authorization', `Bearer ${bearer}`) : req);
const get = (url: string, bearer: string | null = token) => auth(t.http.get(`/api/v1${url}`), bearer);
const post = (url: string, body: object = {}, bearer: string | null = token) => auth(t.http.post(`/api/v1${url}`), bearer).send(body);
const del = (url: string, body: object = {}, bearer: string | null = token) => auth(t.http.delete(`/api/v1${url}`), bearer).send(body);
const stamp = (d: Date | null) => (d ? d.toISOString().slice(0, 19) + '+00:00' : null);
const KEYS = ['id', 'type', 'title', 'body', 'data', 'read_at', 'created_at'];
const newToken = () => `test-fcm-token-${++tokenCounter}-${'x'.repeat(40)}`;

/** A notification written directly, each one a second newer than the last. */
function note(owner: number, read = false) {
  const n = ++noteCounter;
  const createdAt = new Date(Date.UTC(2030, 0, 1) + n * 1000);
  return prisma().notification.create({
    data: { userId: owner, type: NotificationType.SYSTEM, title: `Note ${n}`, body: `Body ${n}`, data: { n }, createdAt, readAt: read ? createdAt : null },
  });
}

/** REST writes `data` with snake_case keys at every depth and enum values in lower case. */
const ENUM_VALUES = new Set(Object.values(Enums).flatMap((e) => Object.values(e as Record<string, string>)));
const restData = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(restData)
    : typeof v === 'string'
      ? ENUM_VALUES.has(v)
        ? v.toLowerCase()
        : v
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase(), restData(x)]))
        : v;
const rest = (r: { id: number; type: string; title: string; body: string; data: unknown; readAt: Date | null; createdAt: Date }) => ({
  id: r.id,
  type: r.type.toLowerCase(),
  title: r.title,
  body: r.body,
  data: restData(r.data),
  read_at: stamp(r.readAt),
  created_at: stamp(r.createdAt),
});
const newestFirst = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

describe('GET /api/v1/notifications', () => {
  beforeAll(async () => {
    for (let i = 0; i < 6; i++) await note(userId, i % 2 === 0);
    await note(otherUserId);
  });

  it('lists only the own notifications, newest first, in the documented field order', async () => {
    const res = await get('/notifications?per_page=100');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['success', 'data', 'links', 'meta']);
    expect(Object.keys(res.body.data[0])).toEqual(KEYS);
    const rows = await prisma().notification.findMany({ where: { userId }, orderBy: newestFirst, take: 100 });
    expect(res.body.data).toEqual(rows.map(rest));
    expect(res.body.meta.total).toBe(await prisma().notification.count({ where: { userId } }));
  });

  it('filters unread=true and unread=false', async () => {
    const unread = await get('/notifications?unread=true&per_page=100');
    const rows = await prisma().notification.findMany({ where: { userId, readAt: null }, orderBy: newestFirst });
    expect(unread.body.data).toEqual(rows.map(rest));
    const read = await get('/notifications?unread=false&per_page=100');
    expect(read.body.data.length).toBeGreaterThan(0);
    expect(read.body.data.every((n: { read_at: string | null }) => n.read_at !== null)).toBe(true);
  });

  it('puts unread first with unread_first=true, also across page boundaries', async () => {
    const unread = await prisma().notification.findMany({ where: { userId, readAt: null }, orderBy: newestFirst });
    const read = await prisma().notification.findMany({ where: { userId, readAt: { not: null } }, orderBy: newestFirst });
    const all = [...unread, ...read].map(rest);
    const perPage = 4;
    const pages = [];
    for (let page = 1; page <= Math.ceil(all.length / perPage); page++) {
      const res = await get(`/notifications?unread_first=true&per_page=${perPage}&page=${page}`);
      expect(res.status).toBe(200);
      expect(res.body.meta.total).toBe(all.length);
      pages.push(...res.body.data);
    }
    expect(pages).toEqual(all);
  });

  it('answers 422 for a bad per_page or unread value, 401 without a token', async () => {
    const bad = await get('/notifications?per_page=0');
    expect(bad.status).toBe(422);
    expect(bad.body.errors.per_page).toEqual([expect.any(String)]);
    const flag = await get('/notifications?unread=maybe');
    expect(flag.status).toBe(422);
    expect(flag.body.errors.unread).toEqual(['The unread field must be true or false.']);
    const anon = await get('/notifications', null);
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ success: false, message: 'Unauthenticated.' });
  });
});

describe('GET /api/v1/notifications/{id}', () => {
  it('answers an own notification, 404 for another user’s or a bad id, 401 without a token', async () => {
    const mine = await note(userId);
    const res = await get(`/notifications/${mine.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: rest(mine) });
    const theirs = await note(otherUserId);
    expect((await get(`/notifications/${theirs.id}`)).body).toEqual({ success: false, message: 'Resource not found.' });
    expect((await get(`/notifications/${theirs.id}`)).status).toBe(404);
    expect((await get('/notifications/abc')).status).toBe(404);
    expect((await get(`/notifications/${mine.id}`, null)).status).toBe(401);
  });
});

describe('POST /api/v1/notifications/{id}/read', () => {
  it('marks it read and is idempotent (the first read_at stays)', async () => {
    const mine = await note(userId);
    const first = await post(`/notifications/${mine.id}/read`);
    expect(first.status).toBe(200);
    const row = await prisma().notification.findUniqueOrThrow({ where: { id: mine.id } });
    expect(row.readAt).not.toBeNull();
    expect(first.body).toEqual({ success: true, data: rest(row) });
    const again = await post(`/notifications/${mine.id}/read`);
    expect(again.status).toBe(200);
    expect(again.body.data.read_at).toBe(stamp(row.readAt));
    expect((await prisma().notification.findUniqueOrThrow({ where: { id: mine.id } })).readAt).toEqual(row.readAt);
  });

  it('answers 404 for another user’s notification and leaves it unread; 401 without a token', async () => {
    const theirs = await note(otherUserId);
    const res = await post(`/notifications/${theirs.id}/read`);
    expect(res.status).toBe(404);
    expect((await prisma().notification.findUniqueOrThrow({ where: { id: theirs.id } })).readAt).toBeNull();
    expect((await post('/notifications/0/read')).status).toBe(404);
    expect((await post(`/notifications/${theirs.id}/read`, {}, null)).status).toBe(401);
  });
});

describe('POST /api/v1/notifications/read-all', () => {
  it('marks every own unread notification read and says how many', async () => {
    await note(userId);
    await note(userId);
    const theirs = await note(otherUserId);
    const unread = await prisma().notification.count({ where: { userId, readAt: null } });
    expect(unread).toBeGreaterThanOrEqual(2);
    const res = await post('/notifications/read-all');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: [], message: `${unread} notifications marked as read.` });
    expect(await prisma().notification.count({ where: { userId, readAt: null } })).toBe(0);
    expect((await prisma().notification.findUniqueOrThrow({ where: { id: theirs.id } })).readAt).toBeNull();
    const again = await post('/notifications/read-all');
    expect(again.body.message).toBe('0 notifications marked as read.');
    await note(userId);
    expect((await post('/notifications/read-all')).body.message).toBe('1 notification marked as read.');
  });

  it('needs a bearer token', async () => {
    expect((await post('/notifications/read-all', {}, null)).status).toBe(401);
  });
});

describe('POST /api/v1/notifications/fcm-token', () => {
  it('registers a token for the user and session (201), answers 200 when it is already theirs; several devices per user', async () => {
    const a = newToken();
    const res = await post('/notifications/fcm-token', { token: a, platform: 'ios' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body.data)).toEqual(['id', 'token', 'platform', 'created', 'created_at', 'updated_at']);
    expect(res.body.data).toMatchObject({ token: a, platform: 'ios', created: true });
    const row = await prisma().deviceToken.findUniqueOrThrow({ where: { token: a } });
    expect(row.userId).toBe(userId);
    expect(row.sessionId).not.toBeNull();
    const again = await post('/notifications/fcm-token', { token: a, platform: 'android' });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ id: row.id, platform: 'android', created: false });
    const b = newToken();
    expect((await post('/notifications/fcm-token', { token: b, platform: 'web' })).status).toBe(201);
    expect(await prisma().deviceToken.count({ where: { userId, token: { in: [a, b] } } })).toBe(2);
  });

  it('moves a token that another user registered on the same device', async () => {
    const shared = newToken();
    expect((await post('/notifications/fcm-token', { token: shared, platform: 'android' }, otherToken)).status).toBe(201);
    const res = await post('/notifications/fcm-token', { token: shared, platform: 'android' });
    expect(res.status).toBe(201);
    expect((await prisma().deviceToken.findUniqueOrThrow({ where: { token: shared } })).userId).toBe(userId);
    expect(await prisma().deviceToken.count({ where: { token: shared } })).toBe(1);
  });

  it('answers 422 for a missing token or an unknown platform, 401 without a token', async () => {
    const before = await prisma().deviceToken.count();
    const missing = await post('/notifications/fcm-token', { platform: 'ios' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ token: ['The token field is required.'] });
    const platform = await post('/notifications/fcm-token', { token: newToken(), platform: 'symbian' });
    expect(platform.status).toBe(422);
    expect(platform.body.errors).toEqual({ platform: ['The selected platform is invalid.'] });
    const long = await post('/notifications/fcm-token', { token: 'x'.repeat(4097), platform: 'ios' });
    expect(long.status).toBe(422);
    expect(long.body.errors.token).toEqual(['The token field must not be greater than 4096 characters.']);
    expect((await post('/notifications/fcm-token', { token: newToken(), platform: 'ios' }, null)).status).toBe(401);
    expect(await prisma().deviceToken.count()).toBe(before);
  });
});

describe('DELETE /api/v1/notifications/fcm-token', () => {
  it('removes the given token of this user only', async () => {
    const mine = newToken();
    const theirs = newToken();
    await post('/notifications/fcm-token', { token: mine, platform: 'ios' });
    await post('/notifications/fcm-token', { token: theirs, platform: 'ios' }, otherToken);
    const res = await del('/notifications/fcm-token', { token: mine });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: [], message: '1 device token removed.' });
    expect(await prisma().deviceToken.count({ where: { token: mine } })).toBe(0);
    const other = await del('/notifications/fcm-token', { token: theirs });
    expect(other.body.message).toBe('0 device tokens removed.');
    expect(await prisma().deviceToken.count({ where: { token: theirs } })).toBe(1);
  });

  it('without a token removes the tokens this session registered, not those of other sessions', async () => {
    const session2 = await t.token(DEMO_EMAILS.investor);
    const here = [newToken(), newToken()];
    const there = newToken();
    for (const tk of here) await post('/notifications/fcm-token', { token: tk, platform: 'android' }, session2);
    await post('/notifications/fcm-token', { token: there, platform: 'android' });
    const res = await del('/notifications/fcm-token', {}, session2);
    expect(res.body.message).toBe('2 device tokens removed.');
    expect(await prisma().deviceToken.count({ where: { token: { in: here } } })).toBe(0);
    expect(await prisma().deviceToken.count({ where: { token: there } })).toBe(1);
  });

  it('logout drops the session’s tokens', async () => {
    const session3 = await t.token(DEMO_EMAILS.investor);
    const tk = newToken();
    await post('/notifications/fcm-token', { token: tk, platform: 'web' }, session3);
    expect((await post('/auth/logout', {}, session3)).status).toBe(200);
    expect(await prisma().deviceToken.count({ where: { token: tk } })).toBe(0);
  });

  it('answers 422 for a bad token value, 401 without a token', async () => {
    const bad = await del('/notifications/fcm-token', { token: 'x'.repeat(4097) });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.token).toEqual(['The token field must not be greater than 4096 characters.']);
    expect((await del('/notifications/fcm-token', {}, null)).status).toBe(401);
  });
});

describe('GraphQL', () => {
  it('lists, counts, reads and marks notifications; another user’s is NOT_FOUND', async () => {
    const mine = await note(userId);
    const unread = await prisma().notification.count({ where: { userId, readAt: null } });
    const count = await t.gql<{ unreadNotificationCount: number }>('{ unreadNotificationCount }', {}, token);
    expect(count.data!.unreadNotificationCount).toBe(unread);
    const list = await t.gql<{ notifications: { items: Array<{ id: number; type: string; data: unknown }>; pageInfo: { total: number } } }>(
      '{ notifications(perPage: 1, unreadFirst: true) { items { id type data readAt } pageInfo { total } } }',
      {},
      token,
    );
    expect(list.data!.notifications.items[0]).toMatchObject({ id: mine.id, type: 'SYSTEM', data: mine.data });
    expect(list.data!.notifications.pageInfo.total).toBe(await prisma().notification.count({ where: { userId } }));
    const one = await t.gql<{ notification: { id: number } }>('query($id: Int!) { notification(id: $id) { id title } }', { id: mine.id }, token);
    expect(one.data!.notification.id).toBe(mine.id);
    const theirs = await note(otherUserId);
    const denied = await t.gql('query($id: Int!) { notification(id: $id) { id } }', { id: theirs.id }, token);
    expect(denied.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const marked = await t.gql<{ markNotificationRead: { readAt: string } }>(
      'mutation($id: Int!) { markNotificationRead(id: $id) { readAt } }',
      { id: mine.id },
      token,
    );
    expect(marked.data!.markNotificationRead.readAt).not.toBeNull();
    const all = await t.gql<{ markAllNotificationsRead: number }>('mutation { markAllNotificationsRead }', {}, token);
    expect(all.data!.markAllNotificationsRead).toBe(unread - 1);
    expect((await t.gql<{ unreadNotificationCount: number }>('{ unreadNotificationCount }', {}, token)).data!.unreadNotificationCount).toBe(0);
  });

  it('registers and removes device tokens', async () => {
    const tk = newToken();
    const reg = await t.gql<{ registerDeviceToken: { platform: string; created: boolean } }>(
      'mutation($token: String!) { registerDeviceToken(input: { token: $token, platform: WEB }) { platform created } }',
      { token: tk },
      token,
    );
    expect(reg.data!.registerDeviceToken).toEqual({ platform: 'WEB', created: true });
    const empty = await t.gql('mutation { registerDeviceToken(input: { token: "", platform: WEB }) { id } }', {}, token);
    expect(empty.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { token: ['The token field is required.'] } });
    const removed = await t.gql<{ removeDeviceToken: number }>('mutation($token: String) { removeDeviceToken(token: $token) }', { token: tk }, token);
    expect(removed.data!.removeDeviceToken).toBe(1);
    const anon = await t.gql('{ unreadNotificationCount }');
    expect(anon.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('push outbox rows written by notify()', () => {
  /** A fresh device token for the user, registered directly. */
  async function device(owner: number) {
    return prisma().deviceToken.create({ data: { userId: owner, token: newToken(), platform: 'IOS' } });
  }
  const send = (...list: Parameters<typeof notify>[1][]) => prisma().$transaction((tx) => notify(tx, ...list));
  const deliveriesOf = async (title: string) =>
    prisma().pushDelivery.findMany({ where: { notification: { title } }, select: { token: true, status: true, notification: { select: { userId: true } } } });

  it('enqueues one PENDING delivery per device token of each recipient, in bulk', async () => {
    const users = await prisma().user.findMany({ where: { role: 'INVESTOR', deletedAt: null }, take: 4, orderBy: { id: 'asc' } });
    const tokens = new Map<number, string[]>();
    for (const u of users) {
      await prisma().deviceToken.deleteMany({ where: { userId: u.id } });
      await prisma().userSettings.upsert({ where: { userId: u.id }, create: { userId: u.id }, update: { pushEnabled: true, notifyPayouts: true } });
      tokens.set(u.id, [(await device(u.id)).token, (await device(u.id)).token]);
    }
    await send(...users.map((u) => ({ userId: u.id, type: NotificationType.PAYOUT_PAID, title: 'bulk payout', body: 'Paid.' })));
    const rows = await deliveriesOf('bulk payout');
    expect(rows).toHaveLength(users.length * 2);
    expect(rows.every((r) => r.status === PushStatus.PENDING)).toBe(true);
    for (const u of users)
      expect(
        rows
          .filter((r) => r.notification.userId === u.id)
          .map((r) => r.token)
          .sort(),
      ).toEqual(tokens.get(u.id)!.sort());
  });

  it('follows the settings: pushEnabled, the per-type switch, SYSTEM always; no settings row = defaults', async () => {
    const [a, b, c, d] = await prisma().user.findMany({ where: { role: 'INVESTOR', deletedAt: null }, skip: 4, take: 4, orderBy: { id: 'asc' } });
    for (const u of [a, b, c, d]) {
      await prisma().deviceToken.deleteMany({ where: { userId: u.id } });
      await device(u.id);
    }
    await prisma().userSettings.upsert({ where: { userId: a.id }, create: { userId: a.id, pushEnabled: false }, update: { pushEnabled: false } });
    await prisma().userSettings.upsert({
      where: { userId: b.id },
      create: { userId: b.id, notifyDistributions: false },
      update: { pushEnabled: true, notifyDistributions: false, notifyKyc: true },
    });
    await prisma().userSettings.upsert({ where: { userId: c.id }, create: { userId: c.id }, update: { pushEnabled: true, notifyDistributions: true } });
    await prisma().userSettings.deleteMany({ where: { userId: d.id } });
    const types = [NotificationType.DISTRIBUTION_DISTRIBUTED, NotificationType.KYC_REVIEWED, NotificationType.SYSTEM];
    await send(...[a, b, c, d].flatMap((u) => types.map((type) => ({ userId: u.id, type, title: `prefs ${type}`, body: '.' }))));
    const pushed = async (type: NotificationType) => (await deliveriesOf(`prefs ${type}`)).map((r) => r.notification.userId).sort();
    expect(await pushed(NotificationType.DISTRIBUTION_DISTRIBUTED)).toEqual([c.id, d.id].sort());
    expect(await pushed(NotificationType.KYC_REVIEWED)).toEqual([b.id, c.id, d.id].sort());
    expect(await pushed(NotificationType.SYSTEM)).toEqual([b.id, c.id, d.id].sort());
    // Every notification is recorded whatever the push settings.
    expect(await prisma().notification.count({ where: { title: { startsWith: 'prefs ' } } })).toBe(12);
  });
});

describe('a state transition writes the notification and its push in its own transaction', () => {
  const APPROVE = 'mutation($id: Int!) { approveInvestmentRequest(id: $id) { id status } }';

  async function pendingRequest() {
    const unit = await createTestUnit(prisma());
    return prisma().investmentRequest.create({ data: { investorId, unitId: unit.id, amount: '2000.00', ownershipPercentage: '2.000000' } });
  }

  it('approving an investment request as admin notifies the investor and queues the push', async () => {
    await prisma().userSettings.upsert({ where: { userId }, create: { userId }, update: { pushEnabled: true, notifyInvestments: true } });
    const tk = (await prisma().deviceToken.create({ data: { userId, token: newToken(), platform: 'ANDROID' } })).token;
    const request = await pendingRequest();
    const res = await t.gql<{ approveInvestmentRequest: { status: string } }>(APPROVE, { id: request.id }, adminToken);
    expect(res.errors).toBeUndefined();
    const notes = await prisma().notification.findMany({
      where: { userId, type: NotificationType.INVESTMENT_REQUEST_REVIEWED, data: { path: ['investmentRequestId'], equals: request.id } },
      include: { pushes: true },
    });
    expect(notes).toHaveLength(1);
    expect(notes[0].pushes.filter((p) => p.token === tk)).toEqual([expect.objectContaining({ status: PushStatus.PENDING, attempts: 0 })]);
  });

  it('a transition that fails after notify() leaves neither the notification nor the push (nor the transition)', async () => {
    const poison = newToken();
    await prisma().deviceToken.create({ data: { userId, token: poison, platform: 'IOS' } });
    // The outbox insert fails for this token: the transaction must roll back as a whole.
    // DDL: the tables' owner's (the gateway's role may not create triggers).
    await t.sqlAs(
      'owner',
      `CREATE OR REPLACE FUNCTION test_poison_push() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.token = '${poison}' THEN RAISE EXCEPTION 'poisoned push'; END IF; RETURN NEW; END $$`,
      'CREATE TRIGGER test_poison_push BEFORE INSERT ON push_deliveries FOR EACH ROW EXECUTE FUNCTION test_poison_push()',
    );
    try {
      const request = await pendingRequest();
      const [notes, pushes] = await Promise.all([prisma().notification.count(), prisma().pushDelivery.count()]);
      const res = await t.gql(APPROVE, { id: request.id }, adminToken);
      expect(res.errors?.[0].extensions?.code).toBe('INTERNAL_SERVER_ERROR');
      expect(await prisma().notification.count()).toBe(notes);
      expect(await prisma().pushDelivery.count()).toBe(pushes);
      expect((await prisma().investmentRequest.findUniqueOrThrow({ where: { id: request.id } })).status).toBe('PENDING');
      expect(await prisma().holding.count({ where: { unitId: request.unitId } })).toBe(0);
    } finally {
      await t.sqlAs('owner', 'DROP TRIGGER test_poison_push ON push_deliveries');
      await prisma().deviceToken.deleteMany({ where: { token: poison } });
    }
  });

  it('a refused transition (409) writes nothing', async () => {
    const request = await pendingRequest();
    expect((await t.gql(APPROVE, { id: request.id }, adminToken)).errors).toBeUndefined();
    const [notes, pushes] = await Promise.all([prisma().notification.count(), prisma().pushDelivery.count()]);
    const res = await t.gql(APPROVE, { id: request.id }, adminToken);
    expect(res.errors?.[0].extensions?.code).toBe('CONFLICT');
    expect(await prisma().notification.count()).toBe(notes);
    expect(await prisma().pushDelivery.count()).toBe(pushes);
  });
});
