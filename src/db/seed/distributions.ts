import type { Prisma } from '../../generated/prisma/client';
import {
  DistributionCadence,
  DistributionStatus,
  DistributionType,
  NotificationType,
  PayoutSource,
  PayoutStatus,
  TransactionType,
} from '../../generated/prisma/enums';
import { distributionName } from '../../domain/distribution-rules';
import { cents, sum, type Decimal } from '../../domain/money';
import { fanOut, isPayable, type FanOut, type HolderShare } from '../../domain/money-rules';
import type { Columns, Row } from './bulk';
import { HUNDRED, ZERO, money, pct6, pctAt, valueAt } from './holdings';
import type { Ids, PDeclaration, PHolding, PNotification, Planner, PUnit } from './plan';
import { DAY, HOUR, LAST_PERIOD, MINUTE, d, iso, isoDay, quarterEnd } from './time';

/**
 * Distributions: each unit declares its profit on its category's cadence (now and then interest with
 * it, or a one-off capital gain), fanned out to the holders of record with their payouts.
 */

/** The months a declaration pays for: `months` of them, up to `end` (the 1st of the next month, 00:00 UTC). */
interface Span {
  months: number;
  end: number;
}

/** The categories whose income follows the seasons: a factor per calendar quarter. */
const SEASONAL: Record<string, readonly number[]> = {
  Hospitality: [0.8, 1.05, 1.35, 0.85],
  'Renewable Energy': [0.75, 1.2, 1.25, 0.8],
};

/**
 * What a unit declares for a quarter, by its cadence: MONTHLY each of its months, QUARTERLY the
 * quarter, SEMI_ANNUAL and ANNUAL the half-year or year the quarter closes. A unit's year ends in
 * December, or in September for every other one (fiscal years differ): so the latest quarter, still
 * under review, holds declarations of every cadence.
 */
function spansOf(unit: PUnit, year: number, quarter: number): Span[] {
  const end = quarterEnd(year, quarter);
  const yearEnd = unit.index % 2 === 0 ? 4 : 3;
  switch (unit.category.def.cadence) {
    case DistributionCadence.MONTHLY:
      return [1, 2, 3].map((m) => ({ months: 1, end: Date.UTC(year, (quarter - 1) * 3 + m, 1) }));
    case DistributionCadence.SEMI_ANNUAL:
      return quarter % 2 === yearEnd % 2 ? [{ months: 6, end }] : [];
    case DistributionCadence.ANNUAL:
      return quarter === yearEnd ? [{ months: 12, end }] : [];
    default:
      return [{ months: 3, end }];
  }
}

/** The unit's seasonal factor averaged over the `months` before `end`. */
function seasonalOver(unit: PUnit, end: number, months: number): number {
  const factors = SEASONAL[unit.category.def.name];
  if (!factors) return 1;
  const last = new Date(end - DAY).getUTCMonth();
  let total = 0;
  for (let i = 0; i < months; i++) total += factors[Math.floor(((last - i + 12) % 12) / 3)];
  return total / months;
}

/**
 * Every open unit's declarations, quarter by quarter up to LAST_PERIOD, each scheduled for the 15th
 * of the month after its months. Those for the months up to LAST_PERIOD's end are still under review;
 * the others were paid on their scheduled day (a few cancelled instead).
 */
