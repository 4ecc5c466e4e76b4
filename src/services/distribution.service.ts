import type { AuthUser } from '../domain/auth-user';
import type { Prisma } from '../db/database';
import type { ReadReplicas } from '../db/read-replicas';
import { ConflictError, NotFoundError, ValidationError, type FieldErrors } from '../domain/errors';
import { present } from '../platform/invariant';
import { Prisma as PrismaNs } from '../generated/prisma/client';
import { DistributionCadence, DistributionStatus, NotificationType, PayoutSource, TransactionType, type DistributionType } from '../generated/prisma/enums';
import { pageQuery, pageWindow, paginate, type Page } from './pagination';
import { ownerScope } from './access';
import { dec, type DecimalInput } from '../domain/money';
import { fanOut, isPayable } from '../domain/money-rules';
import { DAY_MS, defaultScheduledFor, distributionName, isSchedulable, MAX_SCHEDULE_DAYS, paymentDate } from '../domain/distribution-rules';
import { notify, type Money } from './notification.service';
import { DISTRIBUTION, moveStatus } from './state-machine';
import { dayRange, listWhere } from './listing';
import { audit, pick } from './audit.service';
import { recordOnce, writeOnce } from './idempotency.service';
import { unknownUnit } from './unit.service';

export interface DistributionFilterInput {
  status?: DistributionStatus | null;
  profitKind?: DistributionType | null;
  /** Deprecated alias of profitKind (ignored when profitKind is given). */
  type?: DistributionType | null;
  cadence?: DistributionCadence | null;
  unitId?: number | null;
  period?: string | null;
  from?: Date | null;
  to?: Date | null;
  investorId?: number | null;
}

export interface DeclarationFilterInput {
  unitId?: number | null;
  period?: string | null;
  status?: DistributionStatus | null;
  cadence?: DistributionCadence | null;
}

export interface DeclareDistributionData {
  unitId: number;
  period: string;
  profitKind?: DistributionType | null;
  /** Deprecated alias of profitKind (ignored when profitKind is given). */
  type?: DistributionType | null;
  /** Default QUARTERLY: a period is a quarter. */
  cadence?: DistributionCadence | null;
  /** A UTC date; default defaultScheduledFor(period, today). */
  scheduledFor?: Date | null;
  grossAmount: DecimalInput;
  feeRate: DecimalInput;
}

const SELECT = {
  id: true,
  unitId: true,
  investorId: true,
  period: true,
  type: true,
  cadence: true,
  scheduledFor: true,
  ownershipPercentage: true,
  grossAmount: true,
  netAmount: true,
  fees: true,
  status: true,
  distributedAt: true,
  createdAt: true,
  unit: { select: { name: true } },
} satisfies PrismaNs.DistributionSelect;

type Row = PrismaNs.DistributionGetPayload<{ select: typeof SELECT }>;

/**
 * A holder's distribution: its columns (SELECT) with the unit's name flattened, and the names the
 * API answers them by: profitKind (the column `type`), paidAt (the column `distributed_at`) and the
 * payment date. `type` and `distributedAt` stay for the deprecated GraphQL fields of those names.
 */
export type DistributionView = Omit<Row, 'unit'> & { unitName: string; profitKind: DistributionType; paidAt: Date | null; paymentDate: Date };

/** A list's filter: listWhere's equalities plus the payment-date range. */
interface ListWhere {
  investorId?: number;
  status?: DistributionStatus;
  type?: DistributionType;
  cadence?: DistributionCadence;
  unitId?: number;
  period?: string;
  payment?: { gte?: Date; lt?: Date };
}

interface PageRow {
  id: number;
  unit_id: number;
  unit_name: string;
  investor_id: number;
  period: string;
  type: DistributionType;
  cadence: DistributionCadence;
  scheduled_for: Date;
  // numeric as text: parsed once, by dec(), rather than into Prisma's Decimal and again into ours.
  ownership_percentage: string;
  gross_amount: string;
  net_amount: string;
  fees: string;
  status: DistributionStatus;
  distributed_at: Date | null;
  created_at: Date;
  /** The whole filter's count, when asked for. */
  total?: number;
}

