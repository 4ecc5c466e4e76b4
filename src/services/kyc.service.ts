import type { AuthUser } from '../context';
import type { Prisma } from '../db/database';
import { NotFoundError, ValidationError } from '../errors';
import { KycDocumentStatus, NotificationType } from '../generated/prisma/enums';
import { ownerScope } from './access';
import { investorScope, kycStatusOf } from './investor.service';
import { notify } from './notification.service';
import { KYC_DOCUMENT, assertTransition, assertUpdated } from './state-machine';

export interface KycDocumentsFilter {
  investorId?: number | null;
  status?: KycDocumentStatus | null;
}

const SELECT = {
  id: true,
  investorId: true,
  documentType: true,
  status: true,
  mimeType: true,
  sizeBytes: true,
  rejectionReason: true,
  reviewedAt: true,
  createdAt: true,
  updatedAt: true,
} as const;

export class KycService {
  constructor(private readonly prisma: Prisma) {}

  /** Newest first (created_at, then id, both descending); staff see every investor's unless they pass one. */
  list(user: AuthUser, filter: KycDocumentsFilter) {
    const where = {
      ...(filter.investorId ? { investorId: filter.investorId } : {}),
      ...ownerScope(user),
      ...(filter.status ? { status: filter.status } : {}),
    };
    return this.prisma.kycDocument.findMany({ where, select: SELECT, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
  }

  async get(user: AuthUser, id: number) {
    const row = await this.prisma.kycDocument.findFirst({ where: { id, ...ownerScope(user) }, select: SELECT });
    if (!row) throw new NotFoundError();
    return row;
  }

  /** An investor's own state; staff name the investor (a missing or deleted one is 404). */
  async status(user: AuthUser, investorId?: number | null) {
    const target = ownerScope(user).investorId ?? investorId;
    if (!target) throw ValidationError.field('investorId', 'The investor id field is required.');
    if (!(await this.prisma.investor.findFirst({ where: { AND: [{ id: target }, investorScope(user)] }, select: { id: true } }))) throw new NotFoundError();
    const groups = await this.prisma.kycDocument.groupBy({ by: ['status'], where: { investorId: target }, _count: { _all: true }, _max: { reviewedAt: true } });
    const count = (s: KycDocumentStatus) => groups.find((g) => g.status === s)?._count._all ?? 0;
    const reviewed = groups.map((g) => g._max.reviewedAt).filter((d): d is Date => d !== null);
    return {
      status: kycStatusOf(groups.map((g) => g.status)),
      documentsCount: groups.reduce((n, g) => n + g._count._all, 0),
      approvedCount: count(KycDocumentStatus.APPROVED),
      pendingCount: count(KycDocumentStatus.PENDING),
      rejectedCount: count(KycDocumentStatus.REJECTED),
      lastReviewedAt: reviewed.length ? new Date(Math.max(...reviewed.map((d) => d.getTime()))) : null,
    };
  }

  approve(reviewer: AuthUser, id: number) {
    return this.review(reviewer, id, KycDocumentStatus.APPROVED, null);
  }

  reject(reviewer: AuthUser, id: number, reason: string) {
    const why = reason.trim();
    if (!why) throw ValidationError.field('reason', 'The reason field is required.');
    return this.review(reviewer, id, KycDocumentStatus.REJECTED, why);
  }

  /** PENDING → APPROVED | REJECTED (guarded), and the investor is told in the same transaction. */
  private review(reviewer: AuthUser, id: number, to: KycDocumentStatus, reason: string | null) {
    return this.prisma.$transaction(async (tx) => {
      const doc = await tx.kycDocument.findUnique({ where: { id }, select: { status: true, documentType: true, investor: { select: { userId: true } } } });
      if (!doc) throw new NotFoundError();
      assertTransition(KYC_DOCUMENT, doc.status, to);
      assertUpdated(
        KYC_DOCUMENT,
        await tx.kycDocument.updateMany({ where: { id, status: doc.status }, data: { status: to, rejectionReason: reason, reviewedById: reviewer.id, reviewedAt: new Date() } }),
      );
      const kind = doc.documentType.toLowerCase().replace(/_/g, ' ');
      const ok = to === KycDocumentStatus.APPROVED;
      await notify(tx, {
        userId: doc.investor.userId,
        type: NotificationType.KYC_REVIEWED,
        title: ok ? 'Document verified' : 'Document rejected',
        body: ok ? `Your ${kind} has been verified.` : `We could not accept your ${kind}: ${reason} Please upload a new one.`,
        data: { kycDocumentId: id, documentType: doc.documentType, status: to },
      });
      return tx.kycDocument.findUniqueOrThrow({ where: { id }, select: SELECT });
    });
  }
}
