import type { ReadReplicas } from '../db/read-replicas';
import { ValidationError } from '../domain/errors';
import { DistributionStatus, WithdrawalRequestStatus } from '../generated/prisma/enums';
import { UNPAGED_LIST_MAX } from './listing';
import { ZERO, dec, type DecimalInput } from '../domain/money';

export type DistributionGroupingInput = 'PERIOD' | 'UNIT';

export interface DistributionTotalsFilterInput {
  fromPeriod?: string | null;
  toPeriod?: string | null;
  unitId?: number | null;
  status?: DistributionStatus | null;
}

interface AumRow {
  category_id: number;
  category: string;
  units_count: number;
  invested_total: DecimalInput;
  current_value_total: DecimalInput;
  holders_count: number;
}

const SUMS = { _sum: { grossAmount: true, fees: true, netAmount: true }, _count: { _all: true } } as const;

interface Sums {
  _sum: { grossAmount: DecimalInput | null; fees: DecimalInput | null; netAmount: DecimalInput | null };
  _count: { _all: number };
}

const totals = (g: Sums) => ({
  count: g._count._all,
  grossAmount: dec(g._sum.grossAmount ?? ZERO),
  fees: dec(g._sum.fees ?? ZERO),
  netAmount: dec(g._sum.netAmount ?? ZERO),
});

/** The groups of a report, refused when there are more than a plain list answers. */
function within<T>(groups: T[]): T[] {
  if (groups.length > UNPAGED_LIST_MAX) {
    throw ValidationError.field('filter', `More than ${UNPAGED_LIST_MAX} groups match: narrow the period range (fromPeriod, toPeriod).`);
  }
  return groups;
}

/** Read-only aggregates for analysts and admins, computed by the database (GROUP BY), never row by row. */
export class AnalyticsService {
  constructor(private readonly reads: ReadReplicas) {}

  /**
   * Per category (every category, by name): listed units, invested and current value of the
   * holdings, distinct holders. A holding's current value is its % of the unit's latest valuation
   * (the offering value when there is none), rounded to the cent. One row per category, and the
   * catalogue holds at most UNPAGED_LIST_MAX (CategoryService.create): the LIMIT cuts nothing.
   */
  async assetsUnderManagement() {
    const db = this.reads.client;
    const rows = await db.$queryRaw<AumRow[]>`
      WITH unit_value AS (
        SELECT u.id, u.category_id, u.status,
               COALESCE((SELECT v.value FROM unit_valuations v WHERE v.unit_id = u.id ORDER BY v.valued_at DESC LIMIT 1), u.total_value) AS value
        FROM units u
      )
      SELECT c.id AS category_id, c.name AS category,
             (COUNT(DISTINCT uv.id) FILTER (WHERE uv.status <> 'DRAFT'))::int AS units_count,
             COALESCE(SUM(h.invested_amount), 0) AS invested_total,
             COALESCE(SUM(ROUND(h.ownership_percentage * uv.value / 100, 2)), 0) AS current_value_total,
             COUNT(DISTINCT h.investor_id)::int AS holders_count
      FROM categories c
      LEFT JOIN unit_value uv ON uv.category_id = c.id
      LEFT JOIN holdings h ON h.unit_id = uv.id
      GROUP BY c.id, c.name
      ORDER BY c.name, c.id
      LIMIT ${UNPAGED_LIST_MAX}`;
    return rows.map((r) => ({
      categoryId: r.category_id,
      category: r.category,
      unitsCount: r.units_count,
      investedTotal: dec(r.invested_total),
      currentValueTotal: dec(r.current_value_total),
      holdersCount: r.holders_count,
    }));
  }

  /**
   * Sums of the holders' distributions per period (oldest first) or per unit (by id). A report that
   * silently lost groups would mislead, so more than UNPAGED_LIST_MAX groups are refused (422): the
   * period range narrows it.
   */
  async distributionTotals(filter: DistributionTotalsFilterInput | null | undefined, groupBy: DistributionGroupingInput) {
    const db = this.reads.client;
    const f = filter ?? {};
    if (f.fromPeriod && f.toPeriod && f.fromPeriod > f.toPeriod) {
      throw ValidationError.field('toPeriod', 'The to period field must be a period after or equal to from period.');
    }
    // "YYYY-Qn" sorts as text in time order, so the range is a plain string comparison.
    const where = {
      ...(f.fromPeriod || f.toPeriod ? { period: { ...(f.fromPeriod ? { gte: f.fromPeriod } : {}), ...(f.toPeriod ? { lte: f.toPeriod } : {}) } } : {}),
      ...(f.unitId ? { unitId: f.unitId } : {}),
      status: f.status ?? { not: DistributionStatus.CANCELLED },
    };
    if (groupBy === 'PERIOD') {
      const groups = within(await db.distribution.groupBy({ by: ['period'], where, ...SUMS, orderBy: { period: 'asc' }, take: UNPAGED_LIST_MAX + 1 }));
      return groups.map((g) => ({ period: g.period, unitId: null, unitName: null, ...totals(g) }));
    }
    const groups = within(await db.distribution.groupBy({ by: ['unitId'], where, ...SUMS, orderBy: { unitId: 'asc' }, take: UNPAGED_LIST_MAX + 1 }));
    const units = await db.unit.findMany({ where: { id: { in: groups.map((g) => g.unitId) } }, select: { id: true, name: true } });
    const names = new Map(units.map((u) => [u.id, u.name]));
    return groups.map((g) => ({ period: null, unitId: g.unitId, unitName: names.get(g.unitId) ?? null, ...totals(g) }));
  }

  /** One row per status, in the machine's order, zeros included. */
  async withdrawalVolumes() {
    const db = this.reads.client;
    const groups = await db.withdrawalRequest.groupBy({
      by: ['status'],
      _count: { _all: true },
      _sum: { ownershipPercentage: true, investedAmount: true },
    });
    return Object.values(WithdrawalRequestStatus).map((status) => {
      const g = groups.find((x) => x.status === status);
      return {
        status,
        count: g?._count._all ?? 0,
        ownershipPercentage: dec(g?._sum.ownershipPercentage ?? ZERO),
        investedAmount: dec(g?._sum.investedAmount ?? ZERO),
      };
    });
  }
}

/** What the service answers, as the GraphQL object types implement it. */
export type CategoryAumView = Awaited<ReturnType<AnalyticsService['assetsUnderManagement']>>[number];
type Total = Awaited<ReturnType<AnalyticsService['distributionTotals']>>[number];
/** One shape for both groupings (by period the unit fields are null, by unit the period is). */
export type DistributionTotalView = { [K in keyof Total]: Total[K] };
export type WithdrawalVolumeView = Awaited<ReturnType<AnalyticsService['withdrawalVolumes']>>[number];