export function planDeclarations(p: Planner, openUnits: PUnit[]): { declarations: PDeclaration[]; distributionCount: number; distributedCount: number } {
  const { rng, ids, tl } = p;
  const declarations: PDeclaration[] = [];
  const reviewedFrom = quarterEnd(LAST_PERIOD.year, LAST_PERIOD.quarter);
  const reviewed = new Map<DistributionCadence, number>();
  let distributionCount = 0;
  let distributedCount = 0;
  for (let year = tl.firstYear; year <= LAST_PERIOD.year; year++) {
    for (let quarter = 1; quarter <= 4; quarter++) {
      if (year === LAST_PERIOD.year && quarter > LAST_PERIOD.quarter) break;
      const end = quarterEnd(year, quarter);
      for (const unit of openUnits) {
        const def = unit.category.def;
        const spans = spansOf(unit, year, quarter);
        const planned = spans.map((span) => ({ span, type: def.mainType, cadence: def.cadence }));
        // Now and then interest on the unit's cash, paid with its last declaration of the quarter,
        // and a one-off capital gain.
        const interest = rng.chance(0.04);
        if (interest && spans.length > 0) planned.push({ span: spans[spans.length - 1], type: DistributionType.INTEREST, cadence: def.cadence });
        if (rng.chance(0.03)) planned.push({ span: { months: 3, end }, type: DistributionType.CAPITAL_GAIN, cadence: DistributionCadence.SPECIAL });
        planned.forEach(({ span, type, cadence }, i) => {
          if (unit.listedAt >= span.end) return;
          // A few days after the months it pays for: the units take turns through the day (by index,
          // each set of 40 alike, so that a large data set still declares within days), a unit's
          // declarations of one day two hours apart.
          const sameDay = planned.slice(0, i).filter((x) => x.span.end === span.end).length;
          const createdAt = span.end + 3 * DAY + 8 * HOUR + (unit.index % 40) * 37 * MINUTE + sameDay * (2 * HOUR + 7 * MINUTE) + rng.int(0, 30) * MINUTE;
          const holders: PDeclaration['holders'] = [];
          for (const h of unit.holdings) {
            const pct = pctAt(h, createdAt);
            if (pct.greaterThan(ZERO)) holders.push({ holding: h, pct });
          }
          if (holders.length === 0) return;
          const value = valueAt(unit, createdAt);
          // Profit of the months it pays for, those since the unit was listed (a year's first
          // declaration may cover a few of its months only).
          const months = Math.min(span.months, Math.ceil((span.end - unit.listedAt) / (30.5 * DAY)));
          let factor: number;
          if (type === DistributionType.INTEREST) factor = rng.float(0.0008, 0.002) * (months / 3);
          else if (type === DistributionType.CAPITAL_GAIN) factor = rng.float(0.01, 0.03);
          else factor = (unit.expectedReturn.toNumber() / 100 / 12) * months * rng.float(0.85, 1.1) * seasonalOver(unit, span.end, months);
          const gross = cents(value.times(factor.toFixed(8)));
          let status: DistributionStatus;
          if (span.end >= reviewedFrom) {
            // Under review: a cadence's first one waiting (so every cadence has some), then
            // alternately approved and waiting, every twentieth cancelled.
            const k = reviewed.get(cadence) ?? 0;
            reviewed.set(cadence, k + 1);
            status = k % 20 === 19 ? DistributionStatus.CANCELLED : k % 2 === 0 ? DistributionStatus.PENDING : DistributionStatus.APPROVED;
          } else status = rng.chance(0.03) ? DistributionStatus.CANCELLED : DistributionStatus.DISTRIBUTED;
          const scheduledFor = span.end + 14 * DAY;
          const approvedAt = status === DistributionStatus.APPROVED || status === DistributionStatus.DISTRIBUTED ? createdAt + rng.int(40, 100) * HOUR : null;
          // Paid by the payment run of its scheduled day.
          const distributedAt = status === DistributionStatus.DISTRIBUTED ? scheduledFor + 10 * HOUR : null;
          const updatedAt = distributedAt ?? approvedAt ?? (status === DistributionStatus.CANCELLED ? createdAt + rng.int(20, 70) * HOUR : createdAt);
          declarations.push({
            id: 0,
            unit,
            period: `${year}-Q${quarter}`,
            type,
            cadence,
            scheduledFor,
            gross,
            status,
            createdAt,
            approvedAt,
            distributedAt,
            updatedAt,
            holders,
            heldPct: sum(holders.map((x) => x.pct)),
          });
          distributionCount += holders.length;
          if (status === DistributionStatus.DISTRIBUTED) distributedCount += holders.length;
        });
      }
    }
  }
  declarations.sort((a, b) => a.createdAt - b.createdAt);
  // Distribution i of a declaration is created at declaration.createdAt + i ms: keep those ranges
  // disjoint so that every distribution has its own timestamp (a shift of a few ms at most).
  let nextFree = 0;
  for (const dcl of declarations) {
    dcl.createdAt = Math.max(dcl.createdAt, nextFree);
    nextFree = dcl.createdAt + dcl.holders.length + 1;
    dcl.id = ids.take('distribution_declarations');
  }
  return { declarations, distributionCount, distributedCount };
}

