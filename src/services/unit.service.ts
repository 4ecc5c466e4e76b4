import type { AuthUser } from '../domain/auth-user';
import type { Prisma } from '../db/database';
import type { ReadReplicas } from '../db/read-replicas';
import { ConflictError, NotFoundError, ValidationError, type FieldErrors } from '../domain/errors';
import type { Prisma as PrismaNs } from '../generated/prisma/client';
import { MembershipStatus, NotificationType, Role, UnitStatus } from '../generated/prisma/enums';
import { pageQuery, pageWindow, paginate, type Page } from './pagination';
import { isStaff, isUniqueViolation } from './access';
import { HUNDRED, dec, type Decimal, type DecimalInput } from '../domain/money';
import { notify } from './notification.service';
import { UNIT, assertTransition, assertUpdated } from './state-machine';
import { audit, changed, pick } from './audit.service';
import { CATEGORY_REF } from './category.service';
import { recordOnce, writeOnce } from './idempotency.service';

export interface UnitFilterInput {
  categoryId?: number | null;
  status?: UnitStatus | null;
  minInvestmentFrom?: DecimalInput | null;
  minInvestmentTo?: DecimalInput | null;
  q?: string | null;
}

/** A new unit: the shared fields plus those a unit must have. */
export type NewUnitData = UnitData & {
  code: string;
  name: string;
  description: string;
  location: string;
  categoryId: number;
  totalValue: DecimalInput;
  minInvestment: DecimalInput;
  expectedReturn: DecimalInput;
};

export interface UnitData {
  code?: string | null;
  name?: string | null;
  description?: string | null;
  location?: string | null;
  categoryId?: number | null;
  status?: UnitStatus | null;
  totalValue?: DecimalInput | null;
  minInvestment?: DecimalInput | null;
  expectedReturn?: DecimalInput | null;
  imageUrl?: string | null;
}

/** Who is looking decides which statuses exist: guests never see DRAFT or anything investor-related. */
type Audience = 'public' | 'investor' | 'staff';
const ALL = Object.values(UnitStatus);
const VISIBLE: Record<Audience, { list: UnitStatus[]; byDefault: UnitStatus[]; detail: UnitStatus[] }> = {
  public: {
    list: [UnitStatus.AVAILABLE, UnitStatus.FUNDED],
    byDefault: [UnitStatus.AVAILABLE, UnitStatus.FUNDED],
    detail: ALL.filter((s) => s !== UnitStatus.DRAFT),
  },
  investor: { list: ALL.filter((s) => s !== UnitStatus.DRAFT), byDefault: [UnitStatus.AVAILABLE], detail: ALL.filter((s) => s !== UnitStatus.DRAFT) },
  staff: { list: ALL, byDefault: [UnitStatus.AVAILABLE], detail: ALL },
};
const audienceOf = (user: AuthUser): Audience => (isStaff(user) ? 'staff' : 'investor');

const UNIT_SELECT = {
  id: true,
  code: true,
  name: true,
  description: true,
  location: true,
  status: true,
  totalValue: true,
  availablePercentage: true,
  minInvestment: true,
  expectedReturn: true,
  imageUrl: true,
  listedAt: true,
  createdAt: true,
  updatedAt: true,
  category: CATEGORY_REF,
  valuations: { select: { value: true }, orderBy: { valuedAt: 'desc' }, take: 1 },
} satisfies PrismaNs.UnitSelect;

type Row = PrismaNs.UnitGetPayload<{ select: typeof UNIT_SELECT }>;

/** Laravel's message for a unit id that names no unit: the 422 of every service that takes one. */
export const UNIT_ID_INVALID = 'The selected unit id is invalid.';

/** `unitId`'s 422 entry when no unit has this id, nothing when one does: for a service's field list. */
export async function unknownUnit(db: Pick<PrismaNs.TransactionClient, 'unit'>, unitId: number): Promise<FieldErrors> {
  return (await db.unit.findUnique({ where: { id: unitId }, select: { id: true } })) ? {} : { unitId: [UNIT_ID_INVALID] };
}

/** id, code and name of a unit, as other records embed it. */
export const UNIT_REF = { select: { id: true, code: true, name: true } } satisfies PrismaNs.UnitDefaultArgs;
export type UnitRefView = PrismaNs.UnitGetPayload<typeof UNIT_REF>;

const HOLDING_SELECT = { unitId: true, ownershipPercentage: true, investedAmount: true } satisfies PrismaNs.HoldingSelect;

