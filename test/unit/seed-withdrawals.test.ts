import { PayoutStatus, TransactionType, UnitStatus, WithdrawalRequestStatus as W } from '../../src/generated/prisma/enums';
import { Decimal, sum } from '../../src/domain/money';
import { withdrawalPayoutAmount } from '../../src/domain/money-rules';
import { buildPlan } from '../../src/db/seed';
import {
  approveWithdrawal,
  pctAt,
  recordWithdrawals,
  scheduleWithdrawals,
  sizeWithdrawals,
  valueAt,
  wantedWithdrawals,
  withdrawalPayoutRows,
  withdrawalRequestRow,
  withdrawalShare,
  withdrawalWindow,
  type WithdrawalPlan,
} from '../../src/db/seed/holdings';
import { Ids, newPlanner, noRows, type PHolding, type Plan } from '../../src/db/seed/plan';
import { fakerStreams, type RandomStream } from '../../src/db/seed/random';
import { DAY, HORIZON, HOUR, SHORT_TIMELINE } from '../../src/db/seed/time';
import { TEST_SEED } from '../support/template';

const STATUSES = [W.COMPLETED, W.PENDING, W.APPROVED, W.REJECTED, W.CANCELLED];

let random: RandomStream;
/** A plan of the tests' size: the steps below mutate holdings, so each test that runs one gets its own. */
const freshPlan = () => buildPlan(random, TEST_SEED.seed, TEST_SEED.investors, SHORT_TIMELINE, new Ids(noRows()));
const demoOf = (plan: Plan) => plan.investors.find((i) => i.isDemo)!;
const holdingOf = (plan: Plan, investorId: unknown, unitId: unknown) => plan.holdings.find((h) => h.investor.id === investorId && h.unit.id === unitId)!;

beforeAll(async () => {
  random = await fakerStreams();
});

describe('planWithdrawals, through the whole plan', () => {
  let plan: Plan;
  beforeAll(() => {
    plan = freshPlan();
  });

  it('never withdraws more share or invested amount than the holding then held', () => {
    let withdrawals = 0;
    for (const h of plan.holdings) {
      let pct = new Decimal(0);
      let invested = new Decimal(0);
      for (const e of [...h.events].sort((a, b) => a.at - b.at)) {
        pct = pct.plus(e.pct);
        invested = invested.plus(e.amount);
        expect(pct.isNegative() || invested.isNegative()).toBe(false);
        if (e.pct.isNegative()) withdrawals++;
      }
    }
    expect(withdrawals).toBe(plan.withdrawalRequests.filter((r) => r.status === W.APPROVED || r.status === W.COMPLETED).length);
    expect(withdrawals).toBeGreaterThan(0);
  });

  it("leaves part of each final holding after the holding's pending requests together", () => {
    const pending = plan.withdrawalRequests.filter((r) => r.status === W.PENDING);
    expect(pending.length).toBeGreaterThan(0);
    for (const h of plan.holdings) {
      const requested = sum(pending.filter((r) => holdingOf(plan, r.investorId, r.unitId) === h).map((r) => r.ownershipPercentage as string));
      expect(requested.lessThan(h.pct) || requested.isZero()).toBe(true);
    }
  });

  it("has every status, each among the demo investor's requests", () => {
    expect(new Set(plan.withdrawalRequests.map((r) => r.status))).toEqual(new Set(STATUSES));
    const demo = demoOf(plan);
    expect(new Set(plan.withdrawalRequests.filter((r) => r.investorId === demo.id).map((r) => r.status))).toEqual(new Set(STATUSES));
  });

  it('numbers the requests in creation order from the first id', () => {
    const rows = plan.withdrawalRequests;
    expect(rows.map((r) => r.id)).toEqual(rows.map((_, i) => i + 1));
    const created = rows.map((r) => (r.createdAt as Date).getTime());
    expect(created).toEqual([...created].sort((a, b) => a - b));
  });

  it('owes each approval a payout at the valuation of its review, paid when completed, with its ledger rows', () => {
    const settled = plan.withdrawalRequests.filter((r) => r.status === W.APPROVED || r.status === W.COMPLETED);
    expect(plan.withdrawalPayouts.map((p) => p.withdrawalRequestId).sort()).toEqual(settled.map((r) => r.id).sort());
    for (const r of settled) {
      const payout = plan.withdrawalPayouts.find((p) => p.withdrawalRequestId === r.id)!;
      const unit = plan.units.find((u) => u.id === r.unitId)!;
      expect(payout.amount).toBe(withdrawalPayoutAmount(r.ownershipPercentage as string, valueAt(unit, (r.reviewedAt as Date).getTime())).toFixed(2));
      expect(payout.status).toBe(r.status === W.COMPLETED ? PayoutStatus.PAID : PayoutStatus.PENDING);
      const ledger = plan.ledger.filter((t) => t.payoutId === payout.id);
      expect(ledger.map((t) => t.type)).toEqual(r.status === W.COMPLETED ? [TransactionType.WITHDRAWAL, TransactionType.PAYOUT] : [TransactionType.WITHDRAWAL]);
      expect(ledger.every((t) => t.amount === payout.amount && t.withdrawalRequestId === r.id)).toBe(true);
    }
  });
});

