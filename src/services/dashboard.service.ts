import type { AuthUser } from '../domain/auth-user';
import type { ReadReplicas } from '../db/read-replicas';
import { Prisma as PrismaNs } from '../generated/prisma/client';
import { ownerScope } from './access';
import { CategoryService, type CategoryView } from './category.service';
import { cents, dec, type Decimal, type DecimalInput } from '../domain/money';
import { PortfolioService, distributionsByQuarter, type TransactionView } from './portfolio.service';
import { UnitService, type UnitView } from './unit.service';

/** A unit's identity (as UnitView has it) with its value then and now. */
export type TopGainerView = Pick<UnitView, 'id' | 'code' | 'name' | 'imageUrl' | 'category'> & {
  previousValue: Decimal;
  currentValue: Decimal;
  changePercentage: Decimal;
};

export interface QuarterView {
  quarter: string;
  amount: Decimal;
}

export interface SummaryView {
  holdingsCount: number;
  totalInvested: Decimal;
  currentValue: Decimal;
  totalReturn: Decimal;
  totalDistributionsReceived: Decimal;
  pendingRequests: number;
}

export interface DashboardView {
  featuredCategories: CategoryView[];
  topGainers: TopGainerView[];
  newListings: UnitView[];
  trends: QuarterView[];
  recentActivity: TransactionView[];
  summary: SummaryView;
}

export const TOP_GAINERS = 5;
export const NEW_LISTINGS = 5;
export const RECENT_ACTIVITY = 10;

interface GainerRow {
  id: number;
  code: string;
  name: string;
  image_url: string | null;
  category_id: number;
  category_name: string;
  category_slug: string;
  previous_value: DecimalInput;
  current_value: DecimalInput;
}

interface SummaryRow {
  holdings_count: number;
  total_invested: DecimalInput;
  /** Σ over holdings of ownership% × latest value / 100 in cents (each holding rounded to the cent). */
  value_cents: DecimalInput;
  distributions: DecimalInput;
  pending: number;
}

/**
 * The investment marketplace. Every part is one aggregate query (or a reused catalogue or ledger query),
 * and the parts run in parallel. Investor-scoped parts (trends, recent activity, summary) cover
 * the investor's own records; for staff they cover the whole platform.
 */
export class DashboardService {
  private readonly categories: CategoryService;
  private readonly units: UnitService;
  private readonly portfolio: PortfolioService;

  /** Every part reads from a replica when there are some (DATABASE_READ_URLS). */
  constructor(private readonly reads: ReadReplicas) {
    this.categories = new CategoryService(reads.primary, reads);
    this.units = new UnitService(reads.primary, reads);
    this.portfolio = new PortfolioService(reads);
  }

  async get(user: AuthUser, now = new Date()): Promise<DashboardView> {
    const investorId = ownerScope(user).investorId ?? null;
    const [featuredCategories, topGainers, newListings, trends, recentActivity, summary] = await Promise.all([
      this.categories.list(user, { where: { isFeatured: true } }),
      this.topGainers(now),
      this.units.newest(user, NEW_LISTINGS),
      distributionsByQuarter(this.reads.client, investorId ?? undefined, now),
      this.portfolio.transactions(user, null, 1, RECENT_ACTIVITY).then((page) => page.items),
      this.summary(investorId),
    ]);
    return { featuredCategories, topGainers, newListings, trends, recentActivity, summary };
  }