/** Where a staff list's total is kept in distribution_totals (migrations distribution_totals, distribution_cadence). */
type TotalSource = { key: string } | { status: DistributionStatus | null; gte?: Date; lt?: Date } | null;

const isUtcMidnight = (d: Date | undefined) => d === undefined || d.getTime() % DAY_MS === 0;

/**
 * One row (no filter, one of status, type, cadence, unit, period, or status and one of the others),
 * or the days of a payment-date range of whole UTC days (with or without a status); null: any other
 * mix.
 */
function totalSource({ status, type, cadence, unitId, period, payment }: ListWhere): TotalSource {
  const others = [
    type && `type|${type}`,
    cadence && `cadence|${cadence}`,
    unitId !== undefined && `unit|${unitId}`,
    period !== undefined && `period|${period}`,
  ].filter((k): k is string => typeof k === 'string');
  if (payment) {
    const { gte, lt } = payment;
    return others.length === 0 && isUtcMidnight(gte) && isUtcMidnight(lt) ? { status: status ?? null, gte, lt } : null;
  }
  const keys = [...(status ? [`status|${status}`] : []), ...others];
  if (keys.length <= 1) return { key: keys[0] ?? '' };
  return keys.length === 2 && status ? { key: keys.join('|') } : null;
}

function toView({ unit, ...row }: Row): DistributionView {
  return { ...row, unitName: unit.name, profitKind: row.type, paidAt: row.distributedAt, paymentDate: paymentDate(row.distributedAt, row.scheduledFor) };
}

const DECLARATION_SELECT = {
  id: true,
  unitId: true,
  period: true,
  type: true,
  cadence: true,
  scheduledFor: true,
  grossAmount: true,
  feeRate: true,
  fees: true,
  netAmount: true,
  retainedAmount: true,
  status: true,
  declaredById: true,
  approvedAt: true,
  distributedAt: true,
  createdAt: true,
  updatedAt: true,
  unit: { select: { name: true } },
  _count: { select: { distributions: true } },
} satisfies PrismaNs.DistributionDeclarationSelect;

type Tx = PrismaNs.TransactionClient;
type DeclarationRow = PrismaNs.DistributionDeclarationGetPayload<{ select: typeof DECLARATION_SELECT }>;

/**
 * A declaration's columns (DECLARATION_SELECT) with the unit's name, the number of holders, and
 * profitKind and paidAt (the columns `type` and `distributed_at`, as on DistributionView).
 */
export type DeclarationView = Omit<DeclarationRow, 'unit' | '_count'> & {
  unitName: string;
  holdersCount: number;
  profitKind: DistributionType;
  paidAt: Date | null;
};
/** What a detail answers besides its holders' rows, which are paged in SQL (declarationRows). */
export type DeclarationDetailView = DeclarationView;

function toDeclarationView({ unit, _count, ...row }: DeclarationRow): DeclarationView {
  return { ...row, unitName: unit.name, holdersCount: _count.distributions, profitKind: row.type, paidAt: row.distributedAt };
}

async function declarationDetail(db: Tx | Prisma, id: number): Promise<DeclarationDetailView> {
  const row = await db.distributionDeclaration.findUnique({ where: { id }, select: DECLARATION_SELECT });
  if (!row) throw new NotFoundError();
  return toDeclarationView(row);
}

/**
 * A declaration transition, mirrored on its holders' rows: the guarded write on the declaration
 * makes a concurrent transition a 409, and the rows follow in the same transaction.
 */
