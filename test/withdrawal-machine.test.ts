import { Prisma } from '../src/generated/prisma/client';
import type { WithdrawalRequestStatus } from '../src/generated/prisma/enums';
import { WITHDRAWAL_REQUEST } from '../src/services/state-machine';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

let t: TestGateway;
let admin: string;
let analyst: string;
let investor: string;
let adminUserId: number;
let demoInvestorId: number;

beforeAll(async () => {
  t = await startTestGateway();
  [admin, analyst, investor] = await Promise.all([t.token(DEMO_EMAILS.admin), t.token(DEMO_EMAILS.analyst), t.token(DEMO_EMAILS.investor)]);
  adminUserId = (await t.db.prisma.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.admin } })).id;
  demoInvestorId = (await t.db.prisma.investor.findFirstOrThrow({ where: { user: { email: DEMO_EMAILS.investor } } })).id;
});
afterAll(() => t.close());

const FIELDS = 'id status rejectionReason reviewedAt completedAt ownershipPercentage investedAmount';
const MUTATIONS = {
  approve: { to: 'APPROVED', query: `mutation($id: Int!) { approveWithdrawalRequest(id: $id) { ${FIELDS} } }` },
  reject: { to: 'REJECTED', query: `mutation($id: Int!) { rejectWithdrawalRequest(id: $id, reason: "Paused this quarter.") { ${FIELDS} } }` },
  complete: { to: 'COMPLETED', query: `mutation($id: Int!) { completeWithdrawalRequest(id: $id) { ${FIELDS} } }` },
  cancel: { to: 'CANCELLED', query: `mutation($id: Int!) { cancelWithdrawalRequest(id: $id) { ${FIELDS} } }` },
} as const;
type Action = keyof typeof MUTATIONS;

type Row = {
  id: number;
  status: string;
  rejectionReason: string | null;
  reviewedAt: string | null;
  completedAt: string | null;
  ownershipPercentage: string;
  investedAmount: string;
};

async function run(action: Action, id: number, token: string) {
  const res = await t.gql<Record<string, Row>>(MUTATIONS[action].query, { id }, token);
  return {
    row: res.data ? Object.values(res.data)[0] : undefined,
    code: res.errors?.[0].extensions?.code,
    message: res.errors?.[0].message,
    errors: res.errors,
  };
}

/** Everything a withdrawal transition may touch, to prove that a refused one touched nothing. */
async function snapshot(requestId: number) {
  const p = t.db.prisma;
  const request = await p.withdrawalRequest.findUniqueOrThrow({ where: { id: requestId } });
  const [holding, unit, payouts, transactions, notifications] = await Promise.all([
    p.holding.findUnique({ where: { investorId_unitId: { investorId: request.investorId, unitId: request.unitId } } }),
    p.unit.findUniqueOrThrow({ where: { id: request.unitId }, select: { availablePercentage: true, updatedAt: true } }),
    p.payout.findMany({ orderBy: { id: 'asc' } }),
    p.transaction.count(),
    p.notification.count(),
  ]);
  return { request, holding, unit, payouts, transactions, notifications };
}

const userIdOf = async (investorId: number) => (await t.db.prisma.investor.findUniqueOrThrow({ where: { id: investorId } })).userId;

/** A PENDING request written straight into the table (the create rules are tested elsewhere). */
async function pendingRequest(holdingWhere: Prisma.HoldingWhereInput, pct?: Prisma.Decimal) {
  const h = await t.db.prisma.holding.findFirstOrThrow({
    where: { ...holdingWhere, ownershipPercentage: { gt: 0 } },
    orderBy: { id: 'asc' },
  });
  const share = pct ?? h.ownershipPercentage.dividedBy(4).toDecimalPlaces(6, Prisma.Decimal.ROUND_DOWN);
  const invested = h.investedAmount.times(share).dividedBy(h.ownershipPercentage).toDecimalPlaces(2, Prisma.Decimal.ROUND_HALF_UP);
  return t.db.prisma.withdrawalRequest.create({
    data: { investorId: h.investorId, unitId: h.unitId, ownershipPercentage: share, investedAmount: invested, reason: 'Test fixture.' },
  });
}

async function latestValue(unitId: number) {
  const unit = await t.db.prisma.unit.findUniqueOrThrow({ where: { id: unitId }, include: { valuations: { orderBy: { valuedAt: 'desc' }, take: 1 } } });
  return unit.valuations[0]?.value ?? unit.totalValue;
}

