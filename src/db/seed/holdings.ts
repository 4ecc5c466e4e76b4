import type { Faker } from '@faker-js/faker';
import type { Prisma } from '../../generated/prisma/client';
import {
  InvestmentRequestStatus,
  NotificationType,
  PayoutSource,
  PayoutStatus,
  TransactionType,
  UnitStatus,
  WithdrawalRequestStatus,
} from '../../generated/prisma/enums';
import { Decimal, sum } from '../../domain/money';
import {
  availabilityAfterInvestment,
  availabilityAfterWithdrawal,
  holdingAfterWithdrawal,
  investmentShare,
  withdrawalInvestedAmount,
  withdrawalPayoutAmount,
} from '../../domain/money-rules';
import { addNote, type PHolding, type PInvestor, type Planner, type PNotification, type PUnit } from './plan';
import type { Random } from './random';
import { DAY, HORIZON, HOUR, MINUTE, d } from './time';

/** Money and holdings: who holds what, bought and withdrawn through the services' own money rules. */

const MAX_INVESTMENT = 1_000_000;
const STEP = 500;
export const HUNDRED = new Decimal(100);
export const ZERO = new Decimal(0);
export const money = (v: Decimal) => v.toFixed(2);
export const pct6 = (v: Decimal) => v.toFixed(6);
/** "2.5%" rather than "2.500000 %" for human-readable texts. */
const pctLabel = (v: Decimal) => `${v.toDecimalPlaces(4).toString()}%`;

export function pctAt(h: PHolding, at: number): Decimal {
  if (h.events.length === 1) return h.events[0].at <= at ? h.events[0].pct : ZERO;
  let p = ZERO;
  for (const e of h.events) if (e.at <= at) p = p.plus(e.pct);
  return p;
}

/** A holding's share and invested amount at a moment (after the events up to it). */
function holdingAt(h: PHolding, at: number): { percentage: Decimal; invested: Decimal } {
  const upTo = h.events.filter((e) => e.at <= at);
  return { percentage: sum(upTo.map((e) => e.pct)), invested: sum(upTo.map((e) => e.amount)) };
}

/**
 * An amount near `amount` (multiples of STEP, ≥ min) and the share it buys (investmentShare); amounts
 * whose share is exact come first, so that amount = share × value / 100 holds to the cent.
 */
function priceShare(amount: number, unit: PUnit, min: number, preferDown = false): { amount: Decimal; pct: Decimal } {
  const base = Math.max(min, Math.round(amount / STEP) * STEP);
  for (let k = 0; k < 24; k++) {
    const offset = (k % 2 === 0 ? 1 : -1) * Math.ceil(k / 2) * STEP * (preferDown ? -1 : 1);
    const a = base + offset;
    if (a < min) continue;
    const pct = investmentShare(a, unit.totalValue);
    if (pct.times(unit.totalValue).dividedBy(100).equals(a)) return { amount: new Decimal(a), pct };
  }
  return { amount: new Decimal(base), pct: investmentShare(base, unit.totalValue) };
}

/** What a share of the unit cost at its offering value (for sizing requests only). */
const valueOf = (pct: Decimal, unit: PUnit) => pct.times(unit.totalValue).dividedBy(100).toNumber();

export function valueAt(unit: PUnit, at: number): Decimal {
  let v = unit.totalValue;
  for (const val of unit.valuations) if (val.at <= at) v = val.value;
  return v;
}

