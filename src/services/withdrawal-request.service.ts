import type { AuthUser } from '../domain/auth-user';
import type { Prisma } from '../db/database';
import type { ReadReplicas } from '../db/read-replicas';
import { ConflictError, NotFoundError, ValidationError } from '../domain/errors';
import { returning } from '../db/returning';
import { Prisma as PrismaNs } from '../generated/prisma/client';
import {
  NotificationType,
  PayoutSource,
  PayoutStatus,
  TransactionType,
  UnitStatus,
  WithdrawalRequestStatus,
  type KycDocumentStatus,
} from '../generated/prisma/enums';
import { pageQuery, pageWindow, paginate } from './pagination';
import { mayRead, ownerScope, requireInvestor } from './access';
import { dec, type DecimalInput } from '../domain/money';
import { availabilityAfterWithdrawal, holdingAfterWithdrawal, withdrawalInvestedAmount, withdrawalPayoutAmount } from '../domain/money-rules';
import { assertApproved, kycStatuses } from './kyc.service';
import { notify } from './notification.service';
import { payPayout } from './payout.service';
import { WITHDRAWAL_REQUEST, moveStatus } from './state-machine';
import { listWhere, type RequestFilterInput } from './listing';
import { UNIT_ID_INVALID, UNIT_REF, unknownUnit } from './unit.service';
import { recordOnce, writeOnce } from './idempotency.service';
import { audit, pick } from './audit.service';
import { changes, ownedByInvestor, type LiveSource } from './change-feed';

export type WithdrawalRequestFilterInput = RequestFilterInput<WithdrawalRequestStatus>;

export interface CreateWithdrawalRequestData {
  unitId: number;
  ownershipPercentage: DecimalInput;
  reason: string;
}

/** The request's own columns: what `create` reads back from its INSERT … RETURNING. */
const COLUMNS = {
  id: true,
  unitId: true,
  investorId: true,
  ownershipPercentage: true,
  investedAmount: true,
  reason: true,
  status: true,
  rejectionReason: true,
  reviewedAt: true,
  completedAt: true,
  createdAt: true,
  updatedAt: true,
} satisfies PrismaNs.WithdrawalRequestSelect;
const SELECT = { ...COLUMNS, unit: UNIT_REF } satisfies PrismaNs.WithdrawalRequestSelect;

export type WithdrawalRequestView = PrismaNs.WithdrawalRequestGetPayload<{ select: typeof SELECT }>;
type Created = PrismaNs.WithdrawalRequestGetPayload<{ select: typeof COLUMNS }>;

/** The share of a holding that the investor's pending withdrawal requests already claim. */
const pendingShare = (investorId: number, unitId: number) =>
  PrismaNs.sql`(SELECT COALESCE(sum(ownership_percentage), 0) FROM withdrawal_requests WHERE investor_id = ${investorId} AND unit_id = ${unitId} AND status = 'PENDING')`;

const REASON_REQUIRED = 'The reason field is required.';

/** The unit a withdrawal is created on, its holding (null columns when there is none, locked when there is), the investor's KYC statuses. */
interface LockedForWithdrawal {
  id: number;
  code: string;
  name: string;
  ownership_percentage: DecimalInput | null;
  invested_amount: DecimalInput | null;
  kyc: KycDocumentStatus[];
}

interface LockedHolding {
  id: number;
  ownership_percentage: DecimalInput;
  invested_amount: DecimalInput;
}

type Tx = PrismaNs.TransactionClient;

/** The request a transition starts from, with what its side effects need. */
async function loadRequest(tx: Tx, id: number, where: { investorId?: number } = {}) {
  const row = await tx.withdrawalRequest.findFirst({
    where: { id, ...where },
    select: {
      id: true,
      status: true,
      investorId: true,
      unitId: true,
      ownershipPercentage: true,
      investedAmount: true,
      investor: { select: { userId: true } },
      unit: { select: { name: true } },
    },
  });
  if (!row) throw new NotFoundError();
  return row;
}

type RequestRow = Awaited<ReturnType<typeof loadRequest>>;

