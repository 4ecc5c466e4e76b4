import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

let t: TestGateway;
let investorToken: string;
let otherToken: string;
let adminToken: string;
let analystToken: string;
let investorId: number;
let otherId: number;
let adminUserId: number;
let categoryId: number;
let unitCounter = 0;

beforeAll(async () => {
  t = await startTestGateway();
  const demo = await t.db.prisma.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.investor }, include: { investor: true } });
  investorId = demo.investor!.id;
  const other = await t.db.prisma.investor.findFirstOrThrow({ where: { id: { not: investorId }, investmentRequests: { some: {} } }, include: { user: true } });
  otherId = other.id;
  adminUserId = (await t.db.prisma.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.admin } })).id;
  categoryId = (await t.db.prisma.category.findFirstOrThrow()).id;
  [investorToken, otherToken, adminToken, analystToken] = await Promise.all([
    t.token(DEMO_EMAILS.investor),
    t.token(other.user.email),
    t.token(DEMO_EMAILS.admin),
    t.token(DEMO_EMAILS.analyst),
  ]);
});
afterAll(() => t.close());

const get = (url: string, token = investorToken) => t.http.get(url).set('authorization', `Bearer ${token}`);
const post = (body: object, token = investorToken) => t.http.post('/api/v1/investment-requests').set('authorization', `Bearer ${token}`).send(body);
const prisma = () => t.db.prisma;

/** A unit of our own, so each scenario starts from known numbers. */
async function makeUnit(opts: { totalValue?: string; available?: string; minInvestment?: string; status?: 'AVAILABLE' | 'FUNDED' | 'CLOSED' | 'DRAFT' } = {}) {
  const n = ++unitCounter;
  return prisma().unit.create({
    data: {
      code: `TEST-IR-${n}`,
      name: `Test unit ${n}`,
      description: 'A unit made by the test.',
      location: 'Testville',
      categoryId,
      status: opts.status ?? 'AVAILABLE',
      totalValue: opts.totalValue ?? '100000.00',
      availablePercentage: opts.available ?? '50.000000',
      minInvestment: opts.minInvestment ?? '1000.00',
      expectedReturn: '5.000000',
    },
  });
}

/** A PENDING request written directly (bypassing the availability check on purpose). */
function pendingRequest(unitId: number, pct: string, owner = investorId) {
  return prisma().investmentRequest.create({ data: { investorId: owner, unitId, amount: (Number(pct) * 1000).toFixed(2), ownershipPercentage: pct } });
}

/** Everything a transition may touch, to check that a refused one changed nothing. */
async function snapshot(requestId: number, unitId: number) {
  const [request, unit, holdings, transactions, notifications] = await Promise.all([
    prisma().investmentRequest.findUniqueOrThrow({ where: { id: requestId } }),
    prisma().unit.findUniqueOrThrow({ where: { id: unitId } }),
    prisma().holding.findMany({ where: { unitId }, orderBy: { id: 'asc' } }),
    prisma().transaction.count(),
    prisma().notification.count(),
  ]);
  return { request, unit, holdings, transactions, notifications };
}

const APPROVE = `mutation($id: Int!) { approveInvestmentRequest(id: $id) { id status reviewedAt ownershipPercentage } }`;
const REJECT = `mutation($id: Int!, $reason: String!) { rejectInvestmentRequest(id: $id, reason: $reason) { id status rejectionReason reviewedAt } }`;
const CANCEL = `mutation($id: Int!) { cancelInvestmentRequest(id: $id) { id status } }`;