  /**
   * AVAILABLE units whose value rose most over the last 12 months: latest valuation against the
   * latest one at or before the cut-off (the offering value, totalValue, where there is none).
   * Only rises count; ties go to the lower id.
   */
  private async topGainers(now: Date): Promise<TopGainerView[]> {
    const since = new Date(now);
    since.setUTCFullYear(since.getUTCFullYear() - 1);
    const rows = await this.reads.client.$queryRaw<GainerRow[]>`
      WITH latest AS (
        SELECT DISTINCT ON (unit_id) unit_id, value FROM unit_valuations WHERE valued_at <= ${now} ORDER BY unit_id, valued_at DESC
      ), base AS (
        SELECT DISTINCT ON (unit_id) unit_id, value FROM unit_valuations WHERE valued_at <= ${since} ORDER BY unit_id, valued_at DESC
      ), valued AS (
        SELECT u.id, u.code, u.name, u.image_url, c.id AS category_id, c.name AS category_name, c.slug AS category_slug,
               COALESCE(base.value, u.total_value) AS previous_value, COALESCE(latest.value, u.total_value) AS current_value
        FROM units u
        JOIN categories c ON c.id = u.category_id
        LEFT JOIN latest ON latest.unit_id = u.id
        LEFT JOIN base ON base.unit_id = u.id
        WHERE u.status = 'AVAILABLE'
      )
      SELECT * FROM valued
      WHERE current_value > previous_value
      ORDER BY (current_value - previous_value) / previous_value DESC, id ASC
      LIMIT ${TOP_GAINERS}`;
    return rows.map((r) => {
      const previousValue = dec(r.previous_value);
      const currentValue = dec(r.current_value);
      return {
        id: r.id,
        code: r.code,
        name: r.name,
        imageUrl: r.image_url,
        category: { id: r.category_id, name: r.category_name, slug: r.category_slug },
        previousValue,
        currentValue,
        changePercentage: cents(currentValue.minus(previousValue).times(100).dividedBy(previousValue)),
      };
    });
  }

  /**
   * current value = Σ ownership% × latest valuation / 100, each holding rounded to the cent (as the
   * portfolio values holdings); ROUND(pct × value) is that amount in cents, exactly.
   */
  private async summary(investorId: number | null): Promise<SummaryView> {
    const [row] = await this.reads.client.$queryRaw<SummaryRow[]>`
      WITH latest AS (
        SELECT DISTINCT ON (unit_id) unit_id, value FROM unit_valuations ORDER BY unit_id, valued_at DESC
      ), held AS (
        SELECT COUNT(*)::int AS holdings_count,
               COALESCE(SUM(holdings.invested_amount), 0) AS total_invested,
               COALESCE(SUM(ROUND(holdings.ownership_percentage * COALESCE(latest.value, u.total_value))), 0) AS value_cents
        FROM holdings
        JOIN units u ON u.id = holdings.unit_id
        LEFT JOIN latest ON latest.unit_id = holdings.unit_id
        WHERE holdings.ownership_percentage > 0 ${mine('holdings', investorId)}
      )
      SELECT held.*,
        (SELECT COALESCE(SUM(net_amount), 0) FROM distributions WHERE status = 'DISTRIBUTED' ${mine('distributions', investorId)}) AS distributions,
        ((SELECT COUNT(*) FROM investment_requests WHERE status = 'PENDING' ${mine('investment_requests', investorId)})
          + (SELECT COUNT(*) FROM withdrawal_requests WHERE status = 'PENDING' ${mine('withdrawal_requests', investorId)}))::int AS pending
      FROM held`;
    const totalInvested = dec(row.total_invested);
    const currentValue = dec(row.value_cents).dividedBy(100);
    return {
      holdingsCount: row.holdings_count,
      totalInvested,
      currentValue,
      totalReturn: currentValue.minus(totalInvested),
      totalDistributionsReceived: dec(row.distributions),
      pendingRequests: row.pending,
    };
  }
}

/** `AND <table>.investor_id = …` for an investor; nothing for staff (platform-wide). */
function mine(table: 'holdings' | 'distributions' | 'investment_requests' | 'withdrawal_requests', investorId: number | null): PrismaNs.Sql {
  return investorId === null ? PrismaNs.empty : PrismaNs.sql`AND ${PrismaNs.raw(table)}.investor_id = ${investorId}`;
}