/** Guarded status write: only from the status the caller checked, so a concurrent transition is a 409. */
async function move(tx: Tx, row: RequestRow, to: WithdrawalRequestStatus, data: PrismaNs.WithdrawalRequestUpdateManyMutationInput = {}) {
  await moveStatus(WITHDRAWAL_REQUEST, tx.withdrawalRequest, row, to, data);
  await audit.transition(
    tx,
    'withdrawal_request',
    row.id,
    row.status,
    to,
    data,
    changes.notification({ type: 'withdrawal_request', id: row.id, investorId: row.investorId }),
  );
}

async function notifyReviewed(tx: Tx, row: RequestRow, status: WithdrawalRequestStatus, reason?: string) {
  const label = status.toLowerCase();
  await notify(tx, {
    userId: row.investor.userId,
    type: NotificationType.WITHDRAWAL_REQUEST_REVIEWED,
    title: `Withdrawal ${label}`,
    body: `Your request to withdraw ${dec(row.ownershipPercentage).toFixed(6)} % of ${row.unit.name} was ${label}.${reason ? ` Reason: ${reason}` : ''}`,
    data: { withdrawalRequestId: row.id, unitId: row.unitId, status },
  });
}

/** A keyed retry whose first answer was lost gets the request as it now stands, written once (writeOnce). */
const once = (tx: Tx) => recordOnce('withdrawal_request', (id) => tx.withdrawalRequest.findUnique({ where: { id }, select: SELECT }));

export class WithdrawalRequestService {
  constructor(
    private readonly prisma: Prisma,
    private readonly reads: ReadReplicas,
  ) {}

  /** Changed requests for live subscribers: investors their own, staff every investor's (the rule of `get`). */
  readonly live: LiveSource<WithdrawalRequestView> = {
    load: async (ids) => ownedByInvestor(await this.prisma.withdrawalRequest.findMany({ where: { id: { in: ids } }, select: SELECT })),
    visible: mayRead,
  };

  /** Newest first (created_at, then id, both descending). */
  async list(user: AuthUser, filter: WithdrawalRequestFilterInput | null | undefined, page?: number | null, perPage?: number | null) {
    const db = this.reads.client;
    const w = pageWindow(page, perPage);
    const f = filter ?? {};
    const where = {
      ...listWhere(user, f, ['status', 'unitId']),
    };
    return paginate(w, pageQuery(db.withdrawalRequest, { where, select: SELECT, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }));
  }

  /** One request: an investor's own, staff any; anyone else's or a missing id is NOT_FOUND. */
  async get(user: AuthUser, id: number) {
    const row = await this.reads.client.withdrawalRequest.findFirst({ where: { id, ...ownerScope(user) }, select: SELECT });
    if (!row) throw new NotFoundError();
    return row;
  }