async function moveDeclaration(tx: Tx, id: number, to: DistributionStatus, data: { approvedAt?: Date; distributedAt?: Date } = {}) {
  const row = await tx.distributionDeclaration.findUnique({ where: { id }, select: { status: true } });
  if (!row) throw new NotFoundError();
  await moveStatus(DISTRIBUTION, tx.distributionDeclaration, { id, status: row.status }, to, data);
  await audit.transition(tx, 'distribution_declaration', id, row.status, to, data);
  await tx.distribution.updateMany({ where: { declarationId: id, status: row.status }, data: { status: to, distributedAt: data.distributedAt } });
}

/** The payment date (paidAt, else scheduledFor at 00:00 UTC) in SQL: the lists' date filter. */
const PAYMENT_DATE = PrismaNs.sql`COALESCE(distributed_at, scheduled_for::timestamp AT TIME ZONE 'UTC')`;

/** A list's filter as the WHERE clause of the distributions table (empty without one). */
function whereSql(where: ListWhere): PrismaNs.Sql {
  const conditions = [
    where.investorId !== undefined && PrismaNs.sql`investor_id = ${where.investorId}`,
    where.status && PrismaNs.sql`status = CAST(${where.status} AS "DistributionStatus")`,
    where.type && PrismaNs.sql`type = CAST(${where.type} AS "DistributionType")`,
    where.cadence && PrismaNs.sql`cadence = CAST(${where.cadence} AS "DistributionCadence")`,
    where.unitId !== undefined && PrismaNs.sql`unit_id = ${where.unitId}`,
    where.period !== undefined && PrismaNs.sql`period = ${where.period}`,
    where.payment?.gte && PrismaNs.sql`${PAYMENT_DATE} >= ${where.payment.gte}`,
    where.payment?.lt && PrismaNs.sql`${PAYMENT_DATE} < ${where.payment.lt}`,
    // Implied by the checks distributions_paid_after_declared and
    // distributions_scheduled_from_declared_day; lets the scan start near `to`.
    where.payment?.lt && PrismaNs.sql`created_at < ${new Date(where.payment.lt.getTime() + DAY_MS)}`,
  ].filter((c): c is PrismaNs.Sql => Boolean(c));
  return conditions.length ? PrismaNs.sql`WHERE ${PrismaNs.join(conditions, ' AND ')}` : PrismaNs.empty;
}

/** A keyed retry whose first answer was lost gets the declaration as it now stands, written once (writeOnce). */
const once = (tx: Tx) => recordOnce('distribution_declaration', (id) => declarationDetail(tx, id));

export class DistributionService {
  constructor(
    private readonly prisma: Prisma,
    private readonly reads: ReadReplicas,
  ) {}

  /** Newest first (created_at, then id, both descending). */
  async list(
    user: AuthUser,
    filter: DistributionFilterInput | null | undefined,
    page?: number | null,
    perPage?: number | null,
  ): Promise<Page<DistributionView>> {
    const db = this.reads.client;
    const w = pageWindow(page, perPage);
    const f = filter ?? {};
    const kind = f.profitKind ?? f.type;
    const where: ListWhere = {
      ...listWhere(user, f, ['status', 'cadence', 'unitId', 'period']),
      ...(kind && { type: kind }),
      payment: dayRange(f.from, f.to),
    };
    return paginate(w, {
      rows: (window) => this.page(db, where, window).then(({ rows }) => rows),
      count: () => this.count(db, where),
      // One investor's rows are counted (count below): the count rides in the page's statement.
      ...(where.investorId !== undefined && { countedRows: (window: { skip: number; take: number }) => this.page(db, where, window, true) }),
    });
  }