/** The authenticated investor's holding in a unit. */
export type MyHoldingView = Omit<PrismaNs.HoldingGetPayload<{ select: typeof HOLDING_SELECT }>, 'unitId'>;

/**
 * A unit's columns (UNIT_SELECT) with its current value (the latest valuation, else the total
 * value) in place of the valuations, and the caller's holding in it.
 */
export type UnitView = Omit<Row, 'valuations'> & { currentValue: Decimal; myHolding: MyHoldingView | null };

/** What a unit's audit events show (the rest is derived or bookkeeping). */
const AUDITED_UNIT_FIELDS = [
  'code',
  'name',
  'description',
  'location',
  'status',
  'totalValue',
  'availablePercentage',
  'minInvestment',
  'expectedReturn',
  'imageUrl',
  'listedAt',
  'category',
] as const;

type Tx = PrismaNs.TransactionClient;

/** A keyed retry whose first answer was lost gets the unit as it now stands, written once (writeOnce). */
const unitOnce = (tx: Tx) =>
  recordOnce('unit', async (id) => {
    const row = await tx.unit.findUnique({ where: { id }, select: UNIT_SELECT });
    return row && toView(row, null);
  });

/** Newest listed first. */
const ORDER = [{ listedAt: 'desc' }, { id: 'desc' }] as const;

export class UnitService {
  constructor(
    private readonly prisma: Prisma,
    private readonly reads: ReadReplicas,
  ) {}

  /** Default: AVAILABLE units only. Investors never see DRAFT; staff may filter on any status. */
  list(user: AuthUser, filter: UnitFilterInput | null | undefined, page?: number | null, perPage?: number | null): Promise<Page<UnitView>> {
    return this.page(audienceOf(user), user.investorId, filter, page, perPage);
  }

  /** Guests: AVAILABLE and FUNDED units, public fields only. */
  listPublic(filter: UnitFilterInput | null | undefined, page?: number | null, perPage?: number | null): Promise<Page<UnitView>> {
    return this.page('public', null, filter, page, perPage);
  }

  /** Any status; DRAFT only for staff (404 otherwise). */
  get(user: AuthUser, id: number): Promise<UnitView> {
    return this.one(audienceOf(user), user.investorId, id);
  }

  /** Guests: anything but DRAFT. */
  getPublic(id: number): Promise<UnitView> {
    return this.one('public', null, id);
  }

  /** The newest AVAILABLE listings (dashboard). */
  async newest(user: AuthUser, take: number): Promise<UnitView[]> {
    const db = this.reads.client;
    const rows = await db.unit.findMany({ where: { status: UnitStatus.AVAILABLE }, select: UNIT_SELECT, orderBy: [...ORDER], take });
    return this.withHoldings(db, rows, user.investorId);
  }

  /** DRAFT (default) or AVAILABLE; a unit created AVAILABLE is announced to the category's members. */
  async create(data: NewUnitData): Promise<UnitView> {
    const status = data.status ?? UnitStatus.DRAFT;
    const errors = checkFields(data);
    if (dec(data.minInvestment).gt(dec(data.totalValue))) errors.minInvestment = [MIN_ABOVE_TOTAL];
    if (status !== UnitStatus.DRAFT && status !== UnitStatus.AVAILABLE) errors.status = ['The status field must be draft or available.'];

    return this.uniqueCode(() =>
      this.prisma.$transaction((tx) =>
        writeOnce(tx, unitOnce(tx), async () => {
          // Checked after the key's lock: a retry after a lost answer finds its own unit, not a taken code.
          const [codeTaken, category] = await Promise.all([
            tx.unit.findUnique({ where: { code: data.code }, select: { id: true } }),
            tx.category.findFirst({ where: { id: data.categoryId, isActive: true }, select: { id: true } }),
          ]);
          if (codeTaken) errors.code = ['The code has already been taken.'];
          if (!category) errors.categoryId = ['The selected category id is invalid.'];
          if (Object.keys(errors).length) throw new ValidationError(errors);
          const row = await tx.unit.create({
            data: {
              code: data.code,
              name: data.name.trim(),
              description: data.description.trim(),
              location: data.location.trim(),
              categoryId: data.categoryId,
              status,
              totalValue: dec(data.totalValue).toFixed(2),
              availablePercentage: HUNDRED.toFixed(6),
              minInvestment: dec(data.minInvestment).toFixed(2),
              expectedReturn: dec(data.expectedReturn).toFixed(6),
              imageUrl: data.imageUrl ?? null,
            },
            select: UNIT_SELECT,
          });
          await audit.record(tx, { action: 'unit.created', target: { type: 'unit', id: row.id }, changes: { after: pick(row, ...AUDITED_UNIT_FIELDS) } });
          if (status === UnitStatus.AVAILABLE) await announce(tx, row);
          return toView(row, null);
        }),
      ),
    );
  }