describe('approveWithdrawalRequest', () => {
  it('moves the share back to the unit and creates a pending payout at its current value, in one go', async () => {
    const req = await pendingRequest({ investorId: { not: demoInvestorId } });
    const before = await snapshot(req.id);
    const value = await latestValue(req.unitId);

    const { row, errors } = await run('approve', req.id, admin);
    expect(errors).toBeUndefined();
    expect(row).toMatchObject({ id: req.id, status: 'APPROVED', completedAt: null });
    expect(row!.reviewedAt).not.toBeNull();

    const after = await snapshot(req.id);
    expect(after.request).toMatchObject({ status: 'APPROVED', reviewedById: adminUserId });
    expect(after.holding!.ownershipPercentage.equals(before.holding!.ownershipPercentage.minus(req.ownershipPercentage))).toBe(true);
    expect(after.holding!.investedAmount.equals(before.holding!.investedAmount.minus(req.investedAmount))).toBe(true);
    expect(after.unit.availablePercentage.equals(before.unit.availablePercentage.plus(req.ownershipPercentage))).toBe(true);

    const payout = await t.db.prisma.payout.findUniqueOrThrow({ where: { withdrawalRequestId: req.id } });
    const expected = req.ownershipPercentage.times(value).dividedBy(100).toDecimalPlaces(2, Prisma.Decimal.ROUND_HALF_UP);
    expect(payout).toMatchObject({
      source: 'WITHDRAWAL',
      status: 'PENDING',
      investorId: req.investorId,
      unitId: req.unitId,
      reference: `PO-W-${req.id}`,
      paidAt: null,
    });
    expect(payout.amount.equals(expected)).toBe(true);
    expect(after.payouts).toHaveLength(before.payouts.length + 1);

    const ledger = await t.db.prisma.transaction.findMany({ where: { withdrawalRequestId: req.id } });
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ type: 'WITHDRAWAL', payoutId: payout.id, investorId: req.investorId });
    expect(ledger[0].amount.equals(expected)).toBe(true);

    const note = await t.db.prisma.notification.findFirstOrThrow({ where: { userId: await userIdOf(req.investorId) }, orderBy: { id: 'desc' } });
    expect(note).toMatchObject({ type: 'WITHDRAWAL_REQUEST_REVIEWED', data: { withdrawalRequestId: req.id, status: 'APPROVED' } });
  });

  it('deletes the holding when the whole of it is withdrawn', async () => {
    const h = await t.db.prisma.holding.findFirstOrThrow({
      where: { investorId: { not: demoInvestorId }, ownershipPercentage: { gt: 0 } },
      orderBy: { id: 'desc' },
    });
    const req = await t.db.prisma.withdrawalRequest.create({
      data: { investorId: h.investorId, unitId: h.unitId, ownershipPercentage: h.ownershipPercentage, investedAmount: h.investedAmount, reason: 'Everything.' },
    });
    const unitBefore = await t.db.prisma.unit.findUniqueOrThrow({ where: { id: h.unitId } });
    expect((await run('approve', req.id, admin)).row?.status).toBe('APPROVED');
    expect(await t.db.prisma.holding.findUnique({ where: { id: h.id } })).toBeNull();
    const unitAfter = await t.db.prisma.unit.findUniqueOrThrow({ where: { id: h.unitId } });
    expect(unitAfter.availablePercentage.equals(unitBefore.availablePercentage.plus(h.ownershipPercentage))).toBe(true);
  });

  it('opens a sold-out (FUNDED) unit for investment again', async () => {
    const req = await pendingRequest({ unit: { status: 'FUNDED' } });
    expect((await run('approve', req.id, admin)).row?.status).toBe('APPROVED');
    const unit = await t.db.prisma.unit.findUniqueOrThrow({ where: { id: req.unitId } });
    expect(unit.status).toBe('AVAILABLE');
    expect(unit.availablePercentage.gt(0)).toBe(true);
  });

  it('answers 409 and changes nothing when the holding no longer covers the request', async () => {
    const h = await t.db.prisma.holding.findFirstOrThrow({
      where: { investorId: { not: demoInvestorId }, ownershipPercentage: { gt: 0 } },
      orderBy: { id: 'asc' },
    });
    const req = await t.db.prisma.withdrawalRequest.create({
      data: {
        investorId: h.investorId,
        unitId: h.unitId,
        ownershipPercentage: h.ownershipPercentage.plus('0.000001'),
        investedAmount: h.investedAmount,
        reason: 'More than held.',
      },
    });
    const before = await snapshot(req.id);
    const res = await run('approve', req.id, admin);
    expect(res.code).toBe('CONFLICT');
    expect(res.message).toMatch(/no longer covers/);
    expect(await snapshot(req.id)).toEqual(before);
  });

  it('lets only one of two concurrent approvals through', async () => {
    const req = await pendingRequest({ investorId: { not: demoInvestorId } });
    const results = await Promise.all([run('approve', req.id, admin), run('approve', req.id, admin)]);
    expect(results.map((r) => r.code ?? 'OK').sort()).toEqual(['CONFLICT', 'OK']);
    expect(await t.db.prisma.payout.count({ where: { withdrawalRequestId: req.id } })).toBe(1);
    expect(await t.db.prisma.transaction.count({ where: { withdrawalRequestId: req.id } })).toBe(1);
  });

  it('runs alongside an investment approval on the same holding without deadlock or lost update', async () => {
    const h = await t.db.prisma.holding.findFirstOrThrow({
      where: { investorId: { not: demoInvestorId }, ownershipPercentage: { gt: 1 }, unit: { status: 'AVAILABLE', availablePercentage: { gt: 1 } } },
      include: { unit: true },
    });
    const buy = await t.db.prisma.investmentRequest.create({
      data: { investorId: h.investorId, unitId: h.unitId, ownershipPercentage: '0.5', amount: h.unit.totalValue.times('0.005').toFixed(2) },
    });
    const sell = await pendingRequest({ id: h.id }, new Prisma.Decimal('0.25'));
    const [bought, sold] = await Promise.all([
      t.gql(`mutation($id: Int!) { approveInvestmentRequest(id: $id) { status } }`, { id: buy.id }, admin),
      run('approve', sell.id, admin),
    ]);
    expect(bought.errors).toBeUndefined();
    expect(sold.errors).toBeUndefined();
    const holding = await t.db.prisma.holding.findUniqueOrThrow({ where: { id: h.id } });
    expect(holding.ownershipPercentage.equals(h.ownershipPercentage.plus('0.5').minus('0.25'))).toBe(true);
    const unit = await t.db.prisma.unit.findUniqueOrThrow({ where: { id: h.unitId } });
    expect(unit.availablePercentage.equals(h.unit.availablePercentage.minus('0.5').plus('0.25'))).toBe(true);
  });
});

