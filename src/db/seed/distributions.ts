import type { Prisma } from '../../generated/prisma/client';
import { DistributionStatus, DistributionType, NotificationType, PayoutSource, PayoutStatus, TransactionType } from '../../generated/prisma/enums';
import { cents, sum } from '../../domain/money';
import { fanOut, isPayable } from '../../domain/money-rules';
import type { Columns, Row } from './bulk';
import { HUNDRED, ZERO, money, pct6, pctAt, valueAt } from './holdings';
import type { Ids, PDeclaration, PNotification, Planner, PUnit } from './plan';
import { DAY, HOUR, LAST_PERIOD, MINUTE, d, iso, quarterEnd } from './time';
import { DIST_TYPE_LABEL } from './words';

/** Distributions: a declaration per unit and quarter, fanned out to the holders of record with their payouts. */

/** Every open unit's declarations, quarter by quarter up to LAST_PERIOD (the latest still under review). */
export function planDeclarations(p: Planner, openUnits: PUnit[]): { declarations: PDeclaration[]; distributionCount: number; distributedCount: number } {
  const { rng, ids, tl } = p;
  const declarations: PDeclaration[] = [];
  const distributedAtOf = (year: number, quarter: number) => Date.UTC(year, quarter * 3, 15, 10);
  let distributionCount = 0;
  let distributedCount = 0;
  for (let year = tl.firstYear; year <= LAST_PERIOD.year; year++) {
    for (let quarter = 1; quarter <= 4; quarter++) {
      if (year === LAST_PERIOD.year && quarter > LAST_PERIOD.quarter) break;
      const end = quarterEnd(year, quarter);
      const latest = year === LAST_PERIOD.year && quarter === LAST_PERIOD.quarter;
      for (const unit of openUnits) {
        if (unit.listedAt >= end) continue;
        const created0 = end + 3 * DAY + 8 * HOUR + unit.index * 37 * MINUTE + rng.int(0, 30) * MINUTE;
        const types: DistributionType[] = [unit.category.def.mainType];
        if (rng.chance(0.04)) types.push(DistributionType.INTEREST);
        if (rng.chance(0.03)) types.push(DistributionType.CAPITAL_GAIN);
        types.forEach((type, ti) => {
          const createdAt = created0 + ti * 2 * HOUR + ti * 7 * MINUTE;
          const holders: PDeclaration['holders'] = [];
          for (const h of unit.holdings) {
            const pct = pctAt(h, createdAt);
            if (pct.greaterThan(ZERO)) holders.push({ holding: h, pct });
          }
          if (holders.length === 0) return;
          const value = valueAt(unit, createdAt);
          let factor: number;
          if (type === DistributionType.INTEREST) factor = rng.float(0.0008, 0.002);
          else if (type === DistributionType.CAPITAL_GAIN) factor = rng.float(0.01, 0.03);
          else {
            const seasonal =
              unit.category.def.name === 'Hospitality'
                ? [0.8, 1.05, 1.35, 0.85][quarter - 1]
                : unit.category.def.name === 'Renewable Energy'
                  ? [0.75, 1.2, 1.25, 0.8][quarter - 1]
                  : 1;
            factor = (unit.expectedReturn.toNumber() / 100 / 4) * rng.float(0.85, 1.1) * seasonal;
          }
          const gross = cents(value.times(factor.toFixed(8)));
          let status: DistributionStatus;
          if (latest) status = rng.weighted([DistributionStatus.PENDING, DistributionStatus.APPROVED, DistributionStatus.CANCELLED], [0.47, 0.48, 0.05]);
          else status = rng.chance(0.03) ? DistributionStatus.CANCELLED : DistributionStatus.DISTRIBUTED;
          const approvedAt = status === DistributionStatus.APPROVED || status === DistributionStatus.DISTRIBUTED ? createdAt + rng.int(40, 100) * HOUR : null;
          const distributedAt = status === DistributionStatus.DISTRIBUTED ? distributedAtOf(year, quarter) : null;
          const updatedAt = distributedAt ?? approvedAt ?? (status === DistributionStatus.CANCELLED ? createdAt + rng.int(20, 70) * HOUR : createdAt);
          declarations.push({
            id: 0,
            unit,
            period: `${year}-Q${quarter}`,
            type,
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
 * payout and the DISTRIBUTION and PAYOUT ledger rows, and the holder's last two "paid" notifications.
 */
export function fanOutDeclaration(dcl: PDeclaration, ids: Ids, adminId: number, rows: FanOutRows, lastPaid: Map<number, PNotification[]>): void {
  const unit = dcl.unit;
  const feeRate = unit.feeRate;
  // The unit's availability when declared is what its holders then did not hold.
  const split = fanOut(
    dcl.gross,
    feeRate,
    dcl.holders.map((x) => x.pct),
    HUNDRED.minus(dcl.heldPct),
  );
  const label = `${DIST_TYPE_LABEL[dcl.type]} ${dcl.period}`;
  const distributedAt = dcl.distributedAt ? iso(dcl.distributedAt) : null;
  dcl.holders.forEach(({ holding, pct }, i) => {
    const { gross, fee, net: netI } = split.shares[i];
    const id = ids.take('distributions');
    const investorId = holding.investor.id;
    rows.distributions.push({
      id,
      declaration_id: dcl.id,
      investor_id: investorId,
      unit_id: unit.id,
      period: dcl.period,
      type: dcl.type,
      ownership_percentage: pct6(pct),
      gross_amount: money(gross),
      fees: money(fee),
      net_amount: money(netI),
      status: dcl.status,
      distributed_at: distributedAt,
      created_at: iso(dcl.createdAt + i),
      updated_at: iso(Math.max(dcl.updatedAt, dcl.createdAt + i)),
    });
    if (dcl.status === DistributionStatus.DISTRIBUTED && dcl.distributedAt && isPayable(netI)) {
      const payoutId = ids.take('payouts');
      const reference = `PO-D-${id}`;
      rows.payouts.push({
        id: payoutId,
        investor_id: investorId,
        unit_id: unit.id,
        source: PayoutSource.DISTRIBUTION,
        distribution_id: id,
        withdrawal_request_id: null,
        amount: money(netI),
        status: PayoutStatus.PAID,
        reference,
        paid_at: distributedAt,
        created_at: distributedAt,
        updated_at: distributedAt,
      });
      // The distribution's ledger row, then (paid at once, as payPayout writes it) the PAYOUT row.
      for (const [type, description] of [
        [TransactionType.DISTRIBUTION, `${label} · ${unit.name}`],
        [TransactionType.PAYOUT, `Payout ${reference} · ${unit.name}`],
      ] as const) {
        rows.transactions.push({
          id: ids.take('transactions'),
          investor_id: investorId,
          unit_id: unit.id,
          type,
          amount: money(netI),
          description,
          investment_request_id: null,
          withdrawal_request_id: null,
          distribution_id: id,
          payout_id: payoutId,
          occurred_at: distributedAt,
          created_at: distributedAt,
        });
      }
      const userId = holding.investor.user.id;
      const list = lastPaid.get(userId) ?? [];
      list.push({
        at: dcl.distributedAt + 30 * MINUTE + (id % 600) * 1000,
        type: NotificationType.DISTRIBUTION_DISTRIBUTED,
        title: `${DIST_TYPE_LABEL[dcl.type]} paid`,
        body: `${money(netI)} from ${unit.name} for ${dcl.period} has been paid out.`,
        data: { distributionId: id, payoutId, unitId: unit.id, period: dcl.period },
      });
      if (list.length > 2) list.shift();
      lastPaid.set(userId, list);
    }
  });
  rows.declarations.push({
    id: dcl.id,
    unitId: unit.id,
    period: dcl.period,
    type: dcl.type,
    grossAmount: money(dcl.gross),
    feeRate: pct6(feeRate),
    fees: money(split.fees),
    netAmount: money(split.net),
    retainedAmount: money(split.retained),
    status: dcl.status,
    declaredById: adminId,
    approvedAt: dcl.approvedAt ? d(dcl.approvedAt) : null,
    distributedAt: dcl.distributedAt ? d(dcl.distributedAt) : null,
    createdAt: d(dcl.createdAt),
    updatedAt: d(dcl.updatedAt),
  });
}
