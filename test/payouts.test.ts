import { payPayout } from '../src/services/payout.service';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

let t: TestGateway;
let investorToken: string;
let adminToken: string;
let analystToken: string;
let investorId: number;
let investorUserId: number;
let otherId: number;
let counter = 0;

beforeAll(async () => {
  t = await startTestGateway();
  [investorToken, adminToken, analystToken] = await Promise.all([t.token(DEMO_EMAILS.investor), t.token(DEMO_EMAILS.admin), t.token(DEMO_EMAILS.analyst)]);
  const demo = await t.db.prisma.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.investor }, include: { investor: true } });
  investorId = demo.investor!.id;
  investorUserId = demo.id;
  otherId = (await t.db.prisma.investor.findFirstOrThrow({ where: { id: { not: investorId }, payouts: { some: {} } } })).id;
});
afterAll(() => t.close());

const get = (url: string, token = investorToken) => t.http.get(url).set('authorization', `Bearer ${token}`);
const prisma = () => t.db.prisma;

/** A payout of the demo investor's in a given state, for the transition tests. */
async function makePayout(status: 'PENDING' | 'PAID' | 'FAILED' = 'PENDING') {
  const holding = await prisma().holding.findFirstOrThrow({ where: { investorId } });
  return prisma().payout.create({
    data: {
      investorId,
      unitId: holding.unitId,
      source: 'WITHDRAWAL',
      amount: '1234.56',
      status,
      reference: `PO-TEST-${++counter}`,
      paidAt: status === 'PAID' ? new Date('2026-01-01T00:00:00Z') : null,
    },
  });
}

/** Everything a transition may touch. */
async function snapshot(payoutId: number) {
  const [payout, transactions, notifications] = await Promise.all([
    prisma().payout.findUniqueOrThrow({ where: { id: payoutId } }),
    prisma().transaction.count(),
    prisma().notification.count(),
  ]);
  return { payout, transactions, notifications };
}

const PAID = `mutation($id: Int!) { markPayoutPaid(id: $id) { id status paidAt } }`;
const FAILED = `mutation($id: Int!) { markPayoutFailed(id: $id) { id status paidAt } }`;

describe('GET /api/v1/payouts', () => {
  it('lists the investor’s own payouts, newest first, in the documented shape', async () => {
    const res = await get('/api/v1/payouts');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['success', 'data', 'links', 'meta']);
    const expected = await prisma().payout.findMany({
      where: { investorId },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: 15,
      include: { unit: true },
    });
    expect(res.body.data.map((p: { id: number }) => p.id)).toEqual(expected.map((p) => p.id));
    expect(res.body.meta.total).toBe(await prisma().payout.count({ where: { investorId } }));
    expect(Object.keys(res.body.data[0])).toEqual([
      'id',
      'investor_id',
      'unit',
      'source',
      'distribution_id',
      'withdrawal_request_id',
      'amount',
      'status',
      'reference',
      'paid_at',
      'created_at',
    ]);
    expect(res.body.data[0]).toMatchObject({
      id: expected[0].id,
      unit: { id: expected[0].unit.id, code: expected[0].unit.code, name: expected[0].unit.name },
      source: expected[0].source.toLowerCase(),
      amount: expected[0].amount.toNumber(),
      status: expected[0].status.toLowerCase(),
      reference: expected[0].reference,
    });
  });

  it.each([
    ['status=pending', { status: 'PENDING' }],
    ['status=paid', { status: 'PAID' }],
    ['source=distribution', { source: 'DISTRIBUTION' }],
    ['source=withdrawal', { source: 'WITHDRAWAL' }],
  ] as const)('filters by %s', async (query, where) => {
    const res = await get(`/api/v1/payouts?${query}&per_page=100`);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    const [key, value] = Object.entries(where)[0];
    expect(res.body.data.every((p: Record<string, string>) => p[key] === value.toLowerCase())).toBe(true);
    expect(res.body.meta.total).toBe(await prisma().payout.count({ where: { investorId, ...where } }));
  });

  it('filters by unit', async () => {
    const any = await prisma().payout.findFirstOrThrow({ where: { investorId } });
    const res = await get(`/api/v1/payouts?unit_id=${any.unitId}`);
    expect(res.body.data.every((p: { unit: { id: number } }) => p.unit.id === any.unitId)).toBe(true);
    expect(res.body.meta.total).toBe(await prisma().payout.count({ where: { investorId, unitId: any.unitId } }));
  });

  it('shows staff every payout, filterable by investor_id', async () => {
    for (const token of [adminToken, analystToken]) {
      const all = await get('/api/v1/payouts', token);
      expect(all.body.meta.total).toBe(await prisma().payout.count());
      const one = await get(`/api/v1/payouts?investor_id=${otherId}`, token);
      expect(one.body.meta.total).toBe(await prisma().payout.count({ where: { investorId: otherId } }));
    }
  });

  it('rejects bad filters with 422 and needs a token', async () => {
    const res = await get('/api/v1/payouts?status=lost&source=gift&unit_id=x');
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['source', 'status', 'unit_id']);
    expect((await get('/api/v1/payouts?per_page=0')).body.errors).toHaveProperty('per_page');
    expect((await t.http.get('/api/v1/payouts')).status).toBe(401);
  });
});

