import type { AuthUser } from '../domain/auth-user';
import type { Prisma } from '../db/database';
import type { ReadReplicas } from '../db/read-replicas';
import { ConflictError, NotFoundError, ValidationError, type FieldErrors } from '../domain/errors';
import { Prisma as PrismaNs } from '../generated/prisma/client';
import { returning } from '../db/returning';
import { InvestmentRequestStatus, NotificationType, TransactionType, UnitStatus, type KycDocumentStatus } from '../generated/prisma/enums';
import { pageQuery, pageWindow, paginate } from './pagination';
import { mayRead, ownerScope, requireInvestor } from './access';
import { Decimal, dec, type DecimalInput } from '../domain/money';
import { availabilityAfterInvestment, investmentShare } from '../domain/money-rules';
import { assertApproved, assertKycApproved, kycStatuses } from './kyc.service';
import { notify } from './notification.service';
import { INVESTMENT_REQUEST, assertTransition, moveStatus } from './state-machine';
import { listWhere, type RequestFilterInput } from './listing';
import { UNIT_ID_INVALID, UNIT_REF } from './unit.service';
import { recordOnce, writeOnce } from './idempotency.service';
import { audit, pick } from './audit.service';
import { changes, ownedByInvestor, type LiveSource } from './change-feed';

type Tx = PrismaNs.TransactionClient;

export type InvestmentRequestFilterInput = RequestFilterInput<InvestmentRequestStatus>;

export interface CreateInvestmentRequestData {
  unitId: number;
  amount: DecimalInput;
}

/** The request's own columns: what `create` reads back from its INSERT … RETURNING. */
const COLUMNS = {
  id: true,
  unitId: true,
  investorId: true,
  amount: true,
  ownershipPercentage: true,
  status: true,
  rejectionReason: true,
  reviewedAt: true,
  createdAt: true,
  updatedAt: true,
} satisfies PrismaNs.InvestmentRequestSelect;
const SELECT = { ...COLUMNS, unit: UNIT_REF } satisfies PrismaNs.InvestmentRequestSelect;

export type InvestmentRequestView = PrismaNs.InvestmentRequestGetPayload<{ select: typeof SELECT }>;
type Created = PrismaNs.InvestmentRequestGetPayload<{ select: typeof COLUMNS }>;

/** What a transition needs to know about the request. */
const STATE = {
  id: true,
  status: true,
  unitId: true,
  investorId: true,
  amount: true,
  ownershipPercentage: true,
  unit: { select: { name: true } },
  investor: { select: { userId: true } },
} as const;

interface LockedUnit {
  status: UnitStatus;
  available_percentage: DecimalInput;
}

/** Laravel prints a rule's bound as given: 500, 2500.5. */
const bound = (d: Decimal) => d.toString();

/** A keyed retry whose first answer was lost gets the request as it now stands, written once (writeOnce). */
const once = (tx: Tx) => recordOnce('investment_request', (id) => tx.investmentRequest.findUnique({ where: { id }, select: SELECT }));

export class InvestmentRequestService {
  constructor(
    private readonly prisma: Prisma,
    private readonly reads: ReadReplicas,
  ) {}

  /** Changed requests for live subscribers: investors their own, staff every investor's (the rule of `get`). */
  readonly live: LiveSource<InvestmentRequestView> = {
    load: async (ids) => ownedByInvestor(await this.prisma.investmentRequest.findMany({ where: { id: { in: ids } }, select: SELECT })),
    visible: mayRead,
  };

  /** Newest first (created_at, then id, both descending). */
  async list(user: AuthUser, filter: InvestmentRequestFilterInput | null | undefined, page?: number | null, perPage?: number | null) {
    const db = this.reads.client;
    const w = pageWindow(page, perPage);
    const f = filter ?? {};
    const where = {
      ...listWhere(user, f, ['status', 'unitId']),
    };
    return paginate(w, pageQuery(db.investmentRequest, { where, select: SELECT, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }));
  }

  async get(user: AuthUser, id: number) {
    const db = this.reads.client;
    const row = await db.investmentRequest.findFirst({ where: { id, ...ownerScope(user) }, select: SELECT });
    if (!row) throw new NotFoundError();
    return row;
  }