/** Who holds which units: the demo investor's five, each investor's target, and a few holders for every unit on sale. */
export function planHoldings(
  p: Planner,
  units: PUnit[],
  investors: PInvestor[],
  demo: PInvestor,
): { holdings: PHolding[]; openUnits: PUnit[]; demoUnits: PUnit[] } {
  const { rng, ids } = p;
  const holdings: PHolding[] = [];
  const window = (inv: PInvestor, unit: PUnit): [number, number] => [Math.max(inv.user.createdAt, unit.listedAt) + DAY, unit.openUntil];
  const addHolding = (inv: PInvestor, unit: PUnit, createdAt: number) => {
    const h: PHolding = { id: 0, investor: inv, unit, createdAt, updatedAt: createdAt, events: [], pct: ZERO, invested: ZERO };
    inv.holdings.push(h);
    unit.holdings.push(h);
    holdings.push(h);
  };
  // Demo investor: four of the oldest available units early on (≥ 40 distributions), one later.
  const demoUnits = units
    .slice(0, 10)
    .filter((u) => u.status === UnitStatus.AVAILABLE)
    .slice(0, 5);
  demoUnits.forEach((u, j) => {
    const [lo] = window(demo, u);
    addHolding(demo, u, j < 4 ? lo + j * 18 * DAY + rng.int(1, 10) * HOUR : Math.max(lo, HORIZON - 540 * DAY) + 11 * HOUR);
  });
  const openUnits = units.filter((u) => u.status !== UnitStatus.DRAFT);
  for (const inv of investors.slice(1)) {
    const chosen = new Set<PUnit>();
    for (let k = 0; k < inv.targetHoldings; k++) {
      const eligible = openUnits.filter((u) => !chosen.has(u) && u.holdings.length < u.capacity && window(inv, u)[0] < window(inv, u)[1] - 2 * DAY);
      if (eligible.length === 0) break;
      const unit = rng.weighted(
        eligible,
        eligible.map((u) => u.popularity),
      );
      chosen.add(unit);
      const [lo, hi] = window(inv, unit);
      addHolding(inv, unit, lo + Math.floor((hi - lo) * rng.next() ** 3));
    }
  }
  // Every unit on sale has a handful of holders (funded ones more).
  for (const unit of openUnits) {
    const wanted = unit.status === UnitStatus.FUNDED ? 8 : 3;
    for (const inv of rng.shuffle(investors.slice(1))) {
      if (unit.holdings.length >= wanted) break;
      const [lo, hi] = window(inv, unit);
      if (inv.holdings.length >= 5 || inv.holdings.some((h) => h.unit === unit) || lo >= hi - 2 * DAY) continue;
      addHolding(inv, unit, lo + Math.floor((hi - lo) * rng.next() ** 3));
    }
  }
  holdings.sort((a, b) => a.createdAt - b.createdAt);
  for (const h of holdings) h.id = ids.take('holdings');
  for (const u of units) u.holdings.sort((a, b) => a.id - b.id);
  return { holdings, openUnits, demoUnits };
}

export interface Purchase {
  holding: PHolding;
  at: number;
  amount: Decimal;
  pct: Decimal;
}