describe('withdrawalWindow', () => {
  const lo = HORIZON - 400 * DAY;

  it('opens no earlier than the holding allows and closes before HORIZON, a pending or approved one late', () => {
    for (const status of STATUSES) {
      const [from, to] = withdrawalWindow(status, lo);
      expect(from).toBeGreaterThanOrEqual(lo);
      expect(to).toBeLessThan(HORIZON);
      expect(from).toBeLessThan(to);
    }
    expect(withdrawalWindow(W.PENDING, lo)[0]).toBe(HORIZON - 25 * DAY);
    expect(withdrawalWindow(W.APPROVED, lo)[0]).toBe(HORIZON - 30 * DAY);
  });

  it('leaves a completed one time to be reviewed and paid, and has no room for one on a holding too recent', () => {
    expect(withdrawalWindow(W.COMPLETED, lo)[1]).toBe(HORIZON - 20 * DAY);
    const [from, to] = withdrawalWindow(W.COMPLETED, HORIZON - 10 * DAY);
    expect(from).toBeGreaterThanOrEqual(to);
  });
});

describe('wantedWithdrawals', () => {
  it("gives the demo investor's holdings two requests each, every status twice, and others one or two, none settled on a FUNDED unit", () => {
    const plan = freshPlan();
    const demo = demoOf(plan);
    const wanted = wantedWithdrawals(random(1), demo, plan.holdings);
    const demoStatuses = demo.holdings.flatMap((h) => wanted.get(h)!);
    expect(demo.holdings.every((h) => wanted.get(h)!.length === 2)).toBe(true);
    for (const s of STATUSES) expect(demoStatuses.filter((x) => x === s)).toHaveLength(2);
    const others = [...wanted].filter(([h]) => !h.investor.isDemo);
    expect(others.length).toBeGreaterThan(0);
    for (const [h, list] of others) {
      expect([1, 2]).toContain(list.length);
      if (h.unit.status === UnitStatus.FUNDED) expect(list.filter((s) => s === W.APPROVED || s === W.COMPLETED)).toEqual([]);
    }
  });
});

