import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream';
import type { AuthUser } from '../domain/auth-user';
import type { Prisma } from '../db/database';
import { ConflictError, NotFoundError, ValidationError } from '../domain/errors';
import { Prisma as PrismaNs } from '../generated/prisma/client';
import { KycDocumentStatus, NotificationType, type KycDocumentType } from '../generated/prisma/enums';
import { mayRead, ownerScope, requireInvestor } from './access';
import { UNPAGED_LIST_MAX } from './listing';
import type { DownloadFile, DownloadService } from './download.service';
import { KycStatus, LIVE_INVESTORS, investorScope, kycStatusOf } from './investor.service';
import { notify } from './notification.service';
import { KYC_DOCUMENT, moveStatus } from './state-machine';
import type { FileStorage } from './storage/file-storage';
import { audit, pick } from './audit.service';
import { recordOnce, writeOnce } from './idempotency.service';
import { changes, type LiveSource } from './change-feed';
import { UploadInspector, type FileKind, type FileUpload } from './storage/upload';

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
} satisfies PrismaNs.KycDocumentSelect;

export type KycDocumentView = PrismaNs.KycDocumentGetPayload<{ select: typeof SELECT }>;

export interface UploadKycDocument {
  documentType: KycDocumentType;
  /** GraphQL's Upload scalar gives a promise of the file; it resolves when its part begins. */
  file: FileUpload | Promise<FileUpload>;
}

