import type { AuthUser } from '../domain/auth-user';
import type { Prisma } from '../db/database';
import { ReadReplicas } from '../db/read-replicas';
import { ConflictError, NotFoundError, ValidationError } from '../domain/errors';
import type { Prisma as PrismaNs } from '../generated/prisma/client';
import { MembershipStatus } from '../generated/prisma/enums';
import { ownerScope, requireInvestor } from './access';
import { isUniqueViolation } from './access';
import { CATEGORY_REF, CategoryService, type CategoryView } from './category.service';
import { MEMBERSHIP, assertUpdated } from './state-machine';
import { UNPAGED_LIST_MAX, listWhere } from './listing';
import { recordOnce, writeOnce } from './idempotency.service';

export interface MembershipFilterInput {
  status?: MembershipStatus | null;
  investorId?: number | null;
}

const SELECT = {
  id: true,
  investorId: true,
  status: true,
  createdAt: true,
  updatedAt: true,
  category: CATEGORY_REF,
} satisfies PrismaNs.CategoryMembershipSelect;

export type CategoryMembershipView = PrismaNs.CategoryMembershipGetPayload<{ select: typeof SELECT }>;

const alreadyMember = () => new ConflictError('You are already a member of this category.');

export class CategoryMembershipService {
  private readonly categories: CategoryService;

  constructor(private readonly prisma: Prisma) {
    // Membership changes read their categories back: the primary only.
    this.categories = new CategoryService(prisma, new ReadReplicas(prisma));
  }

  /** Investors: their own; staff: everyone's (filter by investorId). Newest first; a plain list of at most UNPAGED_LIST_MAX. */
  list(user: AuthUser, filter?: MembershipFilterInput | null) {
    const f = filter ?? {};
    return this.prisma.categoryMembership.findMany({
      where: listWhere(user, f, ['status']),
      select: SELECT,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: UNPAGED_LIST_MAX,
    });
  }

  async get(user: AuthUser, id: number) {
    const row = await this.prisma.categoryMembership.findFirst({ where: { id, ...ownerScope(user) }, select: SELECT });
    if (!row) throw new NotFoundError();
    return row;
  }

  /** Active categories the investor is not an active member of (catalogue order). */
  available(user: AuthUser): Promise<CategoryView[]> {
    const investorId = requireInvestor(user);
    return this.categories.list(user, { where: { memberships: { none: { investorId, status: MembershipStatus.ACTIVE } } } });
  }

  /**
   * Joins an active category: a new membership, or the investor's CANCELLED one reactivated
   * (guarded write, so a concurrent join answers 409 like an existing ACTIVE membership).
   */
  async create(user: AuthUser, categoryId: number) {
    const investorId = requireInvestor(user);
    if (!(await this.prisma.category.findFirst({ where: { id: categoryId, isActive: true }, select: { id: true } }))) {
      throw ValidationError.field('categoryId', 'The selected category id is invalid.');
    }
    return this.prisma.$transaction((tx) =>
      writeOnce(
        tx,
        recordOnce('category_membership', (id) => tx.categoryMembership.findUnique({ where: { id }, select: SELECT })),
        async () => {
          const existing = await tx.categoryMembership.findUnique({
            where: { investorId_categoryId: { investorId, categoryId } },
            select: { id: true, status: true },
          });
          if (!existing) {
            try {
              return await tx.categoryMembership.create({ data: { investorId, categoryId, status: MembershipStatus.ACTIVE }, select: SELECT });
            } catch (err) {
              throw isUniqueViolation(err) ? alreadyMember() : err;
            }
          }
          if (existing.status === MembershipStatus.ACTIVE) throw alreadyMember();
          const result = await tx.categoryMembership.updateMany({
            where: { id: existing.id, status: MembershipStatus.CANCELLED },
            data: { status: MembershipStatus.ACTIVE },
          });
          assertUpdated(MEMBERSHIP, result);
          return tx.categoryMembership.findUniqueOrThrow({ where: { id: existing.id }, select: SELECT });
        },
      ),
    );
  }
}