  /**
   * One page, newest first, as a deferred join: the page's ids come from the index that matches
   * the filter and the order (an index range scan, however deep the page), and only those rows are
   * read and joined to their unit. With Prisma's findMany the unit join ran for every skipped row
   * (page 500 = 7,500 lookups). One statement, like the findMany it replaces. With `counted`, each
   * row also carries the count of the whole filter (an uncorrelated subquery, run once): `total`,
   * undefined when the window is empty.
   */
  private async page(
    db: Prisma,
    where: ListWhere,
    { skip, take }: { skip: number; take: number },
    counted = false,
  ): Promise<{ rows: DistributionView[]; total: number | undefined }> {
    const filter = whereSql(where);
    const rows = await db.$queryRaw<PageRow[]>`
      SELECT d.id, d.unit_id, u.name AS unit_name, d.investor_id, d.period, d.type::text AS type, d.cadence::text AS cadence, d.scheduled_for,
             d.ownership_percentage::text AS ownership_percentage, d.gross_amount::text AS gross_amount, d.net_amount::text AS net_amount,
             d.fees::text AS fees, d.status::text AS status, d.distributed_at, d.created_at
             ${counted ? PrismaNs.sql`, (SELECT count(*) FROM distributions ${filter})::int AS total` : PrismaNs.empty}
      FROM distributions d JOIN units u ON u.id = d.unit_id
      WHERE d.id IN (SELECT id FROM distributions ${filter} ORDER BY created_at DESC, id DESC LIMIT ${take} OFFSET ${skip})
      ORDER BY d.created_at DESC, d.id DESC`;
    const views = rows.map((r) =>
      toView({
        id: r.id,
        unitId: r.unit_id,
        unit: { name: r.unit_name },
        investorId: r.investor_id,
        period: r.period,
        type: r.type,
        cadence: r.cadence,
        scheduledFor: r.scheduled_for,
        ownershipPercentage: dec(r.ownership_percentage),
        grossAmount: dec(r.gross_amount),
        netAmount: dec(r.net_amount),
        fees: dec(r.fees),
        status: r.status,
        distributedAt: r.distributed_at,
        createdAt: r.created_at,
      }),
    );
    return { rows: views, total: rows[0]?.total };
  }

