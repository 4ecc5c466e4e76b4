import type { Prisma } from '../db/database';
import { ConflictError, NotFoundError } from '../domain/errors';
import type { Prisma as PrismaNs } from '../generated/prisma/client';
import type { LegalTextKind } from '../generated/prisma/enums';
import { audit, changed, pick } from './audit.service';

export interface UpsertLegalTextData {
  kind: LegalTextKind;
  title: string;
  content: string;
}

const SELECT = { kind: true, title: true, content: true, version: true, publishedAt: true, updatedAt: true } satisfies PrismaNs.LegalTextSelect;

export type LegalTextView = PrismaNs.LegalTextGetPayload<{ select: typeof SELECT }>;

/** "1.0" → "2.0": every publication is a new major version (the app asks users to accept it again). */
export function nextVersion(version: string): string {
  const major = Number.parseInt(version, 10);
  return `${Number.isNaN(major) ? 1 : major + 1}.0`;
}

/** The published legal texts: one row per kind. */
export class LegalService {
  constructor(private readonly prisma: Prisma) {}

  async get(kind: LegalTextKind): Promise<LegalTextView> {
    const row = await this.prisma.legalText.findUnique({ where: { kind }, select: SELECT });
    if (!row) throw new NotFoundError();
    return row;
  }

  /**
   * Publishes a new text for `kind`: version bumped, published now. The write is guarded by the
   * version it bumps, so of two concurrent publications one wins and the other answers 409.
   */
  upsert(input: UpsertLegalTextData): Promise<LegalTextView> {
    const { kind } = input;
    const data = { title: input.title.trim(), content: input.content.trim(), publishedAt: new Date() };
    return this.prisma.$transaction(async (tx) => {
      const current = await tx.legalText.findUnique({ where: { kind }, select: { version: true, title: true, content: true } });
      const { count } = current
        ? await tx.legalText.updateMany({ where: { kind, version: current.version }, data: { ...data, version: nextVersion(current.version) } })
        : await tx.legalText.createMany({ data: { kind, ...data, version: '1.0' }, skipDuplicates: true });
      if (count === 0) throw new ConflictError('This legal text was changed by someone else; reload and try again.');
      const row = await tx.legalText.findUniqueOrThrow({ where: { kind }, select: SELECT });
      await audit.record(tx, {
        action: 'legal_text.published',
        target: { type: 'legal_text', id: kind },
        changes: changed(current ?? {}, pick(row, 'kind', 'title', 'content', 'version')),
      });
      return row;
    });
  }
}