describe('scheduleWithdrawals', () => {
  it('dates each request inside its window, with the dates its status has, in creation order', () => {
    const plan = freshPlan();
    const wanted = new Map(plan.holdings.map((h): [PHolding, W[]] => [h, STATUSES]));
    const scheduled = scheduleWithdrawals(random(2), wanted);
    const fits = plan.holdings.flatMap((h) =>
      STATUSES.filter((s) => {
        const [from, to] = withdrawalWindow(s, h.createdAt + 30 * DAY);
        return from < to;
      }),
    );
    expect(scheduled).toHaveLength(fits.length);
    expect(scheduled.map((w) => w.createdAt)).toEqual(scheduled.map((w) => w.createdAt).sort((a, b) => a - b));
    for (const w of scheduled) {
      const [from, to] = withdrawalWindow(w.status, w.holding.createdAt + 30 * DAY);
      expect(w.createdAt >= from && w.createdAt < to).toBe(true);
      const reviewed = w.status !== W.PENDING && w.status !== W.CANCELLED;
      expect(w.reviewedAt === null).toBe(!reviewed);
      if (w.reviewedAt !== null) expect(w.reviewedAt - w.createdAt).toBeGreaterThanOrEqual(20 * HOUR);
      expect(w.completedAt === null).toBe(w.status !== W.COMPLETED);
      if (w.completedAt !== null) expect(w.completedAt - w.reviewedAt!).toBeGreaterThanOrEqual(2 * DAY);
      expect(w.cancelledAt === null).toBe(w.status !== W.CANCELLED);
    }
  });
});

describe('sizing a request', () => {
  let plan: Plan;
  let requests: WithdrawalPlan[];
  beforeEach(() => {
    plan = freshPlan();
    requests = scheduleWithdrawals(random(3), new Map(plan.holdings.map((h): [PHolding, W[]] => [h, STATUSES])));
  });

  it('withdrawalShare: a part of what the holding covers when made, none from a holding whose share is all pending', () => {
    let sized = 0;
    for (const w of requests) {
      const share = withdrawalShare(random(4), w, null);
      if (!share) continue;
      sized++;
      expect(share.pct.lessThan(pctAt(w.holding, w.createdAt))).toBe(true);
      expect(share.pct.greaterThanOrEqualTo('0.01')).toBe(true);
      expect(share.invested.isPositive()).toBe(true);
      expect(withdrawalShare(random(4), w, pctAt(w.holding, HORIZON))).toBeNull();
    }
    expect(sized).toBeGreaterThan(0);
  });

  it('approveWithdrawal: moves a covered share out of the holding and owes it at the latest valuation; refuses more than held', () => {
    const h = plan.holdings.find((x) => x.events.length === 1)!;
    const at = h.createdAt + 60 * DAY;
    const held = pctAt(h, at);
    expect(approveWithdrawal(h, at, { pct: held.plus('0.000001'), invested: new Decimal(1) })).toBeNull();
    expect(h.events).toHaveLength(1);
    const pct = held.dividedBy(4).toDecimalPlaces(6);
    const payout = approveWithdrawal(h, at, { pct, invested: h.events[0].amount.dividedBy(4).toDecimalPlaces(2) });
    expect(payout?.toFixed(2)).toBe(withdrawalPayoutAmount(pct, valueAt(h.unit, at)).toFixed(2));
    expect(pctAt(h, at).toFixed()).toBe(held.minus(pct).toFixed());
  });

  it('sizeWithdrawals: rows in creation order, a payout owed by each approval only, pending ones within the final holdings', () => {
    const sized = sizeWithdrawals(newPlanner(random, 5, SHORT_TIMELINE, plan.ids), requests, plan.adminId);
    expect(sized.length).toBeGreaterThan(0);
    expect(sized.map((s) => s.plan.createdAt)).toEqual(sized.map((s) => s.plan.createdAt).sort((a, b) => a - b));
    for (const { plan: w, row, payout } of sized) {
      expect(payout !== null).toBe(w.status === W.APPROVED || w.status === W.COMPLETED);
      expect(row).toMatchObject({ id: 0, investorId: w.holding.investor.id, unitId: w.holding.unit.id, status: w.status });
    }
    for (const h of plan.holdings) {
      const pending = sum(sized.filter((s) => s.plan.holding === h && s.plan.status === W.PENDING).map((s) => s.row.ownershipPercentage as string));
      expect(pending.lessThan(pctAt(h, HORIZON)) || pending.isZero()).toBe(true);
    }
  });

  it('withdrawalRequestRow: a reason, a rejection reason when rejected, the reviewer when reviewed, updated at its last date', () => {
    const share = { pct: new Decimal('1.25'), invested: new Decimal('1000') };
    for (const status of STATUSES) {
      const w = requests.find((x) => x.status === status)!;
      const row = withdrawalRequestRow(random(6).faker, w, share, 99);
      expect(row).toMatchObject({ ownershipPercentage: '1.250000', investedAmount: '1000.00', createdAt: new Date(w.createdAt) });
      expect(typeof row.reason).toBe('string');
      expect(row.rejectionReason === null).toBe(status !== W.REJECTED);
      expect(row.reviewedById).toBe(w.reviewedAt ? 99 : null);
      expect((row.updatedAt as Date).getTime()).toBe(Math.max(w.createdAt, w.reviewedAt ?? 0, w.completedAt ?? 0, w.cancelledAt ?? 0));
    }
  });
});

