import { Prisma } from '../src/generated/prisma/client';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';
import { WITHDRAWAL_KEYS } from './support/seed-decoders';

let t: TestGateway;
let token: string;
let investorId: number;

beforeAll(async () => {
  t = await startTestGateway();
  token = await t.token(DEMO_EMAILS.investor);
  investorId = (await t.db.prisma.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.investor }, include: { investor: true } })).investor!.id;
});
afterAll(() => t.close());

const get = (url: string, bearer = token) => t.http.get(url).set('authorization', `Bearer ${bearer}`);
const post = (body: object, bearer = token) => t.http.post('/api/v1/withdrawals/requests').set('authorization', `Bearer ${bearer}`).send(body);

/** What is still free to request on a holding: held minus pending requests. */
async function available(unitId: number) {
  const holding = await t.db.prisma.holding.findUniqueOrThrow({ where: { investorId_unitId: { investorId, unitId } } });
  const pending = await t.db.prisma.withdrawalRequest.aggregate({ where: { investorId, unitId, status: 'PENDING' }, _sum: { ownershipPercentage: true } });
  return holding.ownershipPercentage.minus(pending._sum.ownershipPercentage ?? 0);
}

describe('GET /api/v1/withdrawals/requests', () => {
  it('answers data and meta but no links, newest first, own requests only', async () => {
    const res = await get('/api/v1/withdrawals/requests');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['success', 'data', 'meta']);
    expect(Object.keys(res.body.meta)).toEqual(['current_page', 'from', 'last_page', 'links', 'path', 'per_page', 'to', 'total']);
    const expected = await t.db.prisma.withdrawalRequest.findMany({ where: { investorId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: 15 });
    expect(res.body.data.map((w: { id: number }) => w.id)).toEqual(expected.map((w) => w.id));
    expect(Object.keys(res.body.data[0])).toEqual(WITHDRAWAL_KEYS);
    expect(Object.keys(res.body.data[0].unit)).toEqual(['id', 'code', 'name']);
    expect(res.body.data.every((w: { investor_id: number }) => w.investor_id === investorId)).toBe(true);
  });

  it.each(['pending', 'approved', 'completed', 'rejected', 'cancelled'])('filters by status %s', async (status) => {
    const res = await get(`/api/v1/withdrawals/requests?status=${status}`);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    expect(res.body.data.every((w: { status: string }) => w.status === status)).toBe(true);
    expect(res.body.meta.total).toBe(await t.db.prisma.withdrawalRequest.count({ where: { investorId, status: status.toUpperCase() as never } }));
  });

  it('filters by unit and keeps the filter in meta page URLs', async () => {
    const any = await t.db.prisma.withdrawalRequest.findFirstOrThrow({ where: { investorId } });
    const res = await get(`/api/v1/withdrawals/requests?unit_id=${any.unitId}&per_page=1`);
    expect(res.body.data.every((w: { unit_id: number }) => w.unit_id === any.unitId)).toBe(true);
    const pageLinks = res.body.meta.links.filter((l: { url: string | null }) => l.url);
    expect(pageLinks.every((l: { url: string }) => l.url.includes(`unit_id=${any.unitId}&per_page=1&page=`))).toBe(true);
  });

  it('rejects per_page outside 1..100', async () => {
    const res = await get('/api/v1/withdrawals/requests?per_page=0');
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveProperty('per_page');
  });
});