describe('GET /api/v1/investment-requests', () => {
  it('lists the investor’s own requests, newest first, in the documented shape', async () => {
    const res = await get('/api/v1/investment-requests');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['success', 'data', 'links', 'meta']);
    const expected = await prisma().investmentRequest.findMany({ where: { investorId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: 15 });
    expect(res.body.data.map((r: { id: number }) => r.id)).toEqual(expected.map((r) => r.id));
    expect(res.body.meta.total).toBe(await prisma().investmentRequest.count({ where: { investorId } }));
    expect(Object.keys(res.body.data[0])).toEqual([
      'id',
      'unit_id',
      'investor_id',
      'amount',
      'ownership_percentage',
      'status',
      'rejection_reason',
      'reviewed_at',
      'created_at',
      'updated_at',
      'unit',
    ]);
    expect(Object.keys(res.body.data[0].unit)).toEqual(['id', 'code', 'name']);
    expect(res.body.data[0].amount).toBe(expected[0].amount.toNumber());
    expect(res.body.data[0].ownership_percentage).toBe(expected[0].ownershipPercentage.toNumber());
  });

  it.each(['pending', 'approved', 'rejected', 'cancelled'])('filters by status %s', async (status) => {
    const res = await get(`/api/v1/investment-requests?status=${status}&per_page=100`);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    expect(res.body.data.every((r: { status: string }) => r.status === status)).toBe(true);
    expect(res.body.meta.total).toBe(await prisma().investmentRequest.count({ where: { investorId, status: status.toUpperCase() as never } }));
  });

  it('filters by unit', async () => {
    const any = await prisma().investmentRequest.findFirstOrThrow({ where: { investorId } });
    const res = await get(`/api/v1/investment-requests?unit_id=${any.unitId}`);
    expect(res.body.data.every((r: { unit_id: number }) => r.unit_id === any.unitId)).toBe(true);
    expect(res.body.meta.total).toBe(await prisma().investmentRequest.count({ where: { investorId, unitId: any.unitId } }));
  });

  it('shows staff every request, and one investor’s with investor_id; an investor cannot use investor_id', async () => {
    for (const token of [adminToken, analystToken]) {
      const all = await get('/api/v1/investment-requests', token);
      expect(all.body.meta.total).toBe(await prisma().investmentRequest.count());
      const one = await get(`/api/v1/investment-requests?investor_id=${otherId}&per_page=100`, token);
      expect(one.body.data.every((r: { investor_id: number }) => r.investor_id === otherId)).toBe(true);
      expect(one.body.meta.total).toBe(await prisma().investmentRequest.count({ where: { investorId: otherId } }));
    }
    const theirs = await get('/api/v1/investment-requests?per_page=100', otherToken);
    expect(theirs.body.data.every((r: { investor_id: number }) => r.investor_id === otherId)).toBe(true);
    expect(theirs.body.meta.total).toBe(await prisma().investmentRequest.count({ where: { investorId: otherId } }));
    const sneaky = await get(`/api/v1/investment-requests?investor_id=${otherId}`);
    expect(sneaky.body.data.every((r: { investor_id: number }) => r.investor_id === investorId)).toBe(true);
  });

  it('rejects a bad per_page or status with 422', async () => {
    const res = await get('/api/v1/investment-requests?per_page=0&status=lost');
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['status']);
    const perPage = await get('/api/v1/investment-requests?per_page=0');
    expect(perPage.body.errors).toHaveProperty('per_page');
  });

  it('requires a bearer token', async () => {
    expect((await t.http.get('/api/v1/investment-requests')).status).toBe(401);
  });
});