describe('recording the requests', () => {
  it('recordWithdrawals: ids in order, a notification per review and per payment, a payout and ledger rows per approval', () => {
    const plan = freshPlan();
    const requests = scheduleWithdrawals(random(3), wantedWithdrawals(random(1), demoOf(plan), plan.holdings));
    const p = newPlanner(random, 5, SHORT_TIMELINE, new Ids(noRows()));
    const sized = sizeWithdrawals(p, requests, plan.adminId);
    const ledger: Parameters<typeof recordWithdrawals>[2] = [];
    const { withdrawalRequests, withdrawalPayouts } = recordWithdrawals(p, sized, ledger);
    expect(withdrawalRequests.map((r) => r.id)).toEqual(sized.map((_, i) => i + 1));
    const notes = [...p.notes.values()].flat();
    const reviewed = sized.filter((s) => s.plan.reviewedAt !== null);
    const completed = sized.filter((s) => s.plan.completedAt !== null && s.payout !== null);
    expect(notes).toHaveLength(reviewed.length + completed.length);
    expect(withdrawalPayouts).toHaveLength(sized.filter((s) => s.payout !== null).length);
    expect(ledger).toHaveLength(withdrawalPayouts.length + completed.length);
  });

  it('withdrawalPayoutRows: a pending payout and its WITHDRAWAL row when approved; paid, with the PAYOUT row and a notification, when completed', () => {
    const plan = freshPlan();
    const h = plan.holdings[0];
    const request = { id: 31, investorId: h.investor.id, unitId: h.unit.id, ownershipPercentage: '2.500000', investedAmount: '5000.00', reason: 'r' };
    const approved: WithdrawalPlan = {
      holding: h,
      status: W.APPROVED,
      createdAt: HORIZON - 9 * DAY,
      reviewedAt: HORIZON - 8 * DAY,
      completedAt: null,
      cancelledAt: null,
    };
    const open = withdrawalPayoutRows(approved, approved.reviewedAt!, request, 7, new Decimal('5123.4'));
    expect(open.payout).toMatchObject({ id: 7, withdrawalRequestId: 31, amount: '5123.40', status: PayoutStatus.PENDING, reference: 'PO-W-31', paidAt: null });
    expect(open.ledger).toEqual([
      expect.objectContaining({ type: TransactionType.WITHDRAWAL, amount: '5123.40', payoutId: 7, occurredAt: new Date(approved.reviewedAt!) }),
    ]);
    expect(open.ledger[0].description).toContain('2.5%');
    expect(open.note).toBeNull();

    const completedAt = HORIZON - 5 * DAY;
    const paid = withdrawalPayoutRows({ ...approved, status: W.COMPLETED, completedAt }, approved.reviewedAt!, request, 7, new Decimal('5123.4'));
    expect(paid.payout).toMatchObject({ status: PayoutStatus.PAID, paidAt: new Date(completedAt), updatedAt: new Date(completedAt) });
    expect(paid.ledger.map((t) => [t.type, (t.occurredAt as Date).getTime()])).toEqual([
      [TransactionType.WITHDRAWAL, approved.reviewedAt],
      [TransactionType.PAYOUT, completedAt],
    ]);
    expect(paid.note).toMatchObject({ at: completedAt, data: { withdrawalRequestId: 31, payoutId: 7 } });
  });
});