/** Approved purchases, priced by investmentShare; some holdings bought in two steps. */
export function planPurchases(p: Planner, openUnits: PUnit[], demoUnits: PUnit[]): Purchase[] {
  const { rng } = p;
  const purchases: Purchase[] = [];
  for (const unit of openUnits) {
    const hs = [...unit.holdings].sort((a, b) => a.createdAt - b.createdAt);
    if (hs.length === 0) continue;
    const V = unit.totalValue.toNumber();
    const mins = hs.map((h) => (h.investor.isDemo ? Math.max(15_000, unit.minInvestment) : unit.minInvestment));
    const weights = hs.map((h) => 0.25 - Math.log(1 - rng.next()) * (h.investor.isDemo ? 3 : 1));
    const wsum = weights.reduce((a, b) => a + b, 0);
    const funded = unit.status === UnitStatus.FUNDED;
    const cap = funded ? V - mins[mins.length - 1] * 4 : Math.min(unit.soldShare, 0.97) * V;
    let amounts = weights.map((w, i) => Math.min(MAX_INVESTMENT, Math.max(mins[i], Math.floor((unit.soldShare * V * w) / wsum / STEP) * STEP)));
    let total = amounts.reduce((a, b) => a + b, 0);
    if (total > cap) {
      const factor = cap / total;
      amounts = amounts.map((a, i) => Math.max(mins[i], Math.floor((a * factor) / STEP) * STEP));
      total = amounts.reduce((a, b) => a + b, 0);
      for (let guard = 0; total > cap && guard < 100_000; guard++) {
        let best = -1;
        for (let i = 0; i < amounts.length; i++) if (amounts[i] - STEP >= mins[i] && (best < 0 || amounts[i] > amounts[best])) best = i;
        if (best < 0) break;
        amounts[best] -= STEP;
        total -= STEP;
      }
    }
    const priced = amounts.map((a, i) => priceShare(a, unit, mins[i], true));
    if (funded) {
      // The last buyer takes what is left (exact when the others' shares are; else the unit stays AVAILABLE).
      const lastPct = HUNDRED.minus(sum(priced.slice(0, -1).map((p) => p.pct)));
      const amount = lastPct.times(unit.totalValue).dividedBy(100).toDecimalPlaces(2, Decimal.ROUND_DOWN);
      priced[priced.length - 1] = { amount, pct: investmentShare(amount, unit.totalValue) };
    }
    hs.forEach((h, i) => {
      const { amount, pct } = priced[i];
      // Some holdings were bought in two steps (initial purchase, later top-up).
      const topUpWindow = Math.min(unit.openUntil, HORIZON - 10 * DAY) - (h.createdAt + 45 * DAY);
      const split = (h.investor.isDemo && unit === demoUnits[0]) || rng.chance(0.1);
      const first =
        split && topUpWindow > 10 * DAY && amount.greaterThanOrEqualTo(2 * mins[i] + STEP)
          ? priceShare(amount.toNumber() * rng.float(0.4, 0.7), unit, mins[i], true)
          : null;
      if (first && first.pct.lessThan(pct)) {
        const at = h.createdAt + 45 * DAY + Math.floor(topUpWindow * rng.next());
        const rest = amount.minus(first.amount);
        const steps = [
          { at: h.createdAt, amount: first.amount, pct: first.pct },
          { at, amount: rest, pct: investmentShare(rest, unit.totalValue) },
        ];
        for (const step of steps) purchases.push({ holding: h, ...step });
        h.events.push(...steps);
      } else {
        purchases.push({ holding: h, at: h.createdAt, amount, pct });
        h.events.push({ at: h.createdAt, pct, amount });
      }
    });
  }
  return purchases;
}

/** Approved investment requests and their INVESTMENT transactions (request ids provisional, negative). */
export function planInvestments(
  p: Planner,
  purchases: Purchase[],
  adminId: number,
): { investmentRequests: Prisma.InvestmentRequestCreateManyInput[]; ledger: Prisma.TransactionCreateManyInput[] } {
  const { rng, notes } = p;
  const investmentRequests: Prisma.InvestmentRequestCreateManyInput[] = [];
  const ledger: Prisma.TransactionCreateManyInput[] = [];
  purchases.sort((a, b) => a.at - b.at);
  let provisional = 0; // final request ids are given once all requests are known (creation order)
  for (const p of purchases) {
    const { holding: h } = p;
    const createdAt = p.at - rng.int(2 * 60, 20 * 60) * MINUTE;
    const requestId = --provisional;
    investmentRequests.push({
      id: requestId,
      investorId: h.investor.id,
      unitId: h.unit.id,
      amount: money(p.amount),
      ownershipPercentage: pct6(p.pct),
      status: InvestmentRequestStatus.APPROVED,
      reviewedById: adminId,
      reviewedAt: d(p.at),
      createdAt: d(createdAt),
      updatedAt: d(p.at),
    });
    ledger.push({
      id: 0,
      investorId: h.investor.id,
      unitId: h.unit.id,
      type: TransactionType.INVESTMENT,
      amount: money(p.amount),
      description: `Investment in ${h.unit.name} (${pctLabel(p.pct)})`,
      investmentRequestId: requestId,
      occurredAt: d(p.at),
      createdAt: d(p.at),
    });
    addNote(notes, h.investor.user.id, {
      at: p.at + rng.int(1, 30) * 1000,
      type: NotificationType.INVESTMENT_REQUEST_REVIEWED,
      title: 'Investment approved',
      body: `Your investment of ${money(p.amount)} in ${h.unit.name} has been approved.`,
      data: { investmentRequestId: requestId, unitId: h.unit.id, status: 'APPROVED' },
    });
  }
  return { investmentRequests, ledger };
}