describe('POST /api/v1/withdrawals/requests', () => {
  let unitId: number;
  beforeAll(async () => {
    const holding = await t.db.prisma.holding.findFirstOrThrow({ where: { investorId }, orderBy: { ownershipPercentage: 'desc' } });
    unitId = holding.unitId;
  });

  it('creates a pending request (201) with the invested amount the share stands for', async () => {
    const holding = await t.db.prisma.holding.findUniqueOrThrow({ where: { investorId_unitId: { investorId, unitId } } });
    const res = await post({ unit_id: unitId, ownership_percentage: 0.5, reason: 'Funding a house deposit.' });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toMatchObject({
      unit_id: unitId,
      investor_id: investorId,
      ownership_percentage: 0.5,
      status: 'pending',
      rejection_reason: null,
      reason: 'Funding a house deposit.',
    });
    const expectedInvested = holding.investedAmount.times('0.5').dividedBy(holding.ownershipPercentage).toDecimalPlaces(2, Prisma.Decimal.ROUND_HALF_UP);
    expect(res.body.data.invested_amount).toBe(expectedInvested.toNumber());
    const row = await t.db.prisma.withdrawalRequest.findUniqueOrThrow({ where: { id: res.body.data.id } });
    expect(row.status).toBe('PENDING');
  });

  it('refuses more than the holding minus pending requests with 409, writing nothing', async () => {
    const free = await available(unitId);
    const before = await t.db.prisma.withdrawalRequest.count();
    const res = await post({ unit_id: unitId, ownership_percentage: Number(free.plus('0.000001').toFixed(6)), reason: 'Too much.' });
    expect(res.status).toBe(409);
    expect(res.body.success).toBe(false);
    expect(res.body.message).toMatch(/Insufficient holding/);
    expect(await t.db.prisma.withdrawalRequest.count()).toBe(before);
  });

  it('answers 422 with every field error for bad input, writing nothing', async () => {
    const before = await t.db.prisma.withdrawalRequest.count();
    const res = await post({ unit_id: 'x', ownership_percentage: 'lots' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['ownership_percentage', 'reason', 'unit_id']);
    expect(res.body.message).toBe(`${Object.values(res.body.errors as Record<string, string[]>)[0][0]} (and 2 more errors)`);
    // The input rules first; once they pass, the service's checks, together (docs/api.md "Validation").
    const zero = await post({ unit_id: 999999, ownership_percentage: 0, reason: '   ' });
    expect(zero.status).toBe(422);
    expect(zero.body.errors).toEqual({
      ownership_percentage: ['The ownership percentage field must be greater than 0 and at most 100, with at most 6 decimal places.'],
    });
    const blank = await post({ unit_id: 999999, ownership_percentage: 1, reason: '   ' });
    expect(blank.status).toBe(422);
    expect(Object.keys(blank.body.errors).sort()).toEqual(['reason', 'unit_id']);
    const unknownUnit = await post({ unit_id: 999999, ownership_percentage: 1, reason: 'x' });
    expect(unknownUnit.status).toBe(422);
    expect(unknownUnit.body.errors).toHaveProperty('unit_id');
    expect(await t.db.prisma.withdrawalRequest.count()).toBe(before);
  });

  it('never lets concurrent requests together exceed the holding', async () => {
    const free = await available(unitId);
    // Each asks for 40% of what is free: at most two can succeed.
    const share = free.times('0.4').toDecimalPlaces(6, Prisma.Decimal.ROUND_DOWN).toFixed(6);
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => post({ unit_id: unitId, ownership_percentage: Number(share), reason: `Race ${i}` })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 409, 409, 409, 409]);
    expect((await available(unitId)).gte(0)).toBe(true);
  });

  it('is for investors only: staff get 403', async () => {
    const res = await post({ unit_id: unitId, ownership_percentage: 0.1, reason: 'x' }, await t.token(DEMO_EMAILS.admin));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ success: false, message: 'This action is unauthorized.' });
  });
});

describe('GraphQL withdrawal requests', () => {
  it('creates through createWithdrawalRequest and lists through withdrawalRequests', async () => {
    const holding = await t.db.prisma.holding.findFirstOrThrow({ where: { investorId }, orderBy: { ownershipPercentage: 'desc' } });
    const created = await t.gql<{ createWithdrawalRequest: { id: number; status: string; ownershipPercentage: string } }>(
      `mutation($input: CreateWithdrawalRequestInput!) { createWithdrawalRequest(input: $input) { id status ownershipPercentage } }`,
      { input: { unitId: holding.unitId, ownershipPercentage: '0.01', reason: 'Rebalancing.' } },
      token,
    );
    expect(created.data?.createWithdrawalRequest).toMatchObject({ status: 'PENDING', ownershipPercentage: '0.01' });
    const list = await t.gql<{ withdrawalRequests: { items: Array<{ id: number }> } }>(`{ withdrawalRequests(perPage: 1) { items { id } } }`, {}, token);
    expect(list.data?.withdrawalRequests.items[0].id).toBe(created.data?.createWithdrawalRequest.id);
  });

  it('answers CONFLICT and BAD_USER_INPUT codes', async () => {
    const holding = await t.db.prisma.holding.findFirstOrThrow({ where: { investorId } });
    const tooMuch = await t.gql(
      `mutation { createWithdrawalRequest(input: { unitId: ${holding.unitId}, ownershipPercentage: "100", reason: "All of it" }) { id } }`,
      {},
      token,
    );
    expect(tooMuch.errors?.[0].extensions?.code).toBe('CONFLICT');
    const empty = await t.gql(
      `mutation { createWithdrawalRequest(input: { unitId: ${holding.unitId}, ownershipPercentage: "1", reason: "" }) { id } }`,
      {},
      token,
    );
    expect(empty.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { reason: [expect.any(String)] } });
  });
});
