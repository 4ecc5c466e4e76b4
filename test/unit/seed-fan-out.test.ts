import { DistributionStatus, NotificationType, PayoutSource, PayoutStatus, TransactionType } from '../../src/generated/prisma/enums';
import { Decimal, sum } from '../../src/domain/money';
import { fanOut } from '../../src/domain/money-rules';
import { buildPlan } from '../../src/db/seed';
import { declarationRow, distributionPayoutRows, distributionRow, fanOutDeclaration, keepLastPaid, type FanOutRows } from '../../src/db/seed/distributions';
import { HUNDRED } from '../../src/db/seed/holdings';
import { Ids, noRows, type PDeclaration, type PNotification, type Plan } from '../../src/db/seed/plan';
import { fakerStreams } from '../../src/db/seed/random';
import { MINUTE, SHORT_TIMELINE } from '../../src/db/seed/time';
import { TEST_SEED } from '../support/template';

let plan: Plan;
const distributed = () => plan.declarations.find((x) => x.status === DistributionStatus.DISTRIBUTED && x.holders.length > 1)!;
const splitOf = (dcl: PDeclaration) =>
  fanOut(
    dcl.gross,
    dcl.unit.feeRate,
    dcl.holders.map((x) => x.pct),
    HUNDRED.minus(dcl.heldPct),
  );
const note = (at: number): PNotification => ({ at, type: NotificationType.DISTRIBUTION_DISTRIBUTED, title: 't', body: 'b', data: {} });

beforeAll(async () => {
  plan = buildPlan(await fakerStreams(), TEST_SEED.seed, TEST_SEED.investors, SHORT_TIMELINE, new Ids(noRows()));
});

describe('fanOutDeclaration, over every planned declaration', () => {
  const rows: FanOutRows = { declarations: [], distributions: [], payouts: [], transactions: [] };
  const lastPaid = new Map<number, PNotification[]>();
  beforeAll(() => {
    const ids = new Ids(noRows());
    for (const dcl of plan.declarations) fanOutDeclaration(dcl, ids, plan.adminId, rows, lastPaid);
  });

  it("writes a distribution per holder of record, the declaration's gross less what it retains split among them", () => {
    expect(rows.declarations.map((x) => x.id)).toEqual(plan.declarations.map((x) => x.id));
    expect(rows.distributions).toHaveLength(plan.distributionCount);
    for (const dcl of rows.declarations) {
      const own = rows.distributions.filter((x) => x.declaration_id === dcl.id);
      expect(own).toHaveLength(plan.declarations.find((x) => x.id === dcl.id)!.holders.length);
      expect(
        sum(own.map((x) => x.gross_amount as string))
          .plus(dcl.retainedAmount as string)
          .toFixed(2),
      ).toBe(dcl.grossAmount);
      expect(sum(own.map((x) => x.fees as string)).toFixed(2)).toBe(dcl.fees);
      expect(sum(own.map((x) => x.net_amount as string)).toFixed(2)).toBe(dcl.netAmount);
    }
  });

  it('pays each payable share of a distributed declaration once, with a DISTRIBUTION and a PAYOUT ledger row of its amount', () => {
    const payable = rows.distributions.filter((x) => x.status === DistributionStatus.DISTRIBUTED && new Decimal(x.net_amount as string).isPositive());
    expect(payable.length).toBeGreaterThan(0);
    expect(payable.length).toBeLessThanOrEqual(plan.distributedCount);
    expect(rows.payouts.map((x) => x.distribution_id)).toEqual(payable.map((x) => x.id));
    for (const payout of rows.payouts) {
      const ledger = rows.transactions.filter((t) => t.payout_id === payout.id);
      expect(ledger.map((t) => t.type)).toEqual([TransactionType.DISTRIBUTION, TransactionType.PAYOUT]);
      expect(ledger.every((t) => t.amount === payout.amount && t.distribution_id === payout.distribution_id)).toBe(true);
    }
  });

  it('keeps the last two "paid" notifications of each holder', () => {
    const paidUsers = new Map<number, number>();
    for (const payout of rows.payouts) {
      const userId = plan.investors.find((i) => i.id === payout.investor_id)!.user.id;
      paidUsers.set(userId, (paidUsers.get(userId) ?? 0) + 1);
    }
    expect([...lastPaid.keys()].sort()).toEqual([...paidUsers.keys()].sort());
    for (const [userId, count] of paidUsers) expect(lastPaid.get(userId)).toHaveLength(Math.min(2, count));
  });
});

