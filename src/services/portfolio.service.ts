import type { AuthUser } from '../domain/auth-user';
import type { Prisma } from '../db/database';
import type { ReadReplicas } from '../db/read-replicas';
import { NotFoundError } from '../domain/errors';
import { present } from '../platform/invariant';
import { Prisma as PrismaNs } from '../generated/prisma/client';
import { DistributionStatus, type TransactionType } from '../generated/prisma/enums';
import { pageQuery, pageWindow, paginate } from './pagination';
import { ownerScope, requireInvestor } from './access';
import { investorScope } from './investor.service';
import { Decimal, HUNDRED, ZERO, cents, dec, sum, type DecimalInput } from '../domain/money';
import { UNPAGED_LIST_MAX, dayRange, listWhere } from './listing';
import { UNIT_REF, type UnitRefView } from './unit.service';

type Db = Pick<Prisma, 'unit'>;

export interface Valuation {
  currentValue: Decimal;
  returnAmount: Decimal;
  returnPercentage: Decimal;
}

export interface TransactionFilterInput {
  type?: TransactionType | null;
  unitId?: number | null;
  from?: Date | null;
  to?: Date | null;
  investorId?: number | null;
}

export const QUARTERS_SHOWN = 8;

const TRANSACTION_SELECT = {
  id: true,
  investorId: true,
  type: true,
  amount: true,
  description: true,
  unit: UNIT_REF,
  investmentRequestId: true,
  withdrawalRequestId: true,
  distributionId: true,
  payoutId: true,
  occurredAt: true,
  createdAt: true,
} satisfies PrismaNs.TransactionSelect;

export type TransactionView = PrismaNs.TransactionGetPayload<{ select: typeof TRANSACTION_SELECT }>;

/**
 * The value of each unit for portfolio purposes: its latest UnitValuation, or its total value
 * when it has never been revalued. One query for all the units asked for.
 */
export async function unitValues(db: Db, unitIds: number[]): Promise<Map<number, { unit: UnitRefView; value: Decimal }>> {
  const units = await db.unit.findMany({
    where: { id: { in: [...new Set(unitIds)] } },
    select: { id: true, code: true, name: true, totalValue: true, valuations: { select: { value: true }, orderBy: { valuedAt: 'desc' }, take: 1 } },
  });
  return new Map(units.map(({ valuations, totalValue, ...unit }) => [unit.id, { unit, value: dec(valuations[0]?.value ?? totalValue) }]));
}

/** Return of an amount invested that is now worth currentValue; the percentage has 2 places. */
export function returnOn(invested: Decimal, currentValue: Decimal): Valuation {
  const returnAmount = currentValue.minus(invested);
  const returnPercentage = invested.isZero() ? ZERO : returnAmount.times(HUNDRED).dividedBy(invested).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  return { currentValue, returnAmount, returnPercentage };
}

/** A share of a unit valued at unitValue: ownership% × value / 100 to the cent, and its return. */
export function valueShare(ownershipPercentage: DecimalInput, investedAmount: DecimalInput, unitValue: Decimal): Valuation {
  return returnOn(dec(investedAmount), cents(dec(ownershipPercentage).times(unitValue).dividedBy(HUNDRED)));
}

/** The first instant (UTC) of the quarter `offset` quarters away from the one holding `at`. */
function quarterStart(at: Date, offset: number): Date {
  const index = at.getUTCFullYear() * 4 + Math.floor(at.getUTCMonth() / 3) + offset;
  return new Date(Date.UTC(Math.floor(index / 4), (index % 4) * 3, 1));
}

const quarterLabel = (start: Date) => `${start.getUTCFullYear()}-Q${Math.floor(start.getUTCMonth() / 3) + 1}`;

/**
 * Net amounts of DISTRIBUTED distributions by the UTC quarter they were paid in: the last
 * `QUARTERS_SHOWN` quarters up to the current one, oldest first, empty quarters as 0. One investor's,
 * or the platform's when `investorId` is undefined. (Portfolio performance and the dashboard's trends.)
 */
export async function distributionsByQuarter(prisma: Prisma, investorId: number | undefined, now = new Date()) {
  const since = quarterStart(now, 1 - QUARTERS_SHOWN);
  const rows = await prisma.$queryRaw<Array<{ year: number; quarter: number; amount: string }>>`
    SELECT EXTRACT(YEAR FROM distributed_at AT TIME ZONE 'UTC')::int AS year,
           EXTRACT(QUARTER FROM distributed_at AT TIME ZONE 'UTC')::int AS quarter,
           SUM(net_amount)::text AS amount
    FROM distributions
    WHERE status = 'DISTRIBUTED' AND distributed_at >= ${since} AND distributed_at < ${quarterStart(now, 1)}
      ${investorId === undefined ? PrismaNs.empty : PrismaNs.sql`AND investor_id = ${investorId}`}
    GROUP BY 1, 2`;
  const byQuarter = new Map(rows.map((q) => [`${q.year}-Q${q.quarter}`, dec(q.amount)]));
  return Array.from({ length: QUARTERS_SHOWN }, (_, i) => {
    const quarter = quarterLabel(quarterStart(since, i));
    return { quarter, amount: byQuarter.get(quarter) ?? ZERO };
  });
}