  /**
   * Amount limits and the unit's existence are 422s; an investor whose KYC is not approved, a unit
   * that is not AVAILABLE or has too little
   * left (its available percentage minus every pending request on it) is a 409. The unit row is
   * locked for the check-and-insert, so concurrent requests can never together oversell it.
   */
  async create(user: AuthUser, data: CreateInvestmentRequestData) {
    const investorId = requireInvestor(user);
    const amount = dec(data.amount);
    const [config, unit] = await Promise.all([
      this.prisma.appConfig.findUnique({ where: { id: 1 }, select: { minInvestment: true, maxInvestment: true } }),
      // Also the answer's unit reference, so the INSERT needs no second SELECT under the lock.
      this.prisma.unit.findUnique({ where: { id: data.unitId }, select: { ...UNIT_REF.select, totalValue: true, minInvestment: true } }),
    ]);
    const fields: FieldErrors = {};
    if (!unit) fields.unitId = [UNIT_ID_INVALID];
    // Without a configuration row only the unit's own minimum applies.
    const min = Decimal.max(dec(config?.minInvestment ?? 0), dec(unit?.minInvestment ?? 0));
    const max = config && dec(config.maxInvestment);
    if (amount.lte(0) || amount.lt(min)) fields.amount = [`The amount field must be at least ${bound(Decimal.max(min, '0.01'))}.`];
    else if (max && amount.gt(max)) fields.amount = [`The amount field must not be greater than ${bound(max)}.`];
    if (!unit || Object.keys(fields).length) throw new ValidationError(fields);

    const percentage = investmentShare(amount, unit.totalValue);
    if (percentage.isZero()) throw ValidationError.field('amount', 'The amount field is too small to buy a share of this unit.');

    return this.prisma.$transaction((tx) =>
      writeOnce(tx, once(tx), async () => {
        const [row] = await tx.$queryRaw<(LockedUnit & { kyc: KycDocumentStatus[] })[]>`
        SELECT status, available_percentage, ${kycStatuses(investorId)} AS kyc FROM units WHERE id = ${data.unitId} FOR NO KEY UPDATE`;
        // Identity first, as lockUnit's checks come after it.
        if (row) assertApproved(row.kyc);
        else await assertKycApproved(tx, investorId);
        const locked = openForInvestment(row);
        // Check and insert in one statement, with the unit locked: the request must fit in what is
        // left once every pending request is counted (this statement's snapshot, taken after the
        // lock, sees every request committed before it). One round trip fewer while the lock is held.
        const [created] = await tx.$queryRaw<Created[]>`
        INSERT INTO investment_requests (investor_id, unit_id, amount, ownership_percentage, created_at, updated_at)
        SELECT ${investorId}, ${data.unitId}, ${amount.toFixed(2)}::numeric, ${percentage.toFixed(6)}::numeric, statement_timestamp(), statement_timestamp()
        WHERE ${percentage.toFixed(6)}::numeric <= ${dec(locked.available_percentage).toFixed(6)}::numeric - ${pendingShare(data.unitId)}
        RETURNING ${returning(COLUMNS)}`;
        if (!created) {
          const [{ pending }] = await tx.$queryRaw<{ pending: DecimalInput }[]>`SELECT ${pendingShare(data.unitId)} AS pending`;
          const free = dec(locked.available_percentage).minus(dec(pending));
          throw new ConflictError(
            `Insufficient availability: ${Decimal.max(free, 0).toFixed(6)}% of this unit is still available (pending requests included); this request needs ${percentage.toFixed(6)}%.`,
          );
        }
        await audit.record(
          tx,
          {
            action: 'investment_request.created',
            target: { type: 'investment_request', id: created.id },
            changes: { after: pick(created, 'investorId', 'unitId', 'amount', 'ownershipPercentage', 'status') },
          },
          changes.notification({ type: 'investment_request', id: created.id, investorId }),
        );
        return { ...created, unit: { id: unit.id, code: unit.code, name: unit.name } };
      }),
    );
  }

  /**
   * Admin approval, all or nothing: with the unit row locked, the request must still fit the unit's
   * available percentage; then the holding grows (or is created), the ledger records the
   * investment, the unit's availability shrinks (FUNDED at 0) and the investor is notified.
   */
  approve(admin: AuthUser, id: number) {
    return this.prisma.$transaction((tx) =>
      writeOnce(tx, once(tx), async () => {
        const request = await this.load(tx, admin, id);
        assertTransition(INVESTMENT_REQUEST, request.status, InvestmentRequestStatus.APPROVED);
        const unit = await lockUnit(tx, request.unitId);
        const available = dec(unit.available_percentage);
        const percentage = dec(request.ownershipPercentage);
        if (percentage.gt(available)) {
          throw new ConflictError(
            `Insufficient availability: ${available.toFixed(6)}% of this unit is available; this request needs ${percentage.toFixed(6)}%.`,
          );
        }
        const reviewedAt = new Date();
        await this.move(tx, request, InvestmentRequestStatus.APPROVED, { reviewedById: admin.id, reviewedAt });
        const { investorId, unitId } = request;
        await tx.holding.upsert({
          where: { investorId_unitId: { investorId, unitId } },
          create: { investorId, unitId, ownershipPercentage: request.ownershipPercentage, investedAmount: request.amount },
          update: { ownershipPercentage: { increment: request.ownershipPercentage }, investedAmount: { increment: request.amount } },
        });
        await tx.transaction.create({
          data: {
            investorId,
            unitId,
            type: TransactionType.INVESTMENT,
            amount: request.amount,
            investmentRequestId: id,
            occurredAt: reviewedAt,
            description: `Investment in ${request.unit.name} (${percentage.toDecimalPlaces(4).toString()} %)`,
          },
        });
        const left = availabilityAfterInvestment(available, percentage);
        await tx.unit.update({
          where: { id: unitId },
          data: { availablePercentage: left.available.toFixed(6), ...(left.soldOut ? { status: UnitStatus.FUNDED } : {}) },
        });
        await notify(tx, {
          userId: request.investor.userId,
          type: NotificationType.INVESTMENT_REQUEST_REVIEWED,
          title: 'Investment approved',
          body: (money) => `Your investment of ${money(request.amount)} in ${request.unit.name} has been approved.`,
          data: { investmentRequestId: id, unitId, status: InvestmentRequestStatus.APPROVED },
        });
        return tx.investmentRequest.findUniqueOrThrow({ where: { id }, select: SELECT });
      }),
    );
  }