type WStatus = WithdrawalRequestStatus;
const W = WithdrawalRequestStatus;

/** The demo investor's requests, two per holding in this order: each status on two of its holdings. */
const DEMO_WITHDRAWALS: WStatus[] = [W.COMPLETED, W.PENDING, W.APPROVED, W.REJECTED, W.CANCELLED, W.COMPLETED, W.PENDING, W.APPROVED, W.REJECTED, W.CANCELLED];

/** A withdrawal request as scheduled: when it was made and, by its status, reviewed, paid or cancelled. */
export interface WithdrawalPlan {
  holding: PHolding;
  status: WStatus;
  createdAt: number;
  reviewedAt: number | null;
  completedAt: number | null;
  cancelledAt: number | null;
}

/** A request sized through the money rules: its row (id given in creation order) and what its approval owes. */
export interface SizedWithdrawal {
  plan: WithdrawalPlan;
  row: Prisma.WithdrawalRequestCreateManyInput;
  payout: Decimal | null;
}

/** Withdrawal requests in every status; approved ones move the share back and owe a payout. */
export function planWithdrawals(
  p: Planner,
  demo: PInvestor,
  holdings: PHolding[],
  adminId: number,
  ledger: Prisma.TransactionCreateManyInput[],
): { withdrawalRequests: Prisma.WithdrawalRequestCreateManyInput[]; withdrawalPayouts: Prisma.PayoutCreateManyInput[] } {
  const scheduled = scheduleWithdrawals(p.rng, wantedWithdrawals(p.rng, demo, holdings));
  return recordWithdrawals(p, sizeWithdrawals(p, scheduled, adminId), ledger);
}

/**
 * The statuses of the requests each holding gets: the demo investor's from DEMO_WITHDRAWALS, about one
 * in eight other holdings one or two (never approved or completed on a FUNDED unit, which stays sold out).
 */
export function wantedWithdrawals(rng: Random, demo: PInvestor, holdings: PHolding[]): Map<PHolding, WStatus[]> {
  const wanted = new Map<PHolding, WStatus[]>();
  demo.holdings.forEach((h, i) => wanted.set(h, [DEMO_WITHDRAWALS[2 * i], DEMO_WITHDRAWALS[2 * i + 1]]));
  for (const h of holdings) {
    if (h.investor.isDemo || !rng.chance(0.13)) continue;
    const count = rng.chance(0.2) ? 2 : 1;
    const list: WStatus[] = [];
    for (let k = 0; k < count; k++) {
      let s = rng.weighted([W.COMPLETED, W.PENDING, W.APPROVED, W.REJECTED, W.CANCELLED], [0.35, 0.2, 0.12, 0.16, 0.17]);
      if (h.unit.status === UnitStatus.FUNDED && (s === W.APPROVED || s === W.COMPLETED)) s = rng.pick([W.PENDING, W.REJECTED, W.CANCELLED]);
      list.push(s);
    }
    wanted.set(h, list);
  }
  return wanted;
}

/**
 * When a request in `status` may be made on a holding that allows one from `lo`: late enough for a
 * PENDING or APPROVED one to be still open at HORIZON, early enough for the others to be settled by then.
 */
export function withdrawalWindow(status: WStatus, lo: number): [from: number, to: number] {
  switch (status) {
    case W.PENDING:
      return [Math.max(lo, HORIZON - 25 * DAY), HORIZON - HOUR];
    case W.APPROVED:
      return [Math.max(lo, HORIZON - 30 * DAY), HORIZON - 6 * DAY];
    case W.COMPLETED:
      return [lo, HORIZON - 20 * DAY];
    case W.REJECTED:
      return [lo, HORIZON - 4 * DAY];
    default:
      return [lo, HORIZON - 3 * DAY];
  }
}

