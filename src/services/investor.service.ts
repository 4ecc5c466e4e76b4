import type { AuthUser } from '../domain/auth-user';
import type { Prisma } from '../db/database';
import type { ReadReplicas } from '../db/read-replicas';
import { NotFoundError } from '../domain/errors';
import type { Prisma as PrismaNs } from '../generated/prisma/client';
import { KycDocumentStatus } from '../generated/prisma/enums';
import { pageQuery, pageWindow, paginate, type Page } from './pagination';
import { ownerScope } from './access';
import { ZERO, dec, type Decimal } from '../domain/money';

/** An investor's verification state, derived from their KYC documents (never stored). */
export const KycStatus = {
  APPROVED: 'APPROVED',
  PENDING: 'PENDING',
  REJECTED: 'REJECTED',
  NOT_SUBMITTED: 'NOT_SUBMITTED',
} as const;
export type KycStatus = (typeof KycStatus)[keyof typeof KycStatus];

/**
 * The one derivation of an investor's KYC status from the statuses of their documents: APPROVED
 * if any document is approved, else PENDING if any is pending, else REJECTED if any is rejected,
 * else NOT_SUBMITTED.
 */
export function kycStatusOf(documentStatuses: Iterable<KycDocumentStatus>): KycStatus {
  const seen = new Set(documentStatuses);
  if (seen.has(KycDocumentStatus.APPROVED)) return KycStatus.APPROVED;
  if (seen.has(KycDocumentStatus.PENDING)) return KycStatus.PENDING;
  if (seen.has(KycDocumentStatus.REJECTED)) return KycStatus.REJECTED;
  return KycStatus.NOT_SUBMITTED;
}

export interface InvestorFilterInput {
  /** Case-insensitive substring of the name or the email. */
  q?: string | null;
}

const SELECT = {
  id: true,
  userId: true,
  country: true,
  city: true,
  createdAt: true,
  user: { select: { name: true, email: true, phone: true } },
} satisfies PrismaNs.InvestorSelect;

type Row = PrismaNs.InvestorGetPayload<{ select: typeof SELECT }>;

/** An investor's columns and its account's (SELECT), with the KYC state and holdings summary derived. */
export type InvestorView = Omit<Row, 'user'> & Row['user'] & { kycStatus: KycStatus; holdingsCount: number; totalInvested: Decimal };

/**
 * Investor-table scope: an investor sees only their own row (the key here is `id`, not
 * `investorId`), staff see every investor whose account is not deleted.
 */
export function investorScope(user: AuthUser) {
  const { investorId } = ownerScope(user);
  return { ...(investorId === undefined ? {} : { id: investorId }), ...LIVE_INVESTORS };
}

/** The investors anyone may see at all: those whose account is not deleted (the owner part is ownerScope's). */
export const LIVE_INVESTORS = { user: { deletedAt: null } };

export class InvestorService {
  constructor(private readonly reads: ReadReplicas) {}

  /** Newest first (created_at, then id, both descending). */
  async list(user: AuthUser, filter: InvestorFilterInput | null | undefined, page?: number | null, perPage?: number | null): Promise<Page<InvestorView>> {
    const w = pageWindow(page, perPage);
    const q = filter?.q?.trim();
    const scope = investorScope(user);
    const where = {
      ...scope,
      user: {
        ...scope.user,
        ...(q ? { OR: [{ name: { contains: q, mode: 'insensitive' as const } }, { email: { contains: q, mode: 'insensitive' as const } }] } : {}),
      },
    };
    const db = this.reads.client;
    return paginate(w, pageQuery(db.investor, { where, select: SELECT, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }), (rows) => this.summarise(db, rows));
  }

  async get(user: AuthUser, id: number): Promise<InvestorView> {
    const db = this.reads.client;
    const row = await db.investor.findFirst({ where: { AND: [{ id }, investorScope(user)] }, select: SELECT });
    if (!row) throw new NotFoundError();
    const [view] = await this.summarise(db, [row]);
    return view;
  }

  /** Holdings and KYC figures for a whole page in two grouped queries (no query per investor). */
  private async summarise(db: Prisma, rows: Row[]): Promise<InvestorView[]> {
    const ids = rows.map((r) => r.id);
    if (ids.length === 0) return [];
    const [holdings, documents] = await Promise.all([
      db.holding.groupBy({
        by: ['investorId'],
        where: { investorId: { in: ids }, ownershipPercentage: { gt: 0 } },
        _count: { _all: true },
        _sum: { investedAmount: true },
      }),
      db.kycDocument.groupBy({ by: ['investorId', 'status'], where: { investorId: { in: ids } } }),
    ]);
    const held = new Map(holdings.map((h) => [h.investorId, h]));
    const statuses = new Map<number, KycDocumentStatus[]>();
    for (const d of documents) statuses.set(d.investorId, [...(statuses.get(d.investorId) ?? []), d.status]);
    return rows.map(({ user, ...r }) => {
      const h = held.get(r.id);
      return {
        ...r,
        name: user.name,
        email: user.email,
        phone: user.phone,
        kycStatus: kycStatusOf(statuses.get(r.id) ?? []),
        holdingsCount: h?._count._all ?? 0,
        totalInvested: h?._sum.investedAmount ? dec(h._sum.investedAmount) : ZERO,
      };
    });
  }
}