describe('rejectWithdrawalRequest', () => {
  it('records the reason and the reviewer, notifies the investor and moves nothing else', async () => {
    const req = await pendingRequest({ investorId: { not: demoInvestorId } });
    const before = await snapshot(req.id);
    const { row } = await run('reject', req.id, admin);
    expect(row).toMatchObject({ status: 'REJECTED', rejectionReason: 'Paused this quarter.' });
    const after = await snapshot(req.id);
    expect(after.request).toMatchObject({ status: 'REJECTED', reviewedById: adminUserId, rejectionReason: 'Paused this quarter.' });
    expect(after.holding).toEqual(before.holding);
    expect(after.unit).toEqual(before.unit);
    expect(after.payouts).toEqual(before.payouts);
    expect(after.transactions).toBe(before.transactions);
    const note = await t.db.prisma.notification.findFirstOrThrow({ where: { userId: await userIdOf(req.investorId) }, orderBy: { id: 'desc' } });
    expect(note).toMatchObject({ type: 'WITHDRAWAL_REQUEST_REVIEWED', data: { withdrawalRequestId: req.id, status: 'REJECTED' } });
  });

  it.each(['', '   '])('requires a reason (%p): BAD_USER_INPUT, nothing changed', async (reason) => {
    const req = await pendingRequest({ investorId: { not: demoInvestorId } });
    const before = await snapshot(req.id);
    const res = await t.gql(
      `mutation($id: Int!, $reason: String!) { rejectWithdrawalRequest(id: $id, reason: $reason) { id } }`,
      { id: req.id, reason },
      admin,
    );
    expect(res.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { reason: ['The reason field is required.'] } });
    expect(await snapshot(req.id)).toEqual(before);
  });
});