/** The accepted types, recognised by their first bytes only (never by name or declared type). */
export const KYC_FILE_TYPES: FileKind[] = [
  { mimeType: 'application/pdf', extension: 'pdf', magic: Buffer.from('%PDF-') },
  { mimeType: 'image/jpeg', extension: 'jpg', magic: Buffer.from([0xff, 0xd8, 0xff]) },
  { mimeType: 'image/png', extension: 'png', magic: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
];

/** A name that says what the file is, not whose it is (the original name is not kept). */
const fileNameOf = (doc: { id: number; documentType: KycDocumentType; mimeType: string }) =>
  `${doc.documentType.toLowerCase().replace(/_/g, '-')}-${doc.id}.${KYC_FILE_TYPES.find((t) => t.mimeType === doc.mimeType)?.extension ?? 'bin'}`;

/**
 * Money moves only for a verified identity (contract §2): the investor's KYC status, as `status`
 * computes it, must be APPROVED, else a 409. Checked inside the caller's transaction; an approved
 * document never changes status again, so nothing can revoke it before the commit.
 */
export async function assertKycApproved(tx: PrismaNs.TransactionClient, investorId: number): Promise<void> {
  const [{ kyc }] = await tx.$queryRaw<{ kyc: KycDocumentStatus[] }[]>`SELECT ${kycStatuses(investorId)} AS kyc`;
  assertApproved(kyc);
}

/**
 * The investor's distinct KYC document statuses, as an array expression: a money write reads them
 * in the statement that locks its row, one round trip fewer than assertKycApproved.
 */
export function kycStatuses(investorId: number): PrismaNs.Sql {
  return PrismaNs.sql`ARRAY(SELECT DISTINCT status::text FROM kyc_documents WHERE investor_id = ${investorId})`;
}

/** assertKycApproved's rule over statuses already read (kycStatuses). */
export function assertApproved(statuses: readonly KycDocumentStatus[]): void {
  if (kycStatusOf(statuses) !== KycStatus.APPROVED) throw new ConflictError('Identity verification is not approved yet.');
}

export class KycService {
  constructor(
    private readonly prisma: Prisma,
    private readonly downloads: DownloadService,
    /** Public so tests can make it fail. */
    readonly storage: FileStorage,
    private readonly uploadMaxBytes: number,
  ) {
    // Re-checked as the user the link was made for: a link outliving a lost ownership serves nothing.
    downloads.register('kyc-document', (user, params) => this.open(user, Number(params.id)));
  }

  /** Newest first (created_at, then id, both descending), at most UNPAGED_LIST_MAX; staff see every investor's unless they pass one. */
  list(user: AuthUser, filter: KycDocumentsFilter) {
    const where = {
      ...(filter.investorId ? { investorId: filter.investorId } : {}),
      ...ownerScope(user),
      ...(filter.status ? { status: filter.status } : {}),
    };
    return this.prisma.kycDocument.findMany({ where, select: SELECT, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: UNPAGED_LIST_MAX });
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
    const summary = (await this.statuses([target], investorScope(user))).get(target);
    if (!summary) throw new NotFoundError();
    return summary;
  }

  /** Changed verification states for live subscribers: each investor their own (staff do not subscribe to it). */
  readonly live: LiveSource<KycStatusSummary> = {
    load: async (investorIds) => new Map([...(await this.statuses(investorIds, LIVE_INVESTORS))].map(([owner, view]) => [owner, { owner, view }])),
    visible: mayRead,
  };

  /** The verification states of the investors of `ids` that `scope` finds, in two queries whatever their number. */
  private async statuses(ids: number[], scope: PrismaNs.InvestorWhereInput): Promise<Map<number, KycStatusSummary>> {
    const found = await this.prisma.investor.findMany({ where: { AND: [{ id: { in: ids } }, scope] }, select: { id: true } });
    if (!found.length) return new Map();
    const groups = await this.prisma.kycDocument.groupBy({
      by: ['investorId', 'status'],
      where: { investorId: { in: found.map((i) => i.id) } },
      _count: { _all: true },
      _max: { reviewedAt: true },
    });
    return new Map(found.map(({ id }) => [id, summarize(groups.filter((g) => g.investorId === id))]));
  }

  /**
   * Streams the file into storage, checking size and type on the way, then writes the row; if the
   * row is not written the file is removed again, so a failure leaves neither a row without a file
   * nor a file (or part of one) without a row. Two exceptions, both on a keyed retry's path: a
   * failure once the COMMIT was sent keeps the file (the row may have committed with it: at worst
   * an object no row names, never served), and a retry that answers the document its first attempt
   * wrote (writeOnce) removes the file it stored itself.
   */
  async upload(user: AuthUser, input: UploadKycDocument) {
    const investorId = requireInvestor(user);
    const file = await input.file;
    const inspector = new UploadInspector(KYC_FILE_TYPES, this.uploadMaxBytes, {
      field: 'file',
      tooBig: `The file field must not be greater than ${Math.floor(this.uploadMaxBytes / 1024)} kilobytes.`,
      wrongType: 'The file must be a PDF, JPEG or PNG document.',
      // Laravel's `required` rule counts an empty upload as no upload.
      empty: 'The file field is required.',
    });
    const storageKey = `kyc/${randomUUID()}`;
    // pipeline() hands the source's errors (an aborted or malformed request) on to the storage write.
    await this.storage.put(
      storageKey,
      pipeline(file.createReadStream(), inspector, () => undefined),
    );
    const { kind, sizeBytes, sha256 } = inspector.result();
    // Set once the row naming storageKey is inserted and the transaction's work is done: from then
    // on only the COMMIT stands between it and the database, and its outcome may be unknown.
    let holdsFile = false;
    // The insert's error is the one to report; a failing clean-up must not hide it.
    const drop = () => this.storage.delete(storageKey).catch(() => undefined);
    let doc: KycDocumentView;
    try {
      doc = await this.prisma.$transaction(async (tx) => {
        let inserted = false;
        const row = await writeOnce(
          tx,
          recordOnce('kyc_document', (id) => tx.kycDocument.findUnique({ where: { id }, select: SELECT })),
          async () => {
            inserted = true;
            const created = await tx.kycDocument.create({
              data: { investorId, documentType: input.documentType, storageKey, mimeType: kind.mimeType, sizeBytes, checksum: sha256 },
              select: SELECT,
            });
            await audit.record(
              tx,
              {
                action: 'kyc_document.uploaded',
                target: { type: 'kyc_document', id: created.id },
                changes: { after: pick(created, 'investorId', 'documentType', 'mimeType', 'sizeBytes', 'status') },
              },
              changes.notification({ type: 'kyc_status', investorId }),
            );
            return created;
          },
        );
        holdsFile = inserted;
        return row;
      });
    } catch (err) {
      if (!holdsFile) await drop();
      throw err;
    }
    // A retry answered the document its first attempt stored with that attempt's file.
    if (!holdsFile) await drop();
    return doc;
  }

  /** A signed link to the file, for whoever may read the document. */
  async downloadLink(user: AuthUser, id: number) {
    const doc = await this.get(user, id);
    return this.downloads.link(user, 'kyc-document', { id }, fileNameOf(doc), doc.mimeType);
  }

  private async open(user: AuthUser, id: number): Promise<DownloadFile> {
    const doc = await this.prisma.kycDocument.findFirst({
      where: { id, ...ownerScope(user) },
      select: { id: true, documentType: true, mimeType: true, storageKey: true },
    });
    if (!doc) throw new NotFoundError();
    return { fileName: fileNameOf(doc), contentType: doc.mimeType, stream: await this.storage.get(doc.storageKey) };
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
      const doc = await tx.kycDocument.findUnique({
        where: { id },
        select: { status: true, documentType: true, investorId: true, investor: { select: { userId: true } } },
      });
      if (!doc) throw new NotFoundError();
      await moveStatus(KYC_DOCUMENT, tx.kycDocument, { id, status: doc.status }, to, {
        rejectionReason: reason,
        reviewedById: reviewer.id,
        reviewedAt: new Date(),
      });
      const published = changes.notification({ type: 'kyc_status', investorId: doc.investorId });
      await audit.transition(tx, 'kyc_document', id, doc.status, to, { rejectionReason: reason, reviewedById: reviewer.id }, published);
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

/** An investor's verification state from their documents' counts per status. */
function summarize(groups: { status: KycDocumentStatus; _count: { _all: number }; _max: { reviewedAt: Date | null } }[]) {
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

type KycStatusSummary = ReturnType<typeof summarize>;

/** What status() answers, as the GraphQL object type implements it. */
export type KycStatusSummaryView = KycStatusSummary;