  /** Admin rejection with a reason, which the investor is told. */
  reject(admin: AuthUser, id: number, reason: string) {
    const why = reason.trim();
    if (!why) throw ValidationError.field('reason', 'The reason field is required.');
    return this.prisma.$transaction(async (tx) => {
      const request = await this.load(tx, admin, id);
      await this.move(tx, request, InvestmentRequestStatus.REJECTED, { rejectionReason: why, reviewedById: admin.id, reviewedAt: new Date() });
      await notify(tx, {
        userId: request.investor.userId,
        type: NotificationType.INVESTMENT_REQUEST_REVIEWED,
        title: 'Investment request rejected',
        body: (money) => `Your request to invest ${money(request.amount)} in ${request.unit.name} was not approved: ${why}`,
        data: { investmentRequestId: id, unitId: request.unitId, status: InvestmentRequestStatus.REJECTED },
      });
      return tx.investmentRequest.findUniqueOrThrow({ where: { id }, select: SELECT });
    });
  }

  /** The investor withdraws their own pending request (no notification: they did it themselves). */
  cancel(user: AuthUser, id: number) {
    requireInvestor(user);
    return this.prisma.$transaction(async (tx) => {
      const request = await this.load(tx, user, id);
      await this.move(tx, request, InvestmentRequestStatus.CANCELLED, {});
      return tx.investmentRequest.findUniqueOrThrow({ where: { id }, select: SELECT });
    });
  }

  /** A request the user may see (an investor's own; staff any), else 404. */
  private async load(tx: Tx, user: AuthUser, id: number) {
    const request = await tx.investmentRequest.findFirst({ where: { id, ...ownerScope(user) }, select: STATE });
    if (!request) throw new NotFoundError();
    return request;
  }

  /** Checked, guarded transition: a concurrent change of the same request is a 409 too. */
  private async move(
    tx: Tx,
    request: { id: number; investorId: number; status: InvestmentRequestStatus },
    to: InvestmentRequestStatus,
    data: PrismaNs.InvestmentRequestUpdateManyMutationInput,
  ) {
    await moveStatus(INVESTMENT_REQUEST, tx.investmentRequest, request, to, data);
    const published = changes.notification({ type: 'investment_request', id: request.id, investorId: request.investorId });
    await audit.transition(tx, 'investment_request', request.id, request.status, to, data, published);
  }
}

/**
 * SELECT … FOR NO KEY UPDATE on the unit: serialises every change to its availability, without
 * blocking the key-share locks that inserts referencing the unit take (which deadlocked against
 * withdrawal creation holding its holding row).
 */
/** The share of a unit that pending investment requests already claim. */
const pendingShare = (unitId: number) =>
  PrismaNs.sql`(SELECT COALESCE(sum(ownership_percentage), 0) FROM investment_requests WHERE unit_id = ${unitId} AND status = 'PENDING')`;

async function lockUnit(tx: Tx, unitId: number): Promise<LockedUnit> {
  const [unit] = await tx.$queryRaw<LockedUnit[]>`SELECT status, available_percentage FROM units WHERE id = ${unitId} FOR NO KEY UPDATE`;
  return openForInvestment(unit);
}

/** The locked unit, if it still exists and is open for investment. */
function openForInvestment<T extends LockedUnit>(unit: T | undefined): T {
  if (!unit) throw new NotFoundError();
  if (unit.status !== UnitStatus.AVAILABLE) throw new ConflictError(`This unit is ${unit.status.toLowerCase()} and not open for investment.`);
  return unit;
}
