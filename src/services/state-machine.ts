import { ConflictError } from '../domain/errors';
import type {
  DistributionStatus,
  InvestmentRequestStatus,
  KycDocumentStatus,
  MembershipStatus,
  PayoutStatus,
  UnitStatus,
  WithdrawalRequestStatus,
} from '../generated/prisma/enums';

/**
 * The domain's state machines, in one place: services check every transition here, and
 * docs/state-machines.md is written from the same tables. A transition not listed answers 409.
 */
export type Machine<S extends string> = { readonly name: string; readonly next: Readonly<Record<S, readonly S[]>> };

export const INVESTMENT_REQUEST: Machine<InvestmentRequestStatus> = {
  name: 'investment request',
  next: { PENDING: ['APPROVED', 'REJECTED', 'CANCELLED'], APPROVED: [], REJECTED: [], CANCELLED: [] },
};

export const WITHDRAWAL_REQUEST: Machine<WithdrawalRequestStatus> = {
  name: 'withdrawal request',
  next: { PENDING: ['APPROVED', 'REJECTED', 'CANCELLED'], APPROVED: ['COMPLETED'], COMPLETED: [], REJECTED: [], CANCELLED: [] },
};

export const DISTRIBUTION: Machine<DistributionStatus> = {
  name: 'distribution',
  next: { PENDING: ['APPROVED', 'CANCELLED'], APPROVED: ['DISTRIBUTED', 'CANCELLED'], DISTRIBUTED: [], CANCELLED: [] },
};

export const KYC_DOCUMENT: Machine<KycDocumentStatus> = {
  name: 'KYC document',
  next: { PENDING: ['APPROVED', 'REJECTED'], APPROVED: [], REJECTED: [] },
};

export const PAYOUT: Machine<PayoutStatus> = {
  name: 'payout',
  next: { PENDING: ['PAID', 'FAILED'], PAID: [], FAILED: ['PAID'] },
};

/**
 * A unit's life: listed once (DRAFT → AVAILABLE), FUNDED when sold out, back to AVAILABLE when
 * withdrawals free shares, CLOSED for good. Only the first listing announces the unit to members.
 */
export const UNIT: Machine<UnitStatus> = {
  name: 'unit',
  next: { DRAFT: ['AVAILABLE'], AVAILABLE: ['FUNDED', 'CLOSED'], FUNDED: ['AVAILABLE', 'CLOSED'], CLOSED: [] },
};

/**
 * CANCELLED → ACTIVE only: joining again reactivates the investor's one row per category. No mutation
 * or route cancels a membership, so ACTIVE has no way out (CANCELLED rows come from existing data).
 */
export const MEMBERSHIP: Machine<MembershipStatus> = {
  name: 'category membership',
  next: { ACTIVE: [], CANCELLED: ['ACTIVE'] },
};

/** Throws 409 CONFLICT unless `from → to` is in the machine. */
export function assertTransition<S extends string>(machine: Machine<S>, from: S, to: S): void {
  if (!machine.next[from].includes(to)) {
    throw new ConflictError(`This ${machine.name} is ${from.toLowerCase()} and cannot be ${to.toLowerCase()}.`);
  }
}

/**
 * For the guarded write inside the transaction: `updateMany({ where: { id, status: from } })` returns
 * count 0 when a concurrent transition got there first; that is a conflict too.
 */
export function assertUpdated(machine: Machine<string>, result: { count: number }): void {
  if (result.count !== 1) throw new ConflictError(`This ${machine.name} was changed by someone else; reload and try again.`);
}

/** What a guarded status change needs of a Prisma model (`tx.payout`, …): its `updateMany`. */
export interface StatusTable<S extends string, D extends object> {
  updateMany(args: { where: { id: number; status: S }; data: D & { status: S } }): PromiseLike<{ count: number }>;
}

/**
 * The one guarded status change: `row.status → to` must be in the machine (else 409), and is written
 * only where the row still has the status the caller read (`UPDATE … SET status = <to>, …data WHERE
 * id = ? AND status = <from>`), so a concurrent transition that got there first is a 409 too. It runs
 * on the caller's transaction client and takes no lock of its own: the UPDATE's row lock joins those
 * the caller already holds, in the caller's order, until its COMMIT.
 */
export async function moveStatus<S extends string, D extends object>(
  machine: Machine<S>,
  table: NoInfer<StatusTable<S, D>>,
  row: { id: number; status: S },
  to: S,
  data: D,
): Promise<void> {
  assertTransition(machine, row.status, to);
  assertUpdated(machine, await table.updateMany({ where: { id: row.id, status: row.status }, data: { ...data, status: to } }));
}