  /**
   * Only the fields given change. A status change follows UNIT (409 otherwise) with a guarded
   * write; the first listing (DRAFT → AVAILABLE) stamps listedAt and notifies the members.
   */
  async update(id: number, data: UnitData): Promise<UnitView> {
    const errors = checkFields(data);
    if (data.categoryId != null && !(await this.prisma.category.findFirst({ where: { id: data.categoryId, isActive: true }, select: { id: true } }))) {
      errors.categoryId = ['The selected category id is invalid.'];
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);

    return this.prisma.$transaction(async (tx) => {
      const current = await tx.unit.findUnique({ where: { id }, select: UNIT_SELECT });
      if (!current) throw new NotFoundError();
      const to = data.status ?? current.status;
      if (to !== current.status) assertTransition(UNIT, current.status, to);
      if (data.totalValue != null && !dec(data.totalValue).equals(current.totalValue) && current.status !== UnitStatus.DRAFT) {
        throw new ConflictError('The total value of a listed unit cannot change; record a valuation instead.');
      }
      const totalValue = data.totalValue == null ? current.totalValue : dec(data.totalValue);
      if (dec(data.minInvestment ?? current.minInvestment).gt(totalValue)) throw ValidationError.field('minInvestment', MIN_ABOVE_TOTAL);
      const listing = current.status === UnitStatus.DRAFT && to === UnitStatus.AVAILABLE;
      const result = await tx.unit.updateMany({
        where: { id, status: current.status },
        data: {
          ...(data.name != null ? { name: data.name.trim() } : {}),
          ...(data.description != null ? { description: data.description.trim() } : {}),
          ...(data.location != null ? { location: data.location.trim() } : {}),
          ...(data.categoryId != null ? { categoryId: data.categoryId } : {}),
          ...(data.totalValue != null ? { totalValue: totalValue.toFixed(2) } : {}),
          ...(data.minInvestment != null ? { minInvestment: dec(data.minInvestment).toFixed(2) } : {}),
          ...(data.expectedReturn != null ? { expectedReturn: dec(data.expectedReturn).toFixed(6) } : {}),
          ...(data.imageUrl !== undefined ? { imageUrl: data.imageUrl } : {}),
          status: to,
          ...(listing ? { listedAt: new Date() } : {}),
        },
      });
      assertUpdated(UNIT, result);
      const row = await tx.unit.findUniqueOrThrow({ where: { id }, select: UNIT_SELECT });
      await audit.record(tx, {
        action: 'unit.updated',
        target: { type: 'unit', id },
        changes: changed(pick(current, ...AUDITED_UNIT_FIELDS), pick(row, ...AUDITED_UNIT_FIELDS)),
      });
      if (listing) await announce(tx, row);
      return toView(row, null);
    });
  }

  /** One point of the valuation history; at most one per unit and moment (409 for a duplicate). */
  async recordValuation(unitId: number, value: DecimalInput, valuedAt: Date) {
    const errors: FieldErrors = {};
    if (valuedAt > new Date()) errors.valuedAt = ['The valued at field must be a date before or equal to now.'];
    Object.assign(errors, await unknownUnit(this.prisma, unitId));
    if (Object.keys(errors).length) throw new ValidationError(errors);
    const duplicate = () => new ConflictError('This unit already has a valuation at that moment.');
    try {
      return await this.prisma.$transaction((tx) =>
        writeOnce(
          tx,
          recordOnce('unit_valuation', (id) => tx.unitValuation.findUnique({ where: { id } })),
          async () => {
            // Checked after the key's lock: a retry after a lost answer finds its own valuation, not a duplicate.
            if (await tx.unitValuation.findUnique({ where: { unitId_valuedAt: { unitId, valuedAt } }, select: { id: true } })) throw duplicate();
            const valuation = await tx.unitValuation.create({ data: { unitId, value: dec(value).toFixed(2), valuedAt } });
            await audit.record(tx, {
              action: 'unit.valuation_recorded',
              target: { type: 'unit', id: unitId },
              changes: { after: pick(valuation, 'id', 'value', 'valuedAt') },
            });
            return valuation;
          },
        ),
      );
    } catch (err) {
      throw isUniqueViolation(err) ? duplicate() : err;
    }
  }