/** Each wanted request's dates, from 30 days after the holding was bought, in creation order; one its window has no room for is left out. */
export function scheduleWithdrawals(rng: Random, wanted: Map<PHolding, WStatus[]>): WithdrawalPlan[] {
  const plans: WithdrawalPlan[] = [];
  for (const [h, statuses] of wanted) {
    const lo = h.createdAt + 30 * DAY;
    for (const status of statuses) {
      const [from, to] = withdrawalWindow(status, lo);
      if (from >= to) continue; // holding too recent for this kind of request
      const createdAt = rng.time(from, to);
      const reviewedAt = status === W.PENDING || status === W.CANCELLED ? null : createdAt + rng.int(20, 72) * HOUR;
      const completedAt = status === W.COMPLETED && reviewedAt ? reviewedAt + rng.int(2, 6) * DAY + rng.int(0, 8) * HOUR : null;
      const cancelledAt = status === W.CANCELLED ? createdAt + rng.int(1, 48) * HOUR : null;
      plans.push({ holding: h, status, createdAt, reviewedAt, completedAt, cancelledAt });
    }
  }
  plans.sort((a, b) => a.createdAt - b.createdAt);
  return plans;
}

/**
 * Each request's share and row, in creation order: settled ones first (an approval changes the
 * holding), pending ones last against the final holding less the shares pending before them. A
 * request the holding cannot cover is left out.
 */
export function sizeWithdrawals(p: Planner, plans: WithdrawalPlan[], adminId: number): SizedWithdrawal[] {
  const pendingByHolding = new Map<PHolding, Decimal>();
  const sized: SizedWithdrawal[] = [];
  for (const pass of ['settled', 'pending'] as const) {
    for (const w of plans) {
      if ((w.status === W.PENDING) !== (pass === 'pending')) continue;
      const h = w.holding;
      const share = withdrawalShare(p.rng, w, pass === 'pending' ? (pendingByHolding.get(h) ?? ZERO) : null);
      if (!share) continue;
      let payout: Decimal | null = null;
      if ((w.status === W.APPROVED || w.status === W.COMPLETED) && w.reviewedAt) {
        payout = approveWithdrawal(h, w.reviewedAt, share);
        if (!payout) continue;
      }
      if (pass === 'pending') pendingByHolding.set(h, (pendingByHolding.get(h) ?? ZERO).plus(share.pct));
      sized.push({ plan: w, row: withdrawalRequestRow(p.fake, w, share, adminId), payout });
    }
  }
  sized.sort((a, b) => a.plan.createdAt - b.plan.createdAt);
  return sized;
}

/**
 * The share a request withdraws (10–35 % of what the holding covers when it is made, leaving at least
 * the minimum investment) and the invested amount it takes; null when the holding is too small.
 * `pending`: for a pending request, the share already pending on the holding, which it must also leave.
 */
export function withdrawalShare(rng: Random, w: WithdrawalPlan, pending: Decimal | null): { pct: Decimal; invested: Decimal } | null {
  const h = w.holding;
  const held = holdingAt(h, w.createdAt);
  const base = pending ? Decimal.min(held.percentage, holdingAt(h, HORIZON).percentage).minus(pending) : held.percentage;
  const baseAmount = valueOf(base, h.unit);
  const min = Math.max(STEP, h.unit.minInvestment);
  if (baseAmount < 2 * min) return null;
  const { pct } = priceShare(Math.min(baseAmount * rng.float(0.1, 0.35), baseAmount - min), h.unit, STEP, true);
  if (pct.greaterThanOrEqualTo(base) || pct.lessThan('0.01')) return null;
  return { pct, invested: withdrawalInvestedAmount(held.invested, held.percentage, pct) };
}

/**
 * The approval's own check: when the holding still covers the share and the invested amount at `at`,
 * both move out of it then and the payout owed at the latest valuation is returned; null otherwise.
 */