export class PortfolioService {
  constructor(private readonly reads: ReadReplicas) {}

  /** The caller's own portfolio (investors only). */
  mine(user: AuthUser) {
    return this.ofInvestor(user, requireInvestor(user));
  }

  /**
   * Holdings newest first, each valued; totals and holdingsCount over all of them, `holdings` the
   * newest UNPAGED_LIST_MAX (a plain list: holdingsCount tells a client when there are more).
   * Another investor's id is a 404.
   */
  async ofInvestor(user: AuthUser, investorId: number) {
    const db = this.reads.client;
    const investor = await db.investor.findFirst({ where: { AND: [{ id: investorId }, investorScope(user)] }, select: { id: true } });
    if (!investor) throw new NotFoundError();
    const rows = await db.holding.findMany({
      where: { investorId, ownershipPercentage: { gt: 0 } },
      select: { id: true, unitId: true, ownershipPercentage: true, investedAmount: true },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    });
    const units = await unitValues(
      db,
      rows.map((h) => h.unitId),
    );
    const holdings = rows.map((h) => {
      const { unit, value } = present(units.get(h.unitId), `unit ${h.unitId}`);
      const investedAmount = dec(h.investedAmount);
      return {
        id: h.id,
        unit,
        ownershipPercentage: dec(h.ownershipPercentage),
        investedAmount,
        unitValue: value,
        ...valueShare(h.ownershipPercentage, investedAmount, value),
      };
    });
    const totalInvested = sum(holdings.map((h) => h.investedAmount));
    return {
      investorId,
      holdingsCount: holdings.length,
      totalInvested,
      ...returnOn(totalInvested, sum(holdings.map((h) => h.currentValue))),
      holdings: holdings.slice(0, UNPAGED_LIST_MAX),
    };
  }

  /**
   * Investors: their own performance. Staff: the whole platform (every holding, grouped per unit),
   * or one investor's when `investorId` is given. Totals cover every unit; `holdings` is a plain
   * list of the UNPAGED_LIST_MAX largest (by amount invested).
   */
  async performance(user: AuthUser, investorId?: number | null) {
    const db = this.reads.client;
    const scope = { ...(investorId ? { investorId } : {}), ...ownerScope(user) };
    const distributed = { ...scope, status: DistributionStatus.DISTRIBUTED };
    const [held, received, receivedByUnit, quarterly] = await Promise.all([
      db.holding.groupBy({ by: ['unitId'], where: { ...scope, ownershipPercentage: { gt: 0 } }, _sum: { ownershipPercentage: true, investedAmount: true } }),
      db.distribution.aggregate({ where: distributed, _sum: { netAmount: true } }),
      db.distribution.groupBy({ by: ['unitId'], where: distributed, _sum: { netAmount: true } }),
      distributionsByQuarter(db, scope.investorId),
    ]);

    const receivedOf = new Map(receivedByUnit.map((r) => [r.unitId, dec(r._sum.netAmount ?? 0)]));
    const heldOf = new Map(held.map((h) => [h.unitId, h._sum]));
    const units = await unitValues(db, [...heldOf.keys(), ...receivedOf.keys()]);
    const holdings = [...units.values()]
      .map(({ unit, value }) => {
        const h = heldOf.get(unit.id);
        const ownershipPercentage = dec(h?.ownershipPercentage ?? 0);
        const investedAmount = dec(h?.investedAmount ?? 0);
        return {
          unit,
          ownershipPercentage,
          investedAmount,
          ...valueShare(ownershipPercentage, investedAmount, value),
          distributionsReceived: receivedOf.get(unit.id) ?? ZERO,
        };
      })
      .sort((a, b) => b.investedAmount.comparedTo(a.investedAmount) || a.unit.id - b.unit.id);

    const totalInvested = sum(holdings.map((h) => h.investedAmount));
    return {
      totalInvested,
      ...returnOn(totalInvested, sum(holdings.map((h) => h.currentValue))),
      distributionsReceived: dec(received._sum.netAmount ?? 0),
      distributionsByQuarter: quarterly,
      holdings: holdings.slice(0, UNPAGED_LIST_MAX),
    };
  }

  /** The ledger, newest first by occurredAt (then id). */
  async transactions(user: AuthUser, filter: TransactionFilterInput | null | undefined, page?: number | null, perPage?: number | null) {
    const db = this.reads.client;
    const w = pageWindow(page, perPage);
    const f = filter ?? {};
    const where = {
      ...listWhere(user, f, ['type', 'unitId']),
      occurredAt: dayRange(f.from, f.to),
    };
    return paginate(w, pageQuery(db.transaction, { where, select: TRANSACTION_SELECT, orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }] }));
  }

  async transaction(user: AuthUser, id: number) {
    const db = this.reads.client;
    const row = await db.transaction.findFirst({ where: { id, ...ownerScope(user) }, select: TRANSACTION_SELECT });
    if (!row) throw new NotFoundError();
    return row;
  }
}

/** What the service answers, as the GraphQL object types implement it. */
export type PortfolioView = Awaited<ReturnType<PortfolioService['ofInvestor']>>;
export type PortfolioHoldingView = PortfolioView['holdings'][number];
export type PerformanceView = Awaited<ReturnType<PortfolioService['performance']>>;
export type UnitPerformanceView = PerformanceView['holdings'][number];