describe('completeWithdrawalRequest', () => {
  it('completes an approved request and pays its payout (ledger row and notifications)', async () => {
    const req = await pendingRequest({ investorId: { not: demoInvestorId } });
    await run('approve', req.id, admin);
    const payoutBefore = await t.db.prisma.payout.findUniqueOrThrow({ where: { withdrawalRequestId: req.id } });
    const { row } = await run('complete', req.id, admin);
    expect(row?.status).toBe('COMPLETED');
    expect(row?.completedAt).not.toBeNull();
    const payout = await t.db.prisma.payout.findUniqueOrThrow({ where: { withdrawalRequestId: req.id } });
    expect(payout.status).toBe('PAID');
    expect(payout.paidAt).not.toBeNull();
    const paid = await t.db.prisma.transaction.findMany({ where: { payoutId: payout.id, type: 'PAYOUT' } });
    expect(paid).toHaveLength(1);
    expect(paid[0].amount.equals(payoutBefore.amount)).toBe(true);
    const notes = await t.db.prisma.notification.findMany({ where: { userId: await userIdOf(req.investorId) }, orderBy: { id: 'desc' }, take: 2 });
    expect(notes.map((n) => n.type).sort()).toEqual(['PAYOUT_PAID', 'WITHDRAWAL_COMPLETED']);
  });

  it('completes a request whose payout was already marked paid without paying it twice', async () => {
    const req = await pendingRequest({ investorId: { not: demoInvestorId } });
    await run('approve', req.id, admin);
    const payout = await t.db.prisma.payout.findUniqueOrThrow({ where: { withdrawalRequestId: req.id } });
    const paid = await t.gql(`mutation($id: Int!) { markPayoutPaid(id: $id) { id } }`, { id: payout.id }, admin);
    expect(paid.errors).toBeUndefined();
    expect((await run('complete', req.id, admin)).row?.status).toBe('COMPLETED');
    expect(await t.db.prisma.transaction.count({ where: { payoutId: payout.id, type: 'PAYOUT' } })).toBe(1);
  });
});

describe('cancelWithdrawalRequest', () => {
  it('lets the investor cancel their own pending request, touching nothing else', async () => {
    const req = await pendingRequest({ investorId: demoInvestorId });
    const before = await snapshot(req.id);
    const { row } = await run('cancel', req.id, investor);
    expect(row?.status).toBe('CANCELLED');
    const after = await snapshot(req.id);
    expect(after.holding).toEqual(before.holding);
    expect(after.payouts).toEqual(before.payouts);
    expect(after.notifications).toBe(before.notifications);
  });

  it('answers NOT_FOUND for another investor’s request and a missing one', async () => {
    const other = await pendingRequest({ investorId: { not: demoInvestorId } });
    const before = await snapshot(other.id);
    expect((await run('cancel', other.id, investor)).code).toBe('NOT_FOUND');
    expect((await run('cancel', 99999999, investor)).code).toBe('NOT_FOUND');
    expect(await snapshot(other.id)).toEqual(before);
  });
});

describe('the withdrawal request machine', () => {
  const statuses = Object.keys(WITHDRAWAL_REQUEST.next) as WithdrawalRequestStatus[];
  const illegal = (Object.keys(MUTATIONS) as Action[]).flatMap((action) =>
    statuses.filter((from) => !(WITHDRAWAL_REQUEST.next[from] as readonly string[]).includes(MUTATIONS[action].to)).map((from) => [action, from] as const),
  );

  it.each(illegal)('refuses %s from %s with 409 and changes nothing', async (action, from) => {
    // The demo investor has requests in every status, so `cancel` can be tried as their owner.
    const req = await t.db.prisma.withdrawalRequest.findFirstOrThrow({ where: { investorId: demoInvestorId, status: from } });
    const before = await snapshot(req.id);
    const res = await run(action, req.id, action === 'cancel' ? investor : admin);
    expect(res.code).toBe('CONFLICT');
    expect(res.message).toBe(`This withdrawal request is ${from.toLowerCase()} and cannot be ${MUTATIONS[action].to.toLowerCase()}.`);
    expect(await snapshot(req.id)).toEqual(before);
  });

  it('answers NOT_FOUND for a missing request', async () => {
    for (const action of ['approve', 'reject', 'complete'] as const) expect((await run(action, 99999999, admin)).code).toBe('NOT_FOUND');
  });
});

describe('who may drive the machine', () => {
  it.each(['approve', 'reject', 'complete'] as const)('%s is for admins: investors and analysts get FORBIDDEN, guests UNAUTHENTICATED', async (action) => {
    const req = await pendingRequest({ investorId: demoInvestorId });
    const before = await snapshot(req.id);
    expect((await run(action, req.id, investor)).code).toBe('FORBIDDEN');
    expect((await run(action, req.id, analyst)).code).toBe('FORBIDDEN');
    expect((await t.gql(MUTATIONS[action].query, { id: req.id })).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect(await snapshot(req.id)).toEqual(before);
  });

  it('cancel is for the investor: staff get FORBIDDEN', async () => {
    const req = await pendingRequest({ investorId: demoInvestorId });
    expect((await run('cancel', req.id, admin)).code).toBe('FORBIDDEN');
    expect((await run('cancel', req.id, analyst)).code).toBe('FORBIDDEN');
    expect((await t.db.prisma.withdrawalRequest.findUniqueOrThrow({ where: { id: req.id } })).status).toBe('PENDING');
  });
});