export function approveWithdrawal(h: PHolding, at: number, share: { pct: Decimal; invested: Decimal }): Decimal | null {
  const rest = holdingAfterWithdrawal(holdingAt(h, at), { percentage: share.pct, invested: share.invested });
  if (rest.percentage.isNegative() || rest.invested.isNegative()) return null;
  h.events.push({ at, pct: share.pct.negated(), amount: share.invested.negated() });
  h.events.sort((a, b) => a.at - b.at);
  return withdrawalPayoutAmount(share.pct, valueAt(h.unit, at));
}

/** A request's row (id 0 until ids are given in creation order); its reason, and a rejection's, drawn from `fake`. */
export function withdrawalRequestRow(
  fake: Faker,
  w: WithdrawalPlan,
  share: { pct: Decimal; invested: Decimal },
  adminId: number,
): Prisma.WithdrawalRequestCreateManyInput {
  return {
    id: 0,
    investorId: w.holding.investor.id,
    unitId: w.holding.unit.id,
    ownershipPercentage: pct6(share.pct),
    investedAmount: money(share.invested),
    reason: fake.lorem.sentence(),
    status: w.status,
    rejectionReason: w.status === W.REJECTED ? fake.lorem.sentence() : null,
    reviewedById: w.reviewedAt ? adminId : null,
    reviewedAt: w.reviewedAt ? d(w.reviewedAt) : null,
    completedAt: w.completedAt ? d(w.completedAt) : null,
    createdAt: d(w.createdAt),
    updatedAt: d(w.completedAt ?? w.reviewedAt ?? w.cancelledAt ?? w.createdAt),
  };
}

/**
 * The requests' ids in creation order, each reviewed one's notification, and for an approved one its
 * payout with the ledger rows and notification that go with it (withdrawalPayoutRows).
 */
export function recordWithdrawals(
  p: Planner,
  sized: SizedWithdrawal[],
  ledger: Prisma.TransactionCreateManyInput[],
): { withdrawalRequests: Prisma.WithdrawalRequestCreateManyInput[]; withdrawalPayouts: Prisma.PayoutCreateManyInput[] } {
  const { ids, notes } = p;
  const withdrawalRequests: Prisma.WithdrawalRequestCreateManyInput[] = [];
  const withdrawalPayouts: Prisma.PayoutCreateManyInput[] = [];
  for (const { plan: w, row, payout } of sized) {
    row.id = ids.take('withdrawal_requests');
    withdrawalRequests.push(row);
    const h = w.holding;
    const userId = h.investor.user.id;
    if (w.reviewedAt) {
      const label = w.status === W.REJECTED ? 'rejected' : 'approved';
      addNote(notes, userId, {
        at: w.reviewedAt + 5000,
        type: NotificationType.WITHDRAWAL_REQUEST_REVIEWED,
        title: `Withdrawal ${label}`,
        body: `Your request to withdraw ${pctLabel(new Decimal(row.ownershipPercentage as string))} of ${h.unit.name} was ${label}.`,
        data: { withdrawalRequestId: row.id as number, unitId: h.unit.id, status: w.status },
      });
    }
    if (payout && w.reviewedAt) {
      const paid = withdrawalPayoutRows(w, w.reviewedAt, row, ids.take('payouts'), payout);
      withdrawalPayouts.push(paid.payout);
      ledger.push(...paid.ledger);
      if (paid.note) addNote(notes, userId, paid.note);
    }
  }
  return { withdrawalRequests, withdrawalPayouts };
}

/**
 * An approved request's payout (PAID when completed) and WITHDRAWAL ledger row; when completed, also
 * the PAYOUT ledger row that paying it (payPayout) writes and the investor's notification.
 */
