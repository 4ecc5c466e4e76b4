import { randomUUID } from 'node:crypto';
import { createTestUnit } from './support/fixtures';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

let t: TestGateway;
let investorToken: string;
let otherToken: string;
let investorId: number;

beforeAll(async () => {
  t = await startTestGateway();
  investorId = (await t.db.prisma.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.investor }, include: { investor: true } })).investor!.id;
  const other = await t.db.prisma.investor.findFirstOrThrow({
    where: { id: { not: investorId }, kycDocuments: { some: { status: 'APPROVED' } } },
    include: { user: true },
  });
  [investorToken, otherToken] = await Promise.all([t.token(DEMO_EMAILS.investor), t.token(other.user.email)]);
});
afterAll(() => t.close());
afterEach(() => jest.restoreAllMocks());

const prisma = () => t.db.prisma;

const makeUnit = () => createTestUnit(prisma());

const restPost = (gw: TestGateway, body: object, key: string | null, token = investorToken) => {
  const req = gw.http.post('/api/v1/investment-requests').set('authorization', `Bearer ${token}`);
  if (key !== null) req.set('idempotency-key', key);
  return req.send(body);
};

const CREATE = `mutation($input: CreateInvestmentRequestInput!) { createInvestmentRequest(input: $input) { id amount status } }`;
const gqlPost = (gw: TestGateway, input: object, key: string | null, token = investorToken) => {
  const req = gw.http.post('/graphql').set('content-type', 'application/json').set('authorization', `Bearer ${token}`);
  if (key !== null) req.set('idempotency-key', key);
  return req.send({ query: CREATE, variables: { input } });
};

const requestsOn = (unitId: number) => prisma().investmentRequest.count({ where: { unitId } });

/** Holds every investment request creation at a gate the test opens; resolves `entered` once the first one is inside. */
function gateCreate() {
  let open!: () => void;
  let entered!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const inside = new Promise<void>((resolve) => (entered = resolve));
  const service = t.services.investmentRequests;
  const original = service.create.bind(service);
  const spy = jest.spyOn(service, 'create').mockImplementation(async (...args) => {
    entered();
    await gate;
    return original(...args);
  });
  return { inside, open: () => (open(), spy.mockRestore()) };
}

