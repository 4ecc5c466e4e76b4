import type { AuthUser } from '../context';
import type { Prisma } from '../db/database';
import { ConflictError, ValidationError } from '../errors';
import { WithdrawalRequestStatus } from '../generated/prisma/enums';
import { pageWindow, toPage } from '../pagination';
import { ownerScope, requireInvestor } from './access';
import { HUNDRED, cents, dec, type DecimalInput } from './money';

export interface WithdrawalRequestFilterInput {
  status?: WithdrawalRequestStatus | null;
  unitId?: number | null;
  investorId?: number | null;
}

export interface CreateWithdrawalRequestData {
  unitId: number;
  ownershipPercentage: DecimalInput;
  reason: string;
}

const SELECT = {
  id: true,
  unitId: true,
  investorId: true,
  ownershipPercentage: true,
  investedAmount: true,
  reason: true,
  status: true,
  rejectionReason: true,
  createdAt: true,
  updatedAt: true,
  unit: { select: { id: true, code: true, name: true } },
} as const;

interface LockedHolding {
  ownership_percentage: DecimalInput;
  invested_amount: DecimalInput;
}

export class WithdrawalRequestService {
  constructor(private readonly prisma: Prisma) {}

  /** Newest first (created_at, then id, both descending). */
  async list(user: AuthUser, filter: WithdrawalRequestFilterInput | null | undefined, page?: number | null, perPage?: number | null) {
    const w = pageWindow(page, perPage);
    const f = filter ?? {};
    const where = {
      ...(f.investorId ? { investorId: f.investorId } : {}),
      ...ownerScope(user),
      ...(f.status ? { status: f.status } : {}),
      ...(f.unitId ? { unitId: f.unitId } : {}),
    };
    const [rows, total] = await Promise.all([
      this.prisma.withdrawalRequest.findMany({ where, select: SELECT, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: w.skip, take: w.take }),
      this.prisma.withdrawalRequest.count({ where }),
    ]);
    return toPage(rows, total, w);
  }

  /**
   * The investor must hold at least the requested share, counting requests still pending. The
   * holding row is locked (SELECT … FOR UPDATE) for the check-and-insert, so concurrent requests
   * are serialised and can never together exceed the holding.
   */
  async create(user: AuthUser, data: CreateWithdrawalRequestData) {
    const investorId = requireInvestor(user);
    const percentage = dec(data.ownershipPercentage);
    const reason = data.reason.trim();
    const fields: Record<string, string[]> = {};
    if (percentage.lte(0) || percentage.gt(HUNDRED) || percentage.decimalPlaces() > 6) {
      fields.ownershipPercentage = ['The ownership percentage field must be greater than 0 and at most 100, with at most 6 decimal places.'];
    }
    if (!reason) fields.reason = ['The reason field is required.'];
    if (!(await this.prisma.unit.findUnique({ where: { id: data.unitId }, select: { id: true } }))) fields.unitId = ['The selected unit id is invalid.'];
    if (Object.keys(fields).length) throw new ValidationError(fields);

    return this.prisma.$transaction(async (tx) => {
      const [holding] = await tx.$queryRaw<LockedHolding[]>`
        SELECT ownership_percentage, invested_amount FROM holdings
        WHERE investor_id = ${investorId} AND unit_id = ${data.unitId} FOR UPDATE`;
      const held = dec(holding?.ownership_percentage ?? 0);
      const pending = await tx.withdrawalRequest.aggregate({
        where: { investorId, unitId: data.unitId, status: WithdrawalRequestStatus.PENDING },
        _sum: { ownershipPercentage: true },
      });
      const available = held.minus(dec(pending._sum.ownershipPercentage ?? 0));
      if (percentage.gt(available)) {
        throw new ConflictError(
          `Insufficient holding: ${available.toFixed(6)}% of this unit is available to withdraw (held ${held.toFixed(6)}%, pending requests included).`,
        );
      }
      const investedAmount = cents(dec(holding!.invested_amount).times(percentage).dividedBy(held));
      return tx.withdrawalRequest.create({
        data: { investorId, unitId: data.unitId, ownershipPercentage: percentage.toFixed(6), investedAmount: investedAmount.toFixed(2), reason },
        select: SELECT,
      });
    });
  }
}