export function withdrawalPayoutRows(
  w: WithdrawalPlan,
  reviewedAt: number,
  request: Prisma.WithdrawalRequestCreateManyInput,
  payoutId: number,
  payout: Decimal,
): { payout: Prisma.PayoutCreateManyInput; ledger: Prisma.TransactionCreateManyInput[]; note: PNotification | null } {
  const h = w.holding;
  const requestId = request.id as number;
  const amount = money(payout);
  const reference = `PO-W-${requestId}`;
  // The keys in this order: bulkCreator writes the rows that set the same fields, in the same order, in one statement.
  const entry = (type: TransactionType, description: string, at: Date): Prisma.TransactionCreateManyInput => ({
    id: 0,
    investorId: h.investor.id,
    unitId: h.unit.id,
    type,
    amount,
    description,
    withdrawalRequestId: requestId,
    payoutId,
    occurredAt: at,
    createdAt: at,
  });
  const ledger = [
    entry(TransactionType.WITHDRAWAL, `Withdrawal of ${pctLabel(new Decimal(request.ownershipPercentage as string))} of ${h.unit.name}`, d(reviewedAt)),
  ];
  if (w.completedAt) ledger.push(entry(TransactionType.PAYOUT, `Payout ${reference} · ${h.unit.name}`, d(w.completedAt)));
  return {
    payout: {
      id: payoutId,
      investorId: h.investor.id,
      unitId: h.unit.id,
      source: PayoutSource.WITHDRAWAL,
      withdrawalRequestId: requestId,
      amount,
      status: w.completedAt ? PayoutStatus.PAID : PayoutStatus.PENDING,
      reference,
      paidAt: w.completedAt ? d(w.completedAt) : null,
      createdAt: d(reviewedAt),
      updatedAt: d(w.completedAt ?? reviewedAt),
    },
    ledger,
    note: w.completedAt
      ? {
          at: w.completedAt,
          type: NotificationType.WITHDRAWAL_COMPLETED,
          title: 'Withdrawal paid',
          body: `${amount} from your withdrawal in ${h.unit.name} has been sent to your bank account.`,
          data: { withdrawalRequestId: requestId, payoutId },
        }
      : null,
  };
}

/** Each holding's final share and invested amount, and each unit's availability and status. */
export function settleHoldings(holdings: PHolding[], units: PUnit[]): void {
  for (const h of holdings) {
    ({ percentage: h.pct, invested: h.invested } = holdingAt(h, HORIZON));
    h.updatedAt = h.events[h.events.length - 1]?.at ?? h.createdAt;
  }
  for (const u of units) {
    // Availability moves as the approvals did, in time order; a unit planned FUNDED is one that sold out.
    let soldOut = false;
    u.available = HUNDRED;
    for (const e of u.holdings.flatMap((h) => h.events).sort((a, b) => a.at - b.at)) {
      if (e.pct.isNegative()) [u.available, soldOut] = [availabilityAfterWithdrawal(u.available, e.pct.negated()), false];
      else ({ available: u.available, soldOut } = availabilityAfterInvestment(u.available, e.pct));
      if (u.available.isNegative()) throw new Error(`seed: ${u.code} is oversold`);
    }
    if (u.status === UnitStatus.FUNDED && !soldOut) u.status = UnitStatus.AVAILABLE;
    const last = Math.max(u.listedAt, ...u.holdings.map((h) => h.updatedAt));
    u.updatedAt = u.status === UnitStatus.CLOSED ? Math.max(last, u.openUntil) : last;
  }
}

/**
 * Other investment requests (PENDING, REJECTED, CANCELLED); then every request's id in creation
 * order, carried into the ledger and the notifications, and the ledger's ids.
 */