export const DISTRIBUTION_COLUMNS: Columns = [
  ['id', 'int'],
  ['declaration_id', 'int'],
  ['investor_id', 'int'],
  ['unit_id', 'int'],
  ['period', 'text'],
  ['type', '"DistributionType"'],
  ['cadence', '"DistributionCadence"'],
  ['scheduled_for', 'date'],
  ['ownership_percentage', 'numeric'],
  ['gross_amount', 'numeric'],
  ['fees', 'numeric'],
  ['net_amount', 'numeric'],
  ['status', '"DistributionStatus"'],
  ['distributed_at', 'timestamptz'],
  ['created_at', 'timestamptz'],
  ['updated_at', 'timestamptz'],
];
export const PAYOUT_COLUMNS: Columns = [
  ['id', 'int'],
  ['investor_id', 'int'],
  ['unit_id', 'int'],
  ['source', '"PayoutSource"'],
  ['distribution_id', 'int'],
  ['withdrawal_request_id', 'int'],
  ['amount', 'numeric'],
  ['status', '"PayoutStatus"'],
  ['reference', 'text'],
  ['paid_at', 'timestamptz'],
  ['created_at', 'timestamptz'],
  ['updated_at', 'timestamptz'],
];
export const TRANSACTION_COLUMNS: Columns = [
  ['id', 'int'],
  ['investor_id', 'int'],
  ['unit_id', 'int'],
  ['type', '"TransactionType"'],
  ['amount', 'numeric'],
  ['description', 'text'],
  ['investment_request_id', 'int'],
  ['withdrawal_request_id', 'int'],
  ['distribution_id', 'int'],
  ['payout_id', 'int'],
  ['occurred_at', 'timestamptz'],
  ['created_at', 'timestamptz'],
];

/** The rows declarations fan out into, written in batches (distributions, payouts and ledger through bulkInsert). */
export interface FanOutRows {
  declarations: Prisma.DistributionDeclarationCreateManyInput[];
  distributions: Row[];
  payouts: Row[];
  transactions: Row[];
}

/**
 * One declaration's rows: a distribution per holder (fanOut's split); when distributed, its PAID
 * payout and the DISTRIBUTION and PAYOUT ledger rows, and the holder's last two "paid" notifications,
 * worded as DistributionService.distribute words them.
 */
export function fanOutDeclaration(dcl: PDeclaration, ids: Ids, adminId: number, rows: FanOutRows, lastPaid: Map<number, PNotification[]>): void {
  // The unit's availability when declared is what its holders then did not hold.
  const split = fanOut(
    dcl.gross,
    dcl.unit.feeRate,
    dcl.holders.map((x) => x.pct),
    HUNDRED.minus(dcl.heldPct),
  );
  dcl.holders.forEach(({ holding, pct }, i) => {
    const share = split.shares[i];
    const id = ids.take('distributions');
    rows.distributions.push(distributionRow(dcl, id, holding, pct, share, i));
    if (dcl.status === DistributionStatus.DISTRIBUTED && dcl.distributedAt && isPayable(share.net)) {
      const paid = distributionPayoutRows(dcl, dcl.distributedAt, id, holding, share.net, ids);
      rows.payouts.push(paid.payout);
      rows.transactions.push(...paid.transactions);
      keepLastPaid(lastPaid, holding.investor.user.id, paid.note);
    }
  });
  rows.declarations.push(declarationRow(dcl, split, adminId));
}

