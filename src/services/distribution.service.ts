import type { AuthUser } from '../context';
import type { Prisma } from '../db/database';
import { NotFoundError, ValidationError } from '../errors';
import type { DistributionStatus, DistributionType } from '../generated/prisma/enums';
import { pageWindow, toPage, type Page } from '../pagination';
import { ownerScope } from './access';
import type { Decimal } from './money';

export interface DistributionFilterInput {
  status?: DistributionStatus | null;
  type?: DistributionType | null;
  unitId?: number | null;
  period?: string | null;
  from?: Date | null;
  to?: Date | null;
  investorId?: number | null;
}

export interface DistributionView {
  id: number;
  unitId: number;
  unitName: string;
  investorId: number;
  period: string;
  type: DistributionType;
  ownershipPercentage: Decimal;
  grossAmount: Decimal;
  netAmount: Decimal;
  fees: Decimal;
  status: DistributionStatus;
  distributedAt: Date | null;
  createdAt: Date;
}

const DAY_MS = 86_400_000;

const SELECT = {
  id: true,
  unitId: true,
  investorId: true,
  period: true,
  type: true,
  ownershipPercentage: true,
  grossAmount: true,
  netAmount: true,
  fees: true,
  status: true,
  distributedAt: true,
  createdAt: true,
  unit: { select: { name: true } },
} as const;

type Row = Omit<DistributionView, 'unitName'> & { unit: { name: string } };

function toView({ unit, ...row }: Row): DistributionView {
  return { ...row, unitName: unit.name };
}

export class DistributionService {
  constructor(private readonly prisma: Prisma) {}

  /** Newest first (created_at, then id, both descending). */
  async list(user: AuthUser, filter: DistributionFilterInput | null | undefined, page?: number | null, perPage?: number | null): Promise<Page<DistributionView>> {
    const w = pageWindow(page, perPage);
    const f = filter ?? {};
    if (f.from && f.to && f.from > f.to) throw ValidationError.field('to', 'The to field must be a date after or equal to from.');
    const where = {
      ...(f.investorId ? { investorId: f.investorId } : {}),
      ...ownerScope(user),
      ...(f.status ? { status: f.status } : {}),
      ...(f.type ? { type: f.type } : {}),
      ...(f.unitId ? { unitId: f.unitId } : {}),
      ...(f.period ? { period: f.period } : {}),
      ...(f.from || f.to
        ? { distributedAt: { ...(f.from ? { gte: f.from } : {}), ...(f.to ? { lt: new Date(f.to.getTime() + DAY_MS) } : {}) } }
        : {}),
    };
    const [rows, total] = await Promise.all([
      this.prisma.distribution.findMany({ where, select: SELECT, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: w.skip, take: w.take }),
      this.prisma.distribution.count({ where }),
    ]);
    return toPage(rows.map(toView), total, w);
  }

  async get(user: AuthUser, id: number): Promise<DistributionView> {
    const row = await this.prisma.distribution.findFirst({ where: { id, ...ownerScope(user) }, select: SELECT });
    if (!row) throw new NotFoundError();
    return toView(row);
  }
}