describe.each([
  ['REST', (gw: TestGateway, unitId: number, amount: number, key: string | null, token?: string) => restPost(gw, { unit_id: unitId, amount }, key, token)],
  ['GraphQL', (gw: TestGateway, unitId: number, amount: number, key: string | null, token?: string) => gqlPost(gw, { unitId, amount }, key, token)],
] as const)('Idempotency-Key on createInvestmentRequest (%s)', (_face, send) => {
  it('creates once for two posts with one key, and replays the first answer byte for byte', async () => {
    const unit = await makeUnit();
    const key = randomUUID();
    const first = await send(t, unit.id, 1500, key);
    const second = await send(t, unit.id, 1500, key);
    expect(first.status).toBe(_face === 'REST' ? 201 : 200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(second.status).toBe(first.status);
    expect(second.text).toBe(first.text);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await requestsOn(unit.id)).toBe(1);
  });

  it('without a key, two posts are two requests (the header is optional)', async () => {
    const unit = await makeUnit();
    await send(t, unit.id, 1500, null);
    await send(t, unit.id, 1500, null);
    expect(await requestsOn(unit.id)).toBe(2);
  });

  it('refuses the same key with a different body (422 on idempotency_key) and writes nothing', async () => {
    const unit = await makeUnit();
    const key = randomUUID();
    await send(t, unit.id, 1500, key);
    const other = await send(t, unit.id, 2500, key);
    expect(other.status).toBe(422);
    if (_face === 'REST') expect(other.body).toEqual({ success: false, message: expect.any(String), errors: { idempotency_key: [expect.any(String)] } });
    else expect(other.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { idempotencyKey: [expect.any(String)] } });
    expect(await requestsOn(unit.id)).toBe(1);
  });

  it.each([
    ['empty', ''],
    ['256 characters', 'x'.repeat(256)],
    ['not ASCII', 'caf\u00e9'],
    ['a control character', 'tab\there'],
  ])('refuses a malformed key (%s) with 422 before doing anything', async (_label, key) => {
    const unit = await makeUnit();
    const res = await send(t, unit.id, 1500, key);
    expect(res.status).toBe(422);
    expect(await requestsOn(unit.id)).toBe(0);
  });

  it('answers 409 to a retry while the first request is still running, then the first completes once', async () => {
    const unit = await makeUnit();
    const key = randomUUID();
    const gate = gateCreate();
    const first = send(t, unit.id, 1500, key).then((r) => r);
    await gate.inside;
    const retry = await send(t, unit.id, 1500, key);
    expect(retry.status).toBe(409);
    if (_face === 'REST') expect(retry.body).toEqual({ success: false, message: 'A request with this idempotency key is still being processed.' });
    else expect(retry.body.errors[0].extensions.code).toBe('CONFLICT');
    gate.open();
    expect((await first).status).toBe(_face === 'REST' ? 201 : 200);
    expect(await requestsOn(unit.id)).toBe(1);
    expect((await send(t, unit.id, 1500, key)).headers['idempotent-replayed']).toBe('true');
  });

  it("scopes keys to the user: another investor's same key is a new request", async () => {
    const unit = await makeUnit();
    const key = randomUUID();
    const mine = await send(t, unit.id, 1500, key);
    const theirs = await send(t, unit.id, 1500, key, otherToken);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.text).not.toBe(mine.text);
    expect(await requestsOn(unit.id)).toBe(2);
  });

  it('treats a key as fresh once its 24 h have passed', async () => {
    const unit = await makeUnit();
    const key = randomUUID();
    await send(t, unit.id, 1500, key);
    // 24 h later: the replay window and the written record's outcome are both past.
    await prisma()
      .$executeRaw`UPDATE idempotency_keys SET expires_at = now() - interval '1 second', committed_at = now() - interval '24 hours 1 second' WHERE state = 'DONE'`;
    const again = await send(t, unit.id, 1500, key);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await requestsOn(unit.id)).toBe(2);
  });

  it('replays through a second gateway instance on the same database', async () => {
    const unit = await makeUnit();
    const key = randomUUID();
    const twin = await t.twin();
    try {
      const first = await send(t, unit.id, 1500, key);
      const second = await send(twin, unit.id, 1500, key, await twin.token(DEMO_EMAILS.investor));
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.text).toBe(first.text);
      expect(await requestsOn(unit.id)).toBe(1);
    } finally {
      await twin.close();
    }
  });

  it('does not keep a failed (5xx) answer: the key is released and a retry runs', async () => {
    const unit = await makeUnit();
    const key = randomUUID();
    jest.spyOn(t.services.investmentRequests, 'create').mockRejectedValueOnce(new Error('boom'));
    const failed = await send(t, unit.id, 1500, key);
    expect(_face === 'REST' ? failed.status : failed.body.errors[0].extensions.code).toBe(_face === 'REST' ? 500 : 'INTERNAL_SERVER_ERROR');
    const retry = await send(t, unit.id, 1500, key);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await requestsOn(unit.id)).toBe(1);
  });
});