/** The distribution row of the declaration's `i`-th holder, created `i` ms after the declaration (each its own timestamp). */
export function distributionRow(dcl: PDeclaration, id: number, holding: PHolding, pct: Decimal, share: HolderShare, i: number): Row {
  return {
    id,
    declaration_id: dcl.id,
    investor_id: holding.investor.id,
    unit_id: dcl.unit.id,
    period: dcl.period,
    type: dcl.type,
    cadence: dcl.cadence,
    scheduled_for: isoDay(dcl.scheduledFor),
    ownership_percentage: pct6(pct),
    gross_amount: money(share.gross),
    fees: money(share.fee),
    net_amount: money(share.net),
    status: dcl.status,
    distributed_at: dcl.distributedAt ? iso(dcl.distributedAt) : null,
    created_at: iso(dcl.createdAt + i),
    updated_at: iso(Math.max(dcl.updatedAt, dcl.createdAt + i)),
  };
}

/**
 * A distributed holder's PAID payout of `net`, its DISTRIBUTION ledger row and then (paid at once, as
 * payPayout writes it) its PAYOUT row, and the holder's "paid" notification.
 */
export function distributionPayoutRows(
  dcl: PDeclaration,
  distributedAt: number,
  distributionId: number,
  holding: PHolding,
  net: Decimal,
  ids: Ids,
): { payout: Row; transactions: Row[]; note: PNotification } {
  const unit = dcl.unit;
  const name = distributionName(dcl.cadence, dcl.type);
  const at = iso(distributedAt);
  const payoutId = ids.take('payouts');
  const reference = `PO-D-${distributionId}`;
  const transaction = (type: TransactionType, description: string): Row => ({
    id: ids.take('transactions'),
    investor_id: holding.investor.id,
    unit_id: unit.id,
    type,
    amount: money(net),
    description,
    investment_request_id: null,
    withdrawal_request_id: null,
    distribution_id: distributionId,
    payout_id: payoutId,
    occurred_at: at,
    created_at: at,
  });
  return {
    payout: {
      id: payoutId,
      investor_id: holding.investor.id,
      unit_id: unit.id,
      source: PayoutSource.DISTRIBUTION,
      distribution_id: distributionId,
      withdrawal_request_id: null,
      amount: money(net),
      status: PayoutStatus.PAID,
      reference,
      paid_at: at,
      created_at: at,
      updated_at: at,
    },
    transactions: [
      transaction(TransactionType.DISTRIBUTION, `${name} ${dcl.period} · ${unit.name}`),
      transaction(TransactionType.PAYOUT, `Payout ${reference} · ${unit.name}`),
    ],
    note: {
      at: distributedAt + 30 * MINUTE + (distributionId % 600) * 1000,
      type: NotificationType.DISTRIBUTION_DISTRIBUTED,
      title: `${name} paid`,
      body: `${money(net)} from ${unit.name} for ${dcl.period} has been paid out.`,
      data: { distributionId, payoutId, unitId: unit.id, period: dcl.period, cadence: dcl.cadence },
    },
  };
}

/** Adds a "paid" notification to the user's, of which only the last two are kept (writePlan adds them to the others). */
export function keepLastPaid(lastPaid: Map<number, PNotification[]>, userId: number, note: PNotification): void {
  const list = lastPaid.get(userId) ?? [];
  list.push(note);
  if (list.length > 2) list.shift();
  lastPaid.set(userId, list);
}

/** The declaration's row, with the totals of its split (fees, net, and the unsold share's part retained). */
export function declarationRow(dcl: PDeclaration, split: FanOut, adminId: number): Prisma.DistributionDeclarationCreateManyInput {
  return {
    id: dcl.id,
    unitId: dcl.unit.id,
    period: dcl.period,
    type: dcl.type,
    cadence: dcl.cadence,
    scheduledFor: isoDay(dcl.scheduledFor),
    grossAmount: money(dcl.gross),
    feeRate: pct6(dcl.unit.feeRate),
    fees: money(split.fees),
    netAmount: money(split.net),
    retainedAmount: money(split.retained),
    status: dcl.status,
    declaredById: adminId,
    approvedAt: dcl.approvedAt ? d(dcl.approvedAt) : null,
    distributedAt: dcl.distributedAt ? d(dcl.distributedAt) : null,
    createdAt: d(dcl.createdAt),
    updatedAt: d(dcl.updatedAt),
  };
}