describe('GET /api/v1/payouts/{id}', () => {
  it('answers one of the investor’s own payouts', async () => {
    const own = await prisma().payout.findFirstOrThrow({ where: { investorId, source: 'DISTRIBUTION' } });
    const res = await get(`/api/v1/payouts/${own.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['success', 'data']);
    expect(res.body.data).toMatchObject({
      id: own.id,
      distribution_id: own.distributionId,
      withdrawal_request_id: null,
      paid_at: own.paidAt!.toISOString().slice(0, 19) + '+00:00',
    });
  });

  it('answers 404 for another investor’s payout and for missing or non-numeric ids', async () => {
    const other = await prisma().payout.findFirstOrThrow({ where: { investorId: otherId } });
    for (const id of [other.id, 99999999, '-1']) {
      const res = await get(`/api/v1/payouts/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, message: 'Resource not found.' });
    }
  });

  it('lets staff read any payout, and needs a token', async () => {
    const other = await prisma().payout.findFirstOrThrow({ where: { investorId: otherId } });
    expect((await get(`/api/v1/payouts/${other.id}`, adminToken)).body.data.id).toBe(other.id);
    expect((await t.http.get(`/api/v1/payouts/${other.id}`)).status).toBe(401);
  });
});

describe('GraphQL payouts', () => {
  it('serves payouts and payout, NOT_FOUND for someone else’s', async () => {
    const list = await t.gql<{ payouts: { items: Array<{ id: number; amount: string; status: string }>; pageInfo: { total: number } } }>(
      `{ payouts(perPage: 3, filter: { status: PAID }) { items { id amount status } pageInfo { total } } }`,
      {},
      investorToken,
    );
    expect(list.data!.payouts.pageInfo.total).toBe(await prisma().payout.count({ where: { investorId, status: 'PAID' } }));
    expect(list.data!.payouts.items[0].amount).toMatch(/^\d+\.\d{2}$/);
    const other = await prisma().payout.findFirstOrThrow({ where: { investorId: otherId } });
    expect((await t.gql(`query($id: Int!) { payout(id: $id) { id } }`, { id: other.id }, investorToken)).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await t.gql(`{ payouts { items { id } } }`)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('payout state machine', () => {
  it('PENDING → PAID: paid_at set, a PAYOUT ledger entry and a PAYOUT_PAID notification', async () => {
    const payout = await makePayout();
    const res = await t.gql<{ markPayoutPaid: { status: string; paidAt: string } }>(PAID, { id: payout.id }, adminToken);
    expect(res.errors).toBeUndefined();
    expect(res.data!.markPayoutPaid.status).toBe('PAID');
    const row = await prisma().payout.findUniqueOrThrow({ where: { id: payout.id } });
    expect(row.status).toBe('PAID');
    expect(row.paidAt!.toISOString()).toBe(res.data!.markPayoutPaid.paidAt);
    const ledger = await prisma().transaction.findFirstOrThrow({ where: { payoutId: payout.id } });
    expect(ledger).toMatchObject({ investorId, unitId: payout.unitId, type: 'PAYOUT' });
    expect(ledger.amount.equals(payout.amount)).toBe(true);
    expect(ledger.occurredAt.getTime()).toBe(row.paidAt!.getTime());
    const note = await prisma().notification.findFirstOrThrow({ where: { userId: investorUserId }, orderBy: { id: 'desc' } });
    expect(note).toMatchObject({ type: 'PAYOUT_PAID', data: { payoutId: payout.id, reference: payout.reference } });
  });

  it('PENDING → FAILED tells the investor; FAILED → PAID then pays it', async () => {
    const payout = await makePayout();
    const failed = await t.gql<{ markPayoutFailed: { status: string; paidAt: null } }>(FAILED, { id: payout.id }, adminToken);
    expect(failed.data!.markPayoutFailed).toMatchObject({ status: 'FAILED', paidAt: null });
    expect(await prisma().transaction.count({ where: { payoutId: payout.id } })).toBe(0);
    const note = await prisma().notification.findFirstOrThrow({ where: { userId: investorUserId }, orderBy: { id: 'desc' } });
    expect(note).toMatchObject({ type: 'SYSTEM', title: 'Payout failed', data: { payoutId: payout.id } });
    const paid = await t.gql<{ markPayoutPaid: { status: string } }>(PAID, { id: payout.id }, adminToken);
    expect(paid.data!.markPayoutPaid.status).toBe('PAID');
    expect(await prisma().transaction.count({ where: { payoutId: payout.id, type: 'PAYOUT' } })).toBe(1);
  });

  it.each([
    ['PAID', 'markPayoutPaid', PAID],
    ['PAID', 'markPayoutFailed', FAILED],
    ['FAILED', 'markPayoutFailed', FAILED],
  ] as const)('from %s, %s is a 409 that changes nothing', async (status, _name, mutation) => {
    const payout = await makePayout(status);
    const before = await snapshot(payout.id);
    const res = await t.gql(mutation, { id: payout.id }, adminToken);
    expect(res.errors?.[0].extensions?.code).toBe('CONFLICT');
    expect(res.errors?.[0].message).toMatch(new RegExp(`^This payout is ${status.toLowerCase()} and cannot be`));
    expect(await snapshot(payout.id)).toEqual(before);
  });

  it('is admin-only: investors and analysts are refused, a missing payout is not found', async () => {
    const payout = await makePayout();
    const before = await snapshot(payout.id);
    for (const token of [investorToken, analystToken]) {
      for (const mutation of [PAID, FAILED]) expect((await t.gql(mutation, { id: payout.id }, token)).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    }
    expect((await t.gql(PAID, { id: payout.id })).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect((await t.gql(PAID, { id: 99999999 }, adminToken)).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect(await snapshot(payout.id)).toEqual(before);
  });

  it('pays once when paid twice at once', async () => {
    const payout = await makePayout();
    const results = await Promise.all([t.gql(PAID, { id: payout.id }, adminToken), t.gql(PAID, { id: payout.id }, adminToken)]);
    expect(results.map((r) => r.errors?.[0].extensions?.code ?? 'OK').sort()).toEqual(['CONFLICT', 'OK']);
    expect(await prisma().transaction.count({ where: { payoutId: payout.id } })).toBe(1);
  });

  it('payPayout joins the caller’s transaction: a later failure there undoes it', async () => {
    const payout = await makePayout();
    const before = await snapshot(payout.id);
    await expect(
      prisma().$transaction(async (tx) => {
        await payPayout(tx, payout.id);
        throw new Error('the caller changed its mind');
      }),
    ).rejects.toThrow('the caller changed its mind');
    expect(await snapshot(payout.id)).toEqual(before);
    const paid = await prisma().$transaction((tx) => payPayout(tx, payout.id));
    expect(paid).toMatchObject({ id: payout.id, status: 'PAID' });
  });
});