describe('POST /api/v1/investment-requests', () => {
  it('creates a PENDING request (201) with the ownership the amount buys, rounded down to 6 places', async () => {
    const unit = await makeUnit({ totalValue: '300000.00' });
    const res = await post({ unit_id: unit.id, amount: 2000 });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      unit_id: unit.id,
      investor_id: investorId,
      amount: 2000,
      ownership_percentage: 0.666666,
      status: 'pending',
      rejection_reason: null,
      reviewed_at: null,
      unit: { id: unit.id, code: unit.code, name: unit.name },
    });
    const row = await prisma().investmentRequest.findUniqueOrThrow({ where: { id: res.body.data.id } });
    expect(row.status).toBe('PENDING');
    expect(row.ownershipPercentage.toFixed(6)).toBe('0.666666');
  });

  it('requires the larger of the platform and unit minimums, at most the platform maximum, and 2 decimals', async () => {
    const config = await prisma().appConfig.findUniqueOrThrow({ where: { id: 1 } });
    const strict = await makeUnit({ minInvestment: config.minInvestment.plus(500).toFixed(2), totalValue: '9000000.00' });
    const lax = await makeUnit({ minInvestment: '100.00', totalValue: '9000000.00' });
    const before = await prisma().investmentRequest.count();
    const cases: Array<[object, string]> = [
      [
        { unit_id: strict.id, amount: Number(config.minInvestment.plus(499).toFixed(2)) },
        `The amount field must be at least ${config.minInvestment.plus(500).toString()}.`,
      ],
      [{ unit_id: lax.id, amount: Number(config.minInvestment.minus(1).toFixed(2)) }, `The amount field must be at least ${config.minInvestment.toString()}.`],
      [
        { unit_id: lax.id, amount: Number(config.maxInvestment.plus('0.01').toFixed(2)) },
        `The amount field must not be greater than ${config.maxInvestment.toString()}.`,
      ],
      [{ unit_id: lax.id, amount: 1000.005 }, 'The amount field must have 0-2 decimal places.'],
      [{ unit_id: lax.id, amount: -5 }, `The amount field must be at least ${config.minInvestment.toString()}.`],
    ];
    for (const [body, message] of cases) {
      const res = await post(body);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ success: false, message, errors: { amount: [message] } });
    }
    expect(await prisma().investmentRequest.count()).toBe(before);
  });

  it('answers 422 for missing or mistyped fields and an unknown unit', async () => {
    const empty = await post({});
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual({ unit_id: ['The unit id field is required.'], amount: ['The amount field is required.'] });
    const typed = await post({ unit_id: 'x', amount: 'lots' });
    expect(Object.keys(typed.body.errors).sort()).toEqual(['amount', 'unit_id']);
    const unknown = await post({ unit_id: 99999999, amount: 1000 });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual({ unit_id: ['The selected unit id is invalid.'] });
  });

  it.each(['FUNDED', 'CLOSED', 'DRAFT'] as const)('refuses a %s unit with 409', async (status) => {
    const unit = await makeUnit({ status });
    const res = await post({ unit_id: unit.id, amount: 1000 });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ success: false, message: `This unit is ${status.toLowerCase()} and not open for investment.` });
    expect(await prisma().investmentRequest.count({ where: { unitId: unit.id } })).toBe(0);
  });

  it('counts other pending requests against the unit’s availability (409 beyond it)', async () => {
    const unit = await makeUnit({ available: '5.000000' });
    await pendingRequest(unit.id, '3.000000', otherId);
    const tooMuch = await post({ unit_id: unit.id, amount: 2500 }); // 2.5 % > 5 − 3
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.message).toMatch(/^Insufficient availability: 2\.000000% of this unit is still available/);
    expect(await prisma().investmentRequest.count({ where: { unitId: unit.id } })).toBe(1);
    const fits = await post({ unit_id: unit.id, amount: 2000 });
    expect(fits.status).toBe(201);
  });

  it('never lets concurrent requests together exceed the availability', async () => {
    const unit = await makeUnit({ available: '10.000000' });
    const results = await Promise.all(Array.from({ length: 6 }, () => post({ unit_id: unit.id, amount: 3000 })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 409, 409, 409]);
    const pending = await prisma().investmentRequest.aggregate({ where: { unitId: unit.id, status: 'PENDING' }, _sum: { ownershipPercentage: true } });
    expect(pending._sum.ownershipPercentage!.toFixed(6)).toBe('9.000000');
  });

  it('is for investors only (403 for staff) and needs a token (401)', async () => {
    const unit = await makeUnit();
    for (const token of [adminToken, analystToken]) {
      const res = await post({ unit_id: unit.id, amount: 1000 }, token);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ success: false, message: 'This action is unauthorized.' });
    }
    expect((await t.http.post('/api/v1/investment-requests').send({ unit_id: unit.id, amount: 1000 })).status).toBe(401);
    expect(await prisma().investmentRequest.count({ where: { unitId: unit.id } })).toBe(0);
  });
});