  /**
   * The investor's KYC must be approved (else 409) and they must hold at least the requested share,
   * counting requests still pending. The
   * holding row is locked (SELECT … FOR UPDATE) for the check-and-insert, so concurrent requests
   * are serialised and can never together exceed the holding.
   */
  async create(user: AuthUser, data: CreateWithdrawalRequestData) {
    const investorId = requireInvestor(user);
    const percentage = dec(data.ownershipPercentage);
    const reason = data.reason.trim();
    if (!reason) {
      // Every failing field at once, as when only the unit is wrong (found out under the lock below).
      throw new ValidationError({ reason: [REASON_REQUIRED], ...(await unknownUnit(this.prisma, data.unitId)) });
    }

    return this.prisma.$transaction((tx) =>
      writeOnce(tx, once(tx), async () => {
        // One statement: the unit (the answer's reference), its holding locked, the investor's KYC.
        const [locked] = await tx.$queryRaw<LockedForWithdrawal[]>`
        SELECT u.id, u.code, u.name, h.ownership_percentage, h.invested_amount, ${kycStatuses(investorId)} AS kyc
        FROM units u LEFT JOIN LATERAL (
          SELECT ownership_percentage, invested_amount FROM holdings WHERE investor_id = ${investorId} AND unit_id = u.id FOR UPDATE
        ) h ON true
        WHERE u.id = ${data.unitId}`;
        if (!locked) throw ValidationError.field('unitId', UNIT_ID_INVALID);
        // Identity first, holding or not: an unverified investor hears that, not "insufficient".
        assertApproved(locked.kyc);
        const held = dec(locked.ownership_percentage ?? 0);
        const investedAmount = locked.invested_amount !== null && held.gt(0) ? withdrawalInvestedAmount(locked.invested_amount, held, percentage) : null;
        // Check and insert in one statement, with the holding locked: the request must fit in what is
        // held once every pending request is counted (this statement's snapshot, taken after the
        // lock, sees every request committed before it). One round trip fewer while the lock is held.
        const [created] = investedAmount
          ? await tx.$queryRaw<Created[]>`
            INSERT INTO withdrawal_requests (investor_id, unit_id, ownership_percentage, invested_amount, reason, created_at, updated_at)
            SELECT ${investorId}, ${data.unitId}, ${percentage.toFixed(6)}::numeric, ${investedAmount.toFixed(2)}::numeric, ${reason}, statement_timestamp(), statement_timestamp()
            WHERE ${percentage.toFixed(6)}::numeric <= ${held.toFixed(6)}::numeric - ${pendingShare(investorId, data.unitId)}
            RETURNING ${returning(COLUMNS)}`
          : [];
        if (!created) {
          const [{ pending }] = await tx.$queryRaw<{ pending: DecimalInput }[]>`SELECT ${pendingShare(investorId, data.unitId)} AS pending`;
          const available = held.minus(dec(pending));
          throw new ConflictError(
            `Insufficient holding: ${available.toFixed(6)}% of this unit is available to withdraw (held ${held.toFixed(6)}%, pending requests included).`,
          );
        }
        await audit.record(
          tx,
          {
            action: 'withdrawal_request.created',
            target: { type: 'withdrawal_request', id: created.id },
            changes: { after: pick(created, 'investorId', 'unitId', 'ownershipPercentage', 'investedAmount', 'reason', 'status') },
          },
          changes.notification({ type: 'withdrawal_request', id: created.id, investorId }),
        );
        return { ...created, unit: { id: locked.id, code: locked.code, name: locked.name } };
      }),
    );
  }

  /**
   * PENDING → APPROVED. The share goes back to the unit and is paid out at its current value: with
   * the unit and the holding locked, the holding shrinks by the request's percentage and invested
   * amount (deleted at zero), the unit's availability grows (a FUNDED unit is AVAILABLE again), a
   * PENDING payout of pct × latest valuation / 100 and its WITHDRAWAL ledger row are written, and
   * the investor is notified — all or nothing.
   */
  approve(reviewer: AuthUser, id: number) {
    return this.prisma.$transaction((tx) =>
      writeOnce(tx, once(tx), async () => {
        const row = await loadRequest(tx, id);
        await move(tx, row, WithdrawalRequestStatus.APPROVED, { reviewedById: reviewer.id, reviewedAt: new Date() });

        const pct = dec(row.ownershipPercentage);
        const invested = dec(row.investedAmount);
        // Unit before holding, the order every availability change locks in, so none can deadlock;
        // NO KEY UPDATE leaves the unit open to inserts that merely reference it.
        const [{ status: unitStatus, available_percentage: available }] = await tx.$queryRaw<{ status: UnitStatus; available_percentage: DecimalInput }[]>`
        SELECT status, available_percentage FROM units WHERE id = ${row.unitId} FOR NO KEY UPDATE`;
        const [holding] = await tx.$queryRaw<LockedHolding[]>`
        SELECT id, ownership_percentage, invested_amount FROM holdings
        WHERE investor_id = ${row.investorId} AND unit_id = ${row.unitId} FOR UPDATE`;
        const heldPct = dec(holding?.ownership_percentage ?? 0);
        const heldInvested = dec(holding?.invested_amount ?? 0);
        if (!holding || pct.gt(heldPct) || invested.gt(heldInvested)) {
          throw new ConflictError(`The holding no longer covers this withdrawal: ${heldPct.toFixed(6)}% is held, ${pct.toFixed(6)}% was requested.`);
        }
        const rest = holdingAfterWithdrawal({ percentage: heldPct, invested: heldInvested }, { percentage: pct, invested });
        if (rest.empty) await tx.holding.delete({ where: { id: holding.id } });
        else
          await tx.holding.update({
            where: { id: holding.id },
            data: { ownershipPercentage: rest.percentage.toFixed(6), investedAmount: rest.invested.toFixed(2) },
          });

        const unit = await tx.unit.update({
          where: { id: row.unitId },
          // A sold-out unit has shares to offer again.
          data: {
            availablePercentage: availabilityAfterWithdrawal(available, pct).toFixed(6),
            ...(unitStatus === UnitStatus.FUNDED ? { status: UnitStatus.AVAILABLE } : {}),
          },
          select: { totalValue: true, valuations: { select: { value: true }, orderBy: { valuedAt: 'desc' }, take: 1 } },
        });
        const amount = withdrawalPayoutAmount(pct, unit.valuations[0]?.value ?? unit.totalValue).toFixed(2);
        const payout = await tx.payout.create({
          data: {
            investorId: row.investorId,
            unitId: row.unitId,
            source: PayoutSource.WITHDRAWAL,
            withdrawalRequestId: row.id,
            amount,
            reference: `PO-W-${row.id}`,
          },
          select: { id: true },
        });
        await tx.transaction.create({
          data: {
            investorId: row.investorId,
            unitId: row.unitId,
            type: TransactionType.WITHDRAWAL,
            amount,
            description: `Withdrawal of ${pct.toFixed(6)} % of ${row.unit.name}`,
            withdrawalRequestId: row.id,
            payoutId: payout.id,
          },
        });
        await notifyReviewed(tx, row, WithdrawalRequestStatus.APPROVED);
        return tx.withdrawalRequest.findUniqueOrThrow({ where: { id }, select: SELECT });
      }),
    );
  }

