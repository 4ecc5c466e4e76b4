import type { AuthUser } from '../domain/auth-user';
import type { Prisma } from '../db/database';
import type { ReadReplicas } from '../db/read-replicas';
import { ConflictError, NotFoundError, ValidationError, type FieldErrors } from '../domain/errors';
import { Prisma as PrismaNs } from '../generated/prisma/client';
import { UnitStatus } from '../generated/prisma/enums';
import { isStaff, isUniqueViolation } from './access';
import { audit, changed, pick } from './audit.service';
import { recordOnce, writeOnce } from './idempotency.service';
import { UNPAGED_LIST_MAX } from './listing';

/** A new category: the shared fields plus those a category must have. */
export type NewCategoryData = CategoryData & { name: string; slug: string; description: string; icon: string; color: string };

export interface CategoryData {
  name?: string | null;
  slug?: string | null;
  description?: string | null;
  icon?: string | null;
  color?: string | null;
  isFeatured?: boolean | null;
  isActive?: boolean | null;
}

type CategoryWhere = PrismaNs.CategoryWhereInput;

/** id, name and slug of a category, as other records embed it. */
export const CATEGORY_REF = { select: { id: true, name: true, slug: true } } satisfies PrismaNs.CategoryDefaultArgs;
export type CategoryRefView = PrismaNs.CategoryGetPayload<typeof CATEGORY_REF>;

const SELECT = {
  id: true,
  name: true,
  slug: true,
  description: true,
  icon: true,
  color: true,
  isFeatured: true,
  isActive: true,
  createdAt: true,
  updatedAt: true,
  // units_count: one filtered relation count in the same statement, no per-row queries.
  _count: { select: { units: { where: { status: UnitStatus.AVAILABLE } } } },
} satisfies PrismaNs.CategorySelect;

type Row = PrismaNs.CategoryGetPayload<{ select: typeof SELECT }>;

/** A category's columns (SELECT) with the number of its AVAILABLE units. */
export type CategoryView = Omit<Row, '_count'> & { unitsCount: number };

/** What a category's audit events show. */
const AUDITED_FIELDS = ['name', 'slug', 'description', 'icon', 'color', 'isFeatured', 'isActive'] as const;

function toView({ _count, ...row }: Row): CategoryView {
  return { ...row, unitsCount: _count.units };
}

/** Catalogue order: alphabetical by name (a catalogue, not a feed). */
const ORDER = [{ name: 'asc' }, { id: 'asc' }] as const;

export class CategoryService {
  constructor(
    private readonly prisma: Prisma,
    private readonly reads: ReadReplicas,
  ) {}

  /**
   * Active categories (staff may ask for inactive ones too), alphabetical. The catalogue holds at
   * most UNPAGED_LIST_MAX categories (create refuses more), so `take` cuts nothing a client needs;
   * it keeps every category list (featured, available, public, AUM) within its price even so.
   */
  list(user: AuthUser | null, options: { includeInactive?: boolean | null; where?: CategoryWhere } = {}): Promise<CategoryView[]> {
    const db = this.reads.client;
    const all = options.includeInactive && isStaff(user);
    return db.category
      .findMany({ where: { ...(all ? {} : { isActive: true }), ...options.where }, select: SELECT, orderBy: [...ORDER], take: UNPAGED_LIST_MAX })
      .then((rows) => rows.map(toView));
  }

  /** Inactive categories are found by staff only; investors and guests get 404. */
  async get(user: AuthUser | null, id: number): Promise<CategoryView> {
    const db = this.reads.client;
    const row = await db.category.findFirst({ where: { id, ...(isStaff(user) ? {} : { isActive: true }) }, select: SELECT });
    if (!row) throw new NotFoundError();
    return toView(row);
  }

  async create(data: NewCategoryData): Promise<CategoryView> {
    const fields = clean(data);
    return this.write(() =>
      this.prisma.$transaction((tx) =>
        writeOnce(
          tx,
          recordOnce('category', (id) => tx.category.findUnique({ where: { id }, select: SELECT })),
          async () => {
            // Checked after the key's lock: a retry after a lost answer finds its own category, not a taken name.
            await assertUnique(tx, fields);
            // The catalogue is a plain list priced at UNPAGED_LIST_MAX rows: a longer one would be cut.
            if ((await tx.category.count()) >= UNPAGED_LIST_MAX) {
              throw new ConflictError(`The catalogue already holds the maximum of ${UNPAGED_LIST_MAX} categories.`);
            }
            const row = await tx.category.create({
              data: { ...(fields as Required<typeof fields>), isFeatured: data.isFeatured ?? false, isActive: data.isActive ?? true },
              select: SELECT,
            });
            await audit.record(tx, { action: 'category.created', target: { type: 'category', id: row.id }, changes: { after: pick(row, ...AUDITED_FIELDS) } });
            return row;
          },
        ),
      ),
    );
  }

  /** Only the fields given change; `isActive: false` deactivates (hidden from investors and guests). */
  async update(id: number, data: CategoryData): Promise<CategoryView> {
    if (!(await this.prisma.category.findUnique({ where: { id }, select: { id: true } }))) throw new NotFoundError();
    const fields = clean(data);
    await assertUnique(this.prisma, fields, id);
    return this.write(() =>
      this.prisma.$transaction(async (tx) => {
        const before = await tx.category.findUniqueOrThrow({ where: { id }, select: SELECT });
        const row = await tx.category.update({
          where: { id },
          data: {
            ...fields,
            ...(data.isFeatured != null ? { isFeatured: data.isFeatured } : {}),
            ...(data.isActive != null ? { isActive: data.isActive } : {}),
          },
          select: SELECT,
        });
        await audit.record(tx, {
          action: 'category.updated',
          target: { type: 'category', id },
          changes: changed(pick(before, ...AUDITED_FIELDS), pick(row, ...AUDITED_FIELDS)),
        });
        return row;
      }),
    );
  }

  /** A concurrent write that took the name or slug after our check answers the same 422. */
  private async write(run: () => Promise<Row>): Promise<CategoryView> {
    try {
      return toView(await run());
    } catch (err) {
      if (isUniqueViolation(err)) throw ValidationError.field('name', 'The name or slug has already been taken.');
      throw err;
    }
  }
}

/** name and slug are unique: 422 naming each one taken (by another category). */
async function assertUnique(db: Pick<Prisma, 'category'>, fields: { name?: string; slug?: string }, exceptId?: number): Promise<void> {
  const or = [...(fields.name ? [{ name: fields.name }] : []), ...(fields.slug ? [{ slug: fields.slug }] : [])];
  if (!or.length) return;
  const taken = await db.category.findMany({
    where: { OR: or, ...(exceptId ? { id: { not: exceptId } } : {}) },
    select: { name: true, slug: true },
  });
  const errors: FieldErrors = {};
  if (fields.name && taken.some((c) => c.name === fields.name)) errors.name = ['The name has already been taken.'];
  if (fields.slug && taken.some((c) => c.slug === fields.slug)) errors.slug = ['The slug has already been taken.'];
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

/** Trimmed text fields that were given; blank after trimming is a 422 like an empty value. */
function clean(data: CategoryData): { name?: string; slug?: string; description?: string; icon?: string; color?: string } {
  const out: Record<string, string> = {};
  const errors: FieldErrors = {};
  for (const key of ['name', 'slug', 'description', 'icon', 'color'] as const) {
    const value = data[key];
    if (value == null) continue;
    const trimmed = value.trim();
    if (!trimmed) errors[key] = [`The ${key} field is required.`];
    else out[key] = key === 'color' ? trimmed.toUpperCase() : trimmed;
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return out;
}