describe("a declaration's rows", () => {
  it("distributionRow: the holder's share, created i ms after the declaration", () => {
    const dcl = distributed();
    const share = splitOf(dcl).shares[1];
    const row = distributionRow(dcl, 501, dcl.holders[1].holding, dcl.holders[1].pct, share, 1);
    expect(row).toMatchObject({
      id: 501,
      declaration_id: dcl.id,
      investor_id: dcl.holders[1].holding.investor.id,
      ownership_percentage: dcl.holders[1].pct.toFixed(6),
      gross_amount: share.gross.toFixed(2),
      fees: share.fee.toFixed(2),
      net_amount: share.net.toFixed(2),
      status: DistributionStatus.DISTRIBUTED,
      scheduled_for: new Date(dcl.scheduledFor).toISOString().slice(0, 10),
      distributed_at: new Date(dcl.distributedAt!).toISOString(),
      created_at: new Date(dcl.createdAt + 1).toISOString(),
    });
    expect(Date.parse(row.updated_at as string)).toBeGreaterThanOrEqual(dcl.createdAt + 1);
    const pending = plan.declarations.find((x) => x.status === DistributionStatus.PENDING)!;
    expect(distributionRow(pending, 502, pending.holders[0].holding, pending.holders[0].pct, splitOf(pending).shares[0], 0).distributed_at).toBeNull();
  });

  it('distributionPayoutRows: a PAID payout, its two ledger rows and the notification, on the next ids', () => {
    const dcl = distributed();
    const ids = new Ids({ ...noRows(), payouts: 40, transactions: 90 });
    const { holding } = dcl.holders[0];
    const paid = distributionPayoutRows(dcl, dcl.distributedAt!, 7, holding, new Decimal('12.5'), ids);
    const at = new Date(dcl.distributedAt!).toISOString();
    expect(paid.payout).toMatchObject({
      id: 41,
      source: PayoutSource.DISTRIBUTION,
      distribution_id: 7,
      amount: '12.50',
      status: PayoutStatus.PAID,
      reference: 'PO-D-7',
      paid_at: at,
    });
    expect(paid.transactions.map((t) => [t.id, t.type, t.payout_id, t.occurred_at])).toEqual([
      [91, TransactionType.DISTRIBUTION, 41, at],
      [92, TransactionType.PAYOUT, 41, at],
    ]);
    expect(paid.transactions[1].description).toBe(`Payout PO-D-7 · ${dcl.unit.name}`);
    expect(paid.note).toMatchObject({ at: dcl.distributedAt! + 30 * MINUTE + 7000, data: { distributionId: 7, payoutId: 41, unitId: dcl.unit.id } });
  });

  it('keepLastPaid: the last two of a user, in order', () => {
    const lastPaid = new Map<number, PNotification[]>();
    for (const at of [1, 2, 3]) keepLastPaid(lastPaid, 5, note(at));
    keepLastPaid(lastPaid, 6, note(4));
    expect(lastPaid.get(5)!.map((n) => n.at)).toEqual([2, 3]);
    expect(lastPaid.get(6)!.map((n) => n.at)).toEqual([4]);
  });

  it("declarationRow: the split's totals, fees + net + retained = gross", () => {
    const dcl = distributed();
    const split = splitOf(dcl);
    const row = declarationRow(dcl, split, 3);
    expect(row).toMatchObject({ id: dcl.id, declaredById: 3, feeRate: dcl.unit.feeRate.toFixed(6), status: DistributionStatus.DISTRIBUTED });
    expect(sum([row.fees as string, row.netAmount as string, row.retainedAmount as string]).toFixed(2)).toBe(row.grossAmount);
    expect(row.distributedAt).toEqual(new Date(dcl.distributedAt!));
  });
});