  /**
   * The exact total of a list, from counts that triggers keep in the writing transaction, so it
   * is exact in every snapshot. One investor's rows are few and indexed: counted. Unfiltered, on
   * one of status, type, cadence, unit, period, or on status and one other: one row of
   * distribution_totals. A payment-date range of whole UTC days (the API's Date filters), with or
   * without a status: the sum of its days there. Any other mix sums distribution_counts (per unit,
   * period, type, cadence, status and payment date) through its most selective filter's index
   * (docs/benchmarks.md).
   */
  private async count(db: Prisma, where: ListWhere): Promise<number> {
    if (where.investorId !== undefined) {
      const [{ n }] = await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM distributions ${whereSql(where)}`;
      return n;
    }
    const source = totalSource(where);
    if (source && 'key' in source) return (await db.distributionTotal.findUnique({ where: { key: source.key }, select: { n: true } }))?.n ?? 0;
    const { payment, ...equalities } = where;
    const { _sum } = source
      ? await db.distributionTotal.aggregate({ where: { status: source.status, paymentDay: { gte: source.gte, lt: source.lt } }, _sum: { n: true } })
      : await db.distributionCount.aggregate({ where: { ...equalities, paymentAt: payment }, _sum: { n: true } });
    return _sum.n ?? 0;
  }

  async get(user: AuthUser, id: number): Promise<DistributionView> {
    const db = this.reads.client;
    const row = await db.distribution.findFirst({ where: { id, ...ownerScope(user) }, select: SELECT });
    if (!row) throw new NotFoundError();
    return toView(row);
  }

  /** Staff: declarations, newest first (created_at, then id, both descending). */
  async listDeclarations(filter: DeclarationFilterInput | null | undefined, page?: number | null, perPage?: number | null) {
    const db = this.reads.client;
    const w = pageWindow(page, perPage);
    const f = filter ?? {};
    const where = {
      ...(f.unitId ? { unitId: f.unitId } : {}),
      ...(f.period ? { period: f.period } : {}),
      ...(f.status ? { status: f.status } : {}),
      ...(f.cadence ? { cadence: f.cadence } : {}),
    };
    return paginate(w, pageQuery(db.distributionDeclaration, { where, select: DECLARATION_SELECT, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }), (rows) =>
      rows.map(toDeclarationView),
    );
  }

  getDeclaration(id: number) {
    return declarationDetail(this.reads.client, id);
  }

  /**
   * One page of a declaration's holder rows, in holding order (id ascending, as they were written):
   * only the window is read, however many holders the unit has. After a mutation the request is
   * pinned to the primary (pinToPrimary), so the page shows what the mutation committed.
   */
  async declarationRows(declarationId: number, { skip, take }: { skip: number; take: number }): Promise<DistributionView[]> {
    const page = pageQuery(this.reads.client.distribution, { where: { declarationId }, select: SELECT, orderBy: { id: 'asc' } });
    const rows = await page.rows({ skip, take });
    return rows.map(toView);
  }

  /**
   * Declares a unit's profit for a period and fans it out to the current holders: the gross is
   * allocated over [each holder's %, the unit's unsold %] so the parts sum exactly to the gross; the
   * unsold part is retained. Each holder's fee is rounded to the cent and net = gross − fee. The unit
   * row is locked, so holdings cannot move (and no twin declaration can slip in) meanwhile. The
   * cadence defaults to QUARTERLY and the scheduled date to defaultScheduledFor.
   */
  async declare(user: AuthUser, data: DeclareDistributionData) {
    const gross = dec(data.grossAmount);
    const feeRate = dec(data.feeRate);
    const today = new Date();
    const kind = data.profitKind ?? data.type;
    const cadence = data.cadence ?? DistributionCadence.QUARTERLY;
    const scheduledFor = data.scheduledFor ?? defaultScheduledFor(data.period, today);
    const fields: FieldErrors = {};
    if (!kind) fields.profitKind = ['The profit kind field is required.'];
    if (!isSchedulable(scheduledFor, today)) {
      fields.scheduledFor = [`The scheduled for field must be a date from today to ${MAX_SCHEDULE_DAYS} days ahead.`];
    }
    Object.assign(fields, await unknownUnit(this.prisma, data.unitId));
    if (!kind || Object.keys(fields).length) throw new ValidationError(fields);
    const key = { unitId: data.unitId, period: data.period, type: kind, cadence, scheduledFor };

    return this.prisma.$transaction((tx) =>
      writeOnce(tx, once(tx), async () => {
        const [unit] = await tx.$queryRaw<{ available_percentage: DecimalInput }[]>`
        SELECT available_percentage FROM units WHERE id = ${data.unitId} FOR NO KEY UPDATE`;
        const twin = await tx.distributionDeclaration.findUnique({ where: { unitId_period_type_cadence_scheduledFor: key }, select: { id: true } });
        if (twin) {
          const day = scheduledFor.toISOString().slice(0, 10);
          throw new ConflictError(
            `A ${distributionName(cadence, kind).toLowerCase()} distribution of this unit for ${data.period}, paid on ${day}, has already been declared.`,
          );
        }
        const holders = await tx.holding.findMany({
          where: { unitId: data.unitId, ownershipPercentage: { gt: 0 } },
          select: { investorId: true, ownershipPercentage: true },
          orderBy: { id: 'asc' },
        });
        if (holders.length === 0) throw new ConflictError('This unit has no holders to distribute to.');

        const split = fanOut(
          gross,
          feeRate,
          holders.map((h) => h.ownershipPercentage),
          unit.available_percentage,
        );
        const shares = holders.map((h, i) => ({ ...h, ...split.shares[i] }));
        const declaration = await tx.distributionDeclaration.create({
          data: {
            ...key,
            grossAmount: gross.toFixed(2),
            feeRate: feeRate.toFixed(6),
            fees: split.fees.toFixed(2),
            netAmount: split.net.toFixed(2),
            retainedAmount: split.retained.toFixed(2),
            declaredById: user.id,
          },
          select: { id: true },
        });
        await tx.distribution.createMany({
          data: shares.map((s) => ({
            ...key,
            declarationId: declaration.id,
            investorId: s.investorId,
            ownershipPercentage: s.ownershipPercentage,
            grossAmount: s.gross.toFixed(2),
            fees: s.fee.toFixed(2),
            netAmount: s.net.toFixed(2),
          })),
        });
        const detail = await declarationDetail(tx, declaration.id);
        await audit.record(tx, {
          action: 'distribution_declaration.declared',
          target: { type: 'distribution_declaration', id: declaration.id },
          changes: {
            after: {
              ...pick(detail, 'unitId', 'period', 'type', 'cadence', 'scheduledFor', 'grossAmount', 'feeRate', 'fees', 'netAmount', 'retainedAmount', 'status'),
              holders: shares.length,
            },
          },
        });
        return detail;
      }),
    );
  }

  /** PENDING → APPROVED. */
  approve(id: number) {
    return this.prisma.$transaction(async (tx) => {
      await moveDeclaration(tx, id, DistributionStatus.APPROVED, { approvedAt: new Date() });
      return declarationDetail(tx, id);
    });
  }

  /** PENDING | APPROVED → CANCELLED. */
  cancel(id: number) {
    return this.prisma.$transaction(async (tx) => {
      await moveDeclaration(tx, id, DistributionStatus.CANCELLED);
      return declarationDetail(tx, id);
    });
  }

  /**
   * APPROVED → DISTRIBUTED: every holder with a net amount gets a PENDING payout of it, the
   * DISTRIBUTION ledger row for it and a notification, written in bulk. A holder whose net share
   * rounds to 0.00 receives nothing, so gets no payout, ledger row or notification.
   */
  distribute(id: number) {
    return this.prisma.$transaction((tx) =>
      writeOnce(tx, once(tx), async () => {
        const now = new Date();
        await moveDeclaration(tx, id, DistributionStatus.DISTRIBUTED, { distributedAt: now });
        const holders = await tx.distribution.findMany({
          where: { declarationId: id },
          select: {
            id: true,
            investorId: true,
            unitId: true,
            period: true,
            type: true,
            cadence: true,
            netAmount: true,
            unit: { select: { name: true } },
            investor: { select: { userId: true } },
          },
          orderBy: { id: 'asc' },
        });
        const rows = holders.filter((r) => isPayable(r.netAmount));
        const payouts = await tx.payout.createManyAndReturn({
          data: rows.map((r) => ({
            investorId: r.investorId,
            unitId: r.unitId,
            source: PayoutSource.DISTRIBUTION,
            distributionId: r.id,
            amount: r.netAmount,
            reference: `PO-D-${r.id}`,
          })),
          select: { id: true, distributionId: true },
        });
        const payoutOf = new Map(payouts.map((p) => [present(p.distributionId, 'payout.distributionId'), p.id]));
        await tx.transaction.createMany({
          data: rows.map((r) => ({
            investorId: r.investorId,
            unitId: r.unitId,
            type: TransactionType.DISTRIBUTION,
            amount: r.netAmount,
            description: `${distributionName(r.cadence, r.type)} ${r.period} · ${r.unit.name}`,
            distributionId: r.id,
            payoutId: payoutOf.get(r.id),
            occurredAt: now,
          })),
        });
        await notify(
          tx,
          ...rows.map((r) => ({
            userId: r.investor.userId,
            type: NotificationType.DISTRIBUTION_DISTRIBUTED,
            title: `${distributionName(r.cadence, r.type)} paid`,
            body: (money: Money) => `${money(r.netAmount)} from ${r.unit.name} for ${r.period} has been paid out.`,
            data: { distributionId: r.id, payoutId: payoutOf.get(r.id) ?? null, unitId: r.unitId, period: r.period, cadence: r.cadence },
          })),
        );
        return declarationDetail(tx, id);
      }),
    );
  }
}