describe('Idempotency-Key, other operations', () => {
  it('records a REST request once (not also through the GraphQL plugin)', async () => {
    const unit = await makeUnit();
    const key = randomUUID();
    const before = await prisma().idempotencyKey.count();
    await restPost(t, { unit_id: unit.id, amount: 1500 }, key);
    expect(await prisma().idempotencyKey.count()).toBe(before + 1);
  });

  it('does not store what the key protects in clear: neither the key nor the answer', async () => {
    const unit = await makeUnit();
    const key = `visible-${randomUUID()}`;
    expect((await restPost(t, { unit_id: unit.id, amount: 1500 }, key)).text).toContain(unit.code);
    const rows = await prisma().$queryRaw<{ row: string }[]>`SELECT row_to_json(k)::text AS row FROM idempotency_keys k`;
    const dump = rows.map((r) => r.row).join('\n');
    expect(dump).not.toContain(key);
    expect(dump).not.toContain(unit.code);
  });

  it('replays a guest registration (guest scope) instead of answering that the email is taken', async () => {
    const key = randomUUID();
    const body = { name: 'Idem Potent', email: `idem-${randomUUID()}@example.com`, password: 'Secret123', password_confirmation: 'Secret123' };
    const first = await t.http.post('/api/v1/auth/register').set('idempotency-key', key).send(body);
    const second = await t.http.post('/api/v1/auth/register').set('idempotency-key', key).send(body);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.text).toBe(first.text);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.headers['cache-control']).toBe('no-store'); // a token answer, replayed or not
    expect(await prisma().user.count({ where: { email: body.email } })).toBe(1);
  });

  it('lets exactly one of many simultaneous duplicates through two instances run', async () => {
    const unit = await makeUnit();
    const key = randomUUID();
    const twin = await t.twin();
    try {
      const twinToken = await twin.token(DEMO_EMAILS.investor);
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          i % 2 ? restPost(twin, { unit_id: unit.id, amount: 1500 }, key, twinToken) : restPost(t, { unit_id: unit.id, amount: 1500 }, key),
        ),
      );
      const created = answers.filter((a) => a.status === 201);
      expect(answers.every((a) => a.status === 201 || a.status === 409)).toBe(true);
      expect(new Set(created.map((a) => a.text)).size).toBe(1);
      expect(created.filter((a) => a.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
      expect(await requestsOn(unit.id)).toBe(1);
    } finally {
      await twin.close();
    }
  });

  it('purges expired keys, and keeps live ones and those whose write committed less than 24 h ago', async () => {
    const unit = await makeUnit();
    for (let i = 0; i < 3; i++) await restPost(t, { unit_id: unit.id, amount: 1500 }, randomUUID());
    const [expired, released] = await prisma().idempotencyKey.findMany({ orderBy: { id: 'desc' }, take: 2 });
    const DAY = 24 * 60 * 60 * 1000;
    await prisma().idempotencyKey.update({
      where: { id: expired.id },
      data: { expiresAt: new Date(Date.now() - 60_000), committedAt: new Date(Date.now() - DAY - 60_000) },
    });
    // A lease that ended (a released key) while its write's outcome is an hour old: a retry must still find it.
    await prisma().idempotencyKey.update({
      where: { id: released.id },
      data: { expiresAt: new Date(Date.now() - 60_000), committedAt: new Date(Date.now() - DAY / 24) },
    });
    const live = await prisma().idempotencyKey.count({
      where: { OR: [{ expiresAt: { gt: new Date() } }, { committedAt: { gt: new Date(Date.now() - DAY) } }] },
    });
    await t.services.idempotency.purgeExpired();
    expect(await prisma().idempotencyKey.findUnique({ where: { id: expired.id } })).toBeNull();
    expect(await prisma().idempotencyKey.findUnique({ where: { id: released.id } })).not.toBeNull();
    expect(await prisma().idempotencyKey.count()).toBe(live);
  });

  it('ignores the header, even a malformed one, on operations that are not marked (reads)', async () => {
    const key = randomUUID();
    const a = await t.http.get('/api/v1/auth/me').set('authorization', `Bearer ${investorToken}`).set('idempotency-key', key);
    const b = await t.http.get('/api/v1/auth/me').set('authorization', `Bearer ${investorToken}`).set('idempotency-key', 'caf\u00e9');
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.headers['idempotent-replayed']).toBeUndefined();
  });
});