  /** PENDING → REJECTED with the reviewer's reason; nothing else moves. */
  reject(reviewer: AuthUser, id: number, reason: string) {
    const why = reason.trim();
    if (!why) throw ValidationError.field('reason', REASON_REQUIRED);
    return this.prisma.$transaction(async (tx) => {
      const row = await loadRequest(tx, id);
      await move(tx, row, WithdrawalRequestStatus.REJECTED, { rejectionReason: why, reviewedById: reviewer.id, reviewedAt: new Date() });
      await notifyReviewed(tx, row, WithdrawalRequestStatus.REJECTED, why);
      return tx.withdrawalRequest.findUniqueOrThrow({ where: { id }, select: SELECT });
    });
  }

  /**
   * APPROVED → COMPLETED: the money has been sent, so the request's payout is paid through
   * payPayout (PAYOUT ledger row, PAYOUT_PAID notification) unless it was already marked paid.
   */
  complete(id: number) {
    return this.prisma.$transaction((tx) =>
      writeOnce(tx, once(tx), async () => {
        const row = await loadRequest(tx, id);
        await move(tx, row, WithdrawalRequestStatus.COMPLETED, { completedAt: new Date() });
        const payout = await tx.payout.findUniqueOrThrow({ where: { withdrawalRequestId: row.id }, select: { id: true, status: true, amount: true } });
        if (payout.status !== PayoutStatus.PAID) await payPayout(tx, payout.id);
        await notify(tx, {
          userId: row.investor.userId,
          type: NotificationType.WITHDRAWAL_COMPLETED,
          title: 'Withdrawal paid',
          body: (money) => `${money(payout.amount)} from your withdrawal in ${row.unit.name} has been sent to your bank account.`,
          data: { withdrawalRequestId: row.id, payoutId: payout.id },
        });
        return tx.withdrawalRequest.findUniqueOrThrow({ where: { id }, select: SELECT });
      }),
    );
  }

  /** The investor withdraws their own PENDING request; another investor's is not found. */
  cancel(user: AuthUser, id: number) {
    const investorId = requireInvestor(user);
    return this.prisma.$transaction(async (tx) => {
      const row = await loadRequest(tx, id, { investorId });
      await move(tx, row, WithdrawalRequestStatus.CANCELLED);
      return tx.withdrawalRequest.findUniqueOrThrow({ where: { id }, select: SELECT });
    });
  }
}