export function planOtherRequests(
  p: Planner,
  units: PUnit[],
  investors: PInvestor[],
  demo: PInvestor,
  adminId: number,
  investmentRequests: Prisma.InvestmentRequestCreateManyInput[],
  ledger: Prisma.TransactionCreateManyInput[],
): Prisma.InvestmentRequestCreateManyInput[] {
  const { rng, fake, ids, notes } = p;
  const availableUnits = units.filter((u) => u.status === UnitStatus.AVAILABLE);
  const extraRequests: { inv: PInvestor; status: InvestmentRequestStatus }[] = [];
  const R = InvestmentRequestStatus;
  for (const s of [R.PENDING, R.PENDING, R.REJECTED, R.REJECTED, R.CANCELLED, R.CANCELLED]) extraRequests.push({ inv: demo, status: s });
  for (const inv of investors.slice(1)) {
    if (rng.chance(0.12)) extraRequests.push({ inv, status: R.PENDING });
    if (rng.chance(0.08)) extraRequests.push({ inv, status: R.REJECTED });
    if (rng.chance(0.08)) extraRequests.push({ inv, status: R.CANCELLED });
  }
  const extraRows: Prisma.InvestmentRequestCreateManyInput[] = [];
  for (const { inv, status } of extraRequests) {
    const candidates = availableUnits.filter(
      (u) => Math.max(inv.user.createdAt, u.listedAt) + DAY < (status === R.PENDING ? HORIZON - 20 * DAY : HORIZON - 5 * DAY),
    );
    if (candidates.length === 0) continue;
    const unit = rng.pick(candidates);
    const lo = Math.max(inv.user.createdAt, unit.listedAt) + DAY;
    const createdAt = status === R.PENDING ? rng.time(Math.max(lo, HORIZON - 20 * DAY), HORIZON - HOUR) : rng.time(lo, HORIZON - 4 * DAY);
    const room = unit.available.minus(unit.pendingInvestment);
    const want = Math.exp(rng.float(Math.log(1000), Math.log(60_000)));
    let { amount, pct } = priceShare(want, unit, unit.minInvestment, true);
    if (pct.greaterThan(room)) {
      if (status === R.PENDING) continue;
      ({ amount, pct } = priceShare(unit.minInvestment, unit, unit.minInvestment));
      if (pct.greaterThan(unit.available)) continue;
    }
    if (status === R.PENDING) unit.pendingInvestment = unit.pendingInvestment.plus(pct);
    const reviewedAt = status === R.REJECTED ? createdAt + rng.int(6, 60) * HOUR : null;
    const updatedAt = reviewedAt ?? (status === R.CANCELLED ? createdAt + rng.int(1, 40) * HOUR : createdAt);
    extraRows.push({
      id: 0,
      investorId: inv.id,
      unitId: unit.id,
      amount: money(amount),
      ownershipPercentage: pct6(pct),
      status,
      rejectionReason: status === R.REJECTED ? fake.lorem.sentence() : null,
      reviewedById: reviewedAt ? adminId : null,
      reviewedAt: reviewedAt ? d(reviewedAt) : null,
      createdAt: d(createdAt),
      updatedAt: d(updatedAt),
    });
    if (reviewedAt) {
      addNote(notes, inv.user.id, {
        at: reviewedAt + 4000,
        type: NotificationType.INVESTMENT_REQUEST_REVIEWED,
        title: 'Investment request rejected',
        body: `Your request to invest ${money(amount)} in ${unit.name} was not approved.`,
        data: { unitId: unit.id, status: 'REJECTED' },
      });
    }
  }
  // Ids in creation order (so "newest first" by created_at and by id agree).
  const allRequests = [...investmentRequests, ...extraRows].sort((a, b) => (a.createdAt as Date).getTime() - (b.createdAt as Date).getTime());
  const remap = new Map<number, number>();
  for (const r of allRequests) {
    const newId = ids.take('investment_requests');
    if (r.id) remap.set(r.id, newId);
    r.id = newId;
  }
  for (const t of ledger) if (t.investmentRequestId) t.investmentRequestId = remap.get(t.investmentRequestId);
  ledger.sort((a, b) => (a.occurredAt as Date).getTime() - (b.occurredAt as Date).getTime());
  for (const t of ledger) t.id = ids.take('transactions');
  for (const list of notes.values())
    for (const n of list)
      if (n.data.investmentRequestId) n.data.investmentRequestId = remap.get(n.data.investmentRequestId as number) ?? n.data.investmentRequestId;
  return allRequests;
}