describe('GraphQL investment requests', () => {
  it('creates through createInvestmentRequest and reads through investmentRequest and investmentRequests', async () => {
    const unit = await makeUnit();
    const created = await t.gql<{ createInvestmentRequest: { id: number; status: string; amount: string; ownershipPercentage: string } }>(
      `mutation($input: CreateInvestmentRequestInput!) { createInvestmentRequest(input: $input) { id status amount ownershipPercentage } }`,
      { input: { unitId: unit.id, amount: '1250.5' } },
      investorToken,
    );
    expect(created.data?.createInvestmentRequest).toMatchObject({ status: 'PENDING', amount: '1250.50', ownershipPercentage: '1.2505' });
    const id = created.data!.createInvestmentRequest.id;
    const one = await t.gql<{ investmentRequest: { id: number; unit: { id: number } } }>(
      `query($id: Int!) { investmentRequest(id: $id) { id unit { id } } }`,
      { id },
      investorToken,
    );
    expect(one.data?.investmentRequest).toEqual({ id, unit: { id: unit.id } });
    const list = await t.gql<{ investmentRequests: { items: Array<{ id: number }> } }>(
      `{ investmentRequests(perPage: 1) { items { id } } }`,
      {},
      investorToken,
    );
    expect(list.data?.investmentRequests.items[0].id).toBe(id);
    const staff = await t.gql<{ investmentRequest: { id: number } }>(`query($id: Int!) { investmentRequest(id: $id) { id } }`, { id }, analystToken);
    expect(staff.data?.investmentRequest.id).toBe(id);
  });

  it('answers NOT_FOUND for another investor’s request, BAD_USER_INPUT and UNAUTHENTICATED', async () => {
    const other = await prisma().investmentRequest.findFirstOrThrow({ where: { investorId: otherId } });
    const res = await t.gql(`query($id: Int!) { investmentRequest(id: $id) { id } }`, { id: other.id }, investorToken);
    expect(res.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const unit = await makeUnit();
    const bad = await t.gql(`mutation { createInvestmentRequest(input: { unitId: ${unit.id}, amount: "1" }) { id } }`, {}, investorToken);
    expect(bad.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { amount: [expect.any(String)] } });
    const anon = await t.gql(`{ investmentRequests { items { id } } }`);
    expect(anon.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('investment request state machine', () => {
  it('approve: creates the holding, records the investment, reduces availability and notifies, in one go', async () => {
    const unit = await makeUnit({ available: '40.000000' });
    const request = await pendingRequest(unit.id, '2.500000');
    const userId = (await prisma().investor.findUniqueOrThrow({ where: { id: investorId } })).userId;
    await prisma().userSettings.upsert({ where: { userId }, create: { userId, currency: 'PLN' }, update: { currency: 'PLN' } });
    const res = await t.gql<{ approveInvestmentRequest: { status: string; reviewedAt: string } }>(APPROVE, { id: request.id }, adminToken);
    expect(res.errors).toBeUndefined();
    expect(res.data!.approveInvestmentRequest.status).toBe('APPROVED');
    const row = await prisma().investmentRequest.findUniqueOrThrow({ where: { id: request.id } });
    expect(row).toMatchObject({ status: 'APPROVED', reviewedById: adminUserId });
    expect(row.reviewedAt).not.toBeNull();
    const holding = await prisma().holding.findUniqueOrThrow({ where: { investorId_unitId: { investorId, unitId: unit.id } } });
    expect(holding.ownershipPercentage.toFixed(6)).toBe('2.500000');
    expect(holding.investedAmount.equals(request.amount)).toBe(true);
    const ledger = await prisma().transaction.findFirstOrThrow({ where: { investmentRequestId: request.id } });
    expect(ledger).toMatchObject({ investorId, unitId: unit.id, type: 'INVESTMENT' });
    expect(ledger.amount.equals(request.amount)).toBe(true);
    const after = await prisma().unit.findUniqueOrThrow({ where: { id: unit.id } });
    expect(after.availablePercentage.toFixed(6)).toBe('37.500000');
    expect(after.status).toBe('AVAILABLE');
    const note = await prisma().notification.findFirstOrThrow({ where: { userId }, orderBy: { id: 'desc' } });
    expect(note).toMatchObject({ type: 'INVESTMENT_REQUEST_REVIEWED', data: { investmentRequestId: request.id, unitId: unit.id, status: 'APPROVED' } });
    // The amount in the investor's currency (settings), not a bare number.
    expect(note.body.replace(/\u00a0/g, ' ')).toBe(`Your investment of PLN 2,500.00 in ${unit.name} has been approved.`);
  });

  it('approve: grows an existing holding and marks the unit FUNDED when nothing is left', async () => {
    const unit = await makeUnit({ available: '4.000000' });
    await prisma().holding.create({ data: { investorId, unitId: unit.id, ownershipPercentage: '96.000000', investedAmount: '96000.00' } });
    const request = await pendingRequest(unit.id, '4.000000');
    const res = await t.gql(APPROVE, { id: request.id }, adminToken);
    expect(res.errors).toBeUndefined();
    const holding = await prisma().holding.findUniqueOrThrow({ where: { investorId_unitId: { investorId, unitId: unit.id } } });
    expect(holding.ownershipPercentage.toFixed(6)).toBe('100.000000');
    expect(holding.investedAmount.toFixed(2)).toBe('100000.00');
    const after = await prisma().unit.findUniqueOrThrow({ where: { id: unit.id } });
    expect(after.availablePercentage.toFixed(6)).toBe('0.000000');
    expect(after.status).toBe('FUNDED');
  });

  it('approve: 409 and nothing changed when the request no longer fits the availability', async () => {
    const unit = await makeUnit({ available: '5.000000' });
    const request = await pendingRequest(unit.id, '3.000000');
    await prisma().unit.update({ where: { id: unit.id }, data: { availablePercentage: '2.000000' } });
    const before = await snapshot(request.id, unit.id);
    const res = await t.gql(APPROVE, { id: request.id }, adminToken);
    expect(res.errors?.[0].extensions?.code).toBe('CONFLICT');
    expect(res.errors?.[0].message).toMatch(/^Insufficient availability/);
    expect(await snapshot(request.id, unit.id)).toEqual(before);
  });

  it('reject: needs a reason, stores it and notifies the investor', async () => {
    const unit = await makeUnit();
    const request = await pendingRequest(unit.id, '1.000000', otherId);
    const before = await snapshot(request.id, unit.id);
    const blank = await t.gql(REJECT, { id: request.id, reason: '   ' }, adminToken);
    expect(blank.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { reason: ['The reason field is required.'] } });
    const empty = await t.gql(REJECT, { id: request.id, reason: '' }, adminToken);
    expect(empty.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(await snapshot(request.id, unit.id)).toEqual(before);

    const res = await t.gql<{ rejectInvestmentRequest: { status: string; rejectionReason: string } }>(
      REJECT,
      { id: request.id, reason: 'Source of funds unclear.' },
      adminToken,
    );
    expect(res.data!.rejectInvestmentRequest).toMatchObject({ status: 'REJECTED', rejectionReason: 'Source of funds unclear.' });
    const row = await prisma().investmentRequest.findUniqueOrThrow({ where: { id: request.id } });
    expect(row).toMatchObject({ status: 'REJECTED', reviewedById: adminUserId, rejectionReason: 'Source of funds unclear.' });
    const userId = (await prisma().investor.findUniqueOrThrow({ where: { id: otherId } })).userId;
    const note = await prisma().notification.findFirstOrThrow({ where: { userId }, orderBy: { id: 'desc' } });
    expect(note).toMatchObject({ type: 'INVESTMENT_REQUEST_REVIEWED', data: { investmentRequestId: request.id, status: 'REJECTED' } });
    expect(note.body).toContain('Source of funds unclear.');
    const currency = (await prisma().userSettings.findUnique({ where: { userId } }))?.currency ?? 'USD';
    const amount = new Intl.NumberFormat('en', { style: 'currency', currency }).format(request.amount.toFixed(2) as Intl.StringNumericLiteral);
    expect(note.body).toContain(`Your request to invest ${amount} in ${unit.name} was not approved`);
    expect(await prisma().holding.count({ where: { unitId: unit.id } })).toBe(0);
  });

  it('cancel: the investor withdraws their own pending request, without a notification', async () => {
    const unit = await makeUnit();
    const request = await pendingRequest(unit.id, '1.000000');
    const notes = await prisma().notification.count();
    const res = await t.gql<{ cancelInvestmentRequest: { status: string } }>(CANCEL, { id: request.id }, investorToken);
    expect(res.data!.cancelInvestmentRequest.status).toBe('CANCELLED');
    expect((await prisma().investmentRequest.findUniqueOrThrow({ where: { id: request.id } })).status).toBe('CANCELLED');
    expect(await prisma().notification.count()).toBe(notes);
  });

  it('cancel: another investor’s request is not found, and stays pending', async () => {
    const unit = await makeUnit();
    const request = await pendingRequest(unit.id, '1.000000', otherId);
    const res = await t.gql(CANCEL, { id: request.id }, investorToken);
    expect(res.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await prisma().investmentRequest.findUniqueOrThrow({ where: { id: request.id } })).status).toBe('PENDING');
  });

  describe.each(['APPROVED', 'REJECTED', 'CANCELLED'] as const)('from %s', (status) => {
    it.each([
      ['approve', APPROVE, () => adminToken, {}],
      ['reject', REJECT, () => adminToken, { reason: 'Too late.' }],
      ['cancel', CANCEL, () => investorToken, {}],
    ] as const)('%s is a 409 that changes nothing', async (_name, mutation, token, extra) => {
      const unit = await makeUnit();
      const request = await pendingRequest(unit.id, '1.000000');
      await prisma().investmentRequest.update({ where: { id: request.id }, data: { status } });
      const before = await snapshot(request.id, unit.id);
      const res = await t.gql(mutation, { id: request.id, ...extra }, token());
      expect(res.errors?.[0].extensions?.code).toBe('CONFLICT');
      expect(res.errors?.[0].message).toMatch(new RegExp(`^This investment request is ${status.toLowerCase()} and cannot be`));
      expect(await snapshot(request.id, unit.id)).toEqual(before);
    });
  });

  it('refuses approve and reject to investors and analysts, and cancel to staff', async () => {
    const unit = await makeUnit();
    const request = await pendingRequest(unit.id, '1.000000');
    const before = await snapshot(request.id, unit.id);
    for (const token of [investorToken, analystToken]) {
      expect((await t.gql(APPROVE, { id: request.id }, token)).errors?.[0].extensions?.code).toBe('FORBIDDEN');
      expect((await t.gql(REJECT, { id: request.id, reason: 'No.' }, token)).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    }
    for (const token of [adminToken, analystToken]) {
      expect((await t.gql(CANCEL, { id: request.id }, token)).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    }
    expect((await t.gql(APPROVE, { id: request.id })).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect((await t.gql(APPROVE, { id: 99999999 }, adminToken)).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect(await snapshot(request.id, unit.id)).toEqual(before);
  });

  it('two concurrent approvals that together exceed the availability: exactly one wins', async () => {
    const unit = await makeUnit({ available: '10.000000' });
    const a = await pendingRequest(unit.id, '6.000000');
    const b = await pendingRequest(unit.id, '6.000000', otherId);
    const results = await Promise.all([t.gql(APPROVE, { id: a.id }, adminToken), t.gql(APPROVE, { id: b.id }, adminToken)]);
    const codes = results.map((r) => r.errors?.[0].extensions?.code ?? 'OK').sort();
    expect(codes).toEqual(['CONFLICT', 'OK']);
    const after = await prisma().unit.findUniqueOrThrow({ where: { id: unit.id } });
    expect(after.availablePercentage.toFixed(6)).toBe('4.000000');
    const holdings = await prisma().holding.findMany({ where: { unitId: unit.id } });
    expect(holdings).toHaveLength(1);
    expect(holdings[0].ownershipPercentage.toFixed(6)).toBe('6.000000');
    const statuses = (await prisma().investmentRequest.findMany({ where: { id: { in: [a.id, b.id] } } })).map((r) => r.status).sort();
    expect(statuses).toEqual(['APPROVED', 'PENDING']);
    expect(await prisma().transaction.count({ where: { unitId: unit.id } })).toBe(1);
  });

  it('the same request approved twice at once is approved once', async () => {
    const unit = await makeUnit({ available: '50.000000' });
    const request = await pendingRequest(unit.id, '5.000000');
    const results = await Promise.all([t.gql(APPROVE, { id: request.id }, adminToken), t.gql(APPROVE, { id: request.id }, adminToken)]);
    expect(results.map((r) => r.errors?.[0].extensions?.code ?? 'OK').sort()).toEqual(['CONFLICT', 'OK']);
    expect((await prisma().unit.findUniqueOrThrow({ where: { id: unit.id } })).availablePercentage.toFixed(6)).toBe('45.000000');
    expect(await prisma().transaction.count({ where: { investmentRequestId: request.id } })).toBe(1);
  });
});