  private async page(
    audience: Audience,
    investorId: number | null,
    filter: UnitFilterInput | null | undefined,
    page?: number | null,
    perPage?: number | null,
  ): Promise<Page<UnitView>> {
    const w = pageWindow(page, perPage);
    const where = listWhere(audience, filter ?? {});
    const db = this.reads.client;
    return paginate(w, pageQuery(db.unit, { where, select: UNIT_SELECT, orderBy: [...ORDER] }), (rows) => this.withHoldings(db, rows, investorId));
  }

  private async one(audience: Audience, investorId: number | null, id: number): Promise<UnitView> {
    const db = this.reads.client;
    const row = await db.unit.findFirst({ where: { id, status: { in: VISIBLE[audience].detail } }, select: UNIT_SELECT });
    if (!row) throw new NotFoundError();
    const [view] = await this.withHoldings(db, [row], investorId);
    return view;
  }

  /** myHolding for a page of units: one query for all of them (investors only; null otherwise). */
  private async withHoldings(db: Prisma, rows: Row[], investorId: number | null): Promise<UnitView[]> {
    if (investorId === null || rows.length === 0) return rows.map((r) => toView(r, null));
    const holdings = await db.holding.findMany({
      where: { investorId, unitId: { in: rows.map((r) => r.id) }, ownershipPercentage: { gt: 0 } },
      select: HOLDING_SELECT,
    });
    const byUnit = new Map(holdings.map(({ unitId, ...h }) => [unitId, h]));
    return rows.map((r) => toView(r, byUnit.get(r.id) ?? null));
  }

  /** A concurrent create that took the code after our check answers the same 422. */
  private async uniqueCode<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (isUniqueViolation(err)) throw ValidationError.field('code', 'The code has already been taken.');
      throw err;
    }
  }
}

function toView({ valuations, ...row }: Row, myHolding: UnitView['myHolding']): UnitView {
  return { ...row, currentValue: valuations[0]?.value ?? row.totalValue, myHolding };
}

function listWhere(audience: Audience, f: UnitFilterInput): PrismaNs.UnitWhereInput {
  const from = f.minInvestmentFrom == null ? null : dec(f.minInvestmentFrom);
  const to = f.minInvestmentTo == null ? null : dec(f.minInvestmentTo);
  const q = f.q?.trim();
  const visible = VISIBLE[audience];
  return {
    // A status the audience may not see simply matches nothing.
    status: { in: f.status ? visible.list.filter((s) => s === f.status) : visible.byDefault },
    ...(f.categoryId ? { categoryId: f.categoryId } : {}),
    ...(from || to ? { minInvestment: { ...(from ? { gte: from.toFixed(2) } : {}), ...(to ? { lte: to.toFixed(2) } : {}) } } : {}),
    ...(q ? { OR: (['name', 'code', 'location'] as const).map((field) => ({ [field]: { contains: q, mode: 'insensitive' as const } })) } : {}),
  };
}

const MIN_ABOVE_TOTAL = 'The min investment field must not be greater than the total value.';

/**
 * Text given that trims to nothing (create gives them all); the Decimal fields' own rules are the
 * input types' (src/schema/rules.ts), the cross-field rule is the caller's.
 */
function checkFields(data: UnitData): FieldErrors {
  const errors: FieldErrors = {};
  for (const key of ['code', 'name', 'description', 'location'] as const) {
    if (data[key] != null && !data[key].trim()) errors[key] = [`The ${key} field is required.`];
  }
  return errors;
}

/** NEW_UNIT_IN_CATEGORY to every ACTIVE member of the unit's category, in the listing's transaction. */
async function announce(tx: Tx, unit: Row): Promise<void> {
  const members = await tx.categoryMembership.findMany({
    where: { categoryId: unit.category.id, status: MembershipStatus.ACTIVE, investor: { user: { deletedAt: null, role: Role.INVESTOR } } },
    select: { investor: { select: { userId: true } } },
    orderBy: { id: 'asc' },
  });
  for (const { investor } of members) {
    await notify(tx, {
      userId: investor.userId,
      type: NotificationType.NEW_UNIT_IN_CATEGORY,
      title: `New in ${unit.category.name}`,
      body: `${unit.name} is now open for investment.`,
      data: { unitId: unit.id, categoryId: unit.category.id },
    });
  }
}
