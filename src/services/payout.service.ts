import type { AuthUser } from '../domain/auth-user';
import type { Prisma } from '../db/database';
import type { ReadReplicas } from '../db/read-replicas';
import { NotFoundError } from '../domain/errors';
import type { Prisma as PrismaNs } from '../generated/prisma/client';
import { NotificationType, PayoutStatus, TransactionType, type PayoutSource } from '../generated/prisma/enums';
import { pageQuery, pageWindow, paginate } from './pagination';
import { ownerScope } from './access';
import { dec } from '../domain/money';
import { notify } from './notification.service';
import { PAYOUT, moveStatus } from './state-machine';
import { listWhere } from './listing';
import { UNIT_REF } from './unit.service';
import { audit } from './audit.service';
import { recordOnce, writeOnce } from './idempotency.service';

type Tx = PrismaNs.TransactionClient;

export interface PayoutFilterInput {
  status?: PayoutStatus | null;
  source?: PayoutSource | null;
  unitId?: number | null;
  investorId?: number | null;
}

const SELECT = {
  id: true,
  investorId: true,
  unit: UNIT_REF,
  source: true,
  distributionId: true,
  withdrawalRequestId: true,
  amount: true,
  status: true,
  reference: true,
  paidAt: true,
  createdAt: true,
} satisfies PrismaNs.PayoutSelect;

export type PayoutView = PrismaNs.PayoutGetPayload<{ select: typeof SELECT }>;

const STATE = { ...SELECT, unitId: true, investor: { select: { userId: true } } } as const;

/** Guarded PAYOUT transition of a loaded payout; a concurrent change is a 409 as well. */
async function move(tx: Tx, payout: { id: number; status: PayoutStatus }, to: PayoutStatus, data: PrismaNs.PayoutUpdateManyMutationInput) {
  await moveStatus(PAYOUT, tx.payout, payout, to, data);
  await audit.transition(tx, 'payout', payout.id, payout.status, to, data);
}

async function load(tx: Tx, payoutId: number) {
  const payout = await tx.payout.findUnique({ where: { id: payoutId }, select: STATE });
  if (!payout) throw new NotFoundError();
  return payout;
}

/**
 * Marks a payout PAID (from PENDING or FAILED) inside the caller's transaction: paidAt now, a
 * PAYOUT ledger entry and a PAYOUT_PAID notification. Completing a withdrawal calls this too.
 */
export async function payPayout(tx: Tx, payoutId: number) {
  const payout = await load(tx, payoutId);
  const paidAt = new Date();
  await move(tx, payout, PayoutStatus.PAID, { paidAt });
  const amount = dec(payout.amount).toFixed(2);
  await tx.transaction.create({
    data: {
      investorId: payout.investorId,
      unitId: payout.unitId,
      type: TransactionType.PAYOUT,
      amount,
      occurredAt: paidAt,
      description: `Payout ${payout.reference} · ${payout.unit.name}`,
      payoutId,
      distributionId: payout.distributionId,
      withdrawalRequestId: payout.withdrawalRequestId,
    },
  });
  await notify(tx, {
    userId: payout.investor.userId,
    type: NotificationType.PAYOUT_PAID,
    title: 'Payout sent',
    body: (money) => `${money(amount)} from ${payout.unit.name} (${payout.reference}) has been sent to your bank account.`,
    data: { payoutId, unitId: payout.unitId, reference: payout.reference },
  });
  return tx.payout.findUniqueOrThrow({ where: { id: payoutId }, select: SELECT });
}

export class PayoutService {
  constructor(
    private readonly prisma: Prisma,
    private readonly reads: ReadReplicas,
  ) {}

  /** Newest first (created_at, then id, both descending). */
  async list(user: AuthUser, filter: PayoutFilterInput | null | undefined, page?: number | null, perPage?: number | null) {
    const db = this.reads.client;
    const w = pageWindow(page, perPage);
    const f = filter ?? {};
    const where = {
      ...listWhere(user, f, ['status', 'source', 'unitId']),
    };
    return paginate(w, pageQuery(db.payout, { where, select: SELECT, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }));
  }

  async get(user: AuthUser, id: number) {
    const db = this.reads.client;
    const row = await db.payout.findFirst({ where: { id, ...ownerScope(user) }, select: SELECT });
    if (!row) throw new NotFoundError();
    return row;
  }

  markPaid(id: number) {
    return this.prisma.$transaction((tx) =>
      writeOnce(
        tx,
        recordOnce('payout', (payoutId) => tx.payout.findUnique({ where: { id: payoutId }, select: SELECT })),
        () => payPayout(tx, id),
      ),
    );
  }

  /** PENDING → FAILED (the bank refused it); the investor is told so they can check their details. */
  markFailed(id: number) {
    return this.prisma.$transaction(async (tx) => {
      const payout = await load(tx, id);
      await move(tx, payout, PayoutStatus.FAILED, {});
      await notify(tx, {
        userId: payout.investor.userId,
        type: NotificationType.SYSTEM,
        title: 'Payout failed',
        body: (money) => `${money(payout.amount)} from ${payout.unit.name} (${payout.reference}) could not be sent; please check your bank details.`,
        data: { payoutId: id, unitId: payout.unitId, reference: payout.reference },
      });
      return tx.payout.findUniqueOrThrow({ where: { id }, select: SELECT });
    });
  }
}
