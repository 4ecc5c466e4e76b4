import type { Prisma } from '../db/database';
import { NotFoundError, ValidationError, type FieldErrors } from '../domain/errors';
import type { Prisma as PrismaNs } from '../generated/prisma/client';
import { dec, type Decimal } from '../domain/money';
import { givenFields } from './settings.service';
import { audit, changed } from './audit.service';

export interface UpdateAppConfigData {
  minInvestment?: Decimal | null;
  maxInvestment?: Decimal | null;
  minWithdrawalPercentage?: Decimal | null;
  supportEmail?: string | null;
  iconOptions?: string[] | null;
  badgeOptions?: string[] | null;
  colorOptions?: string[] | null;
  minAppVersion?: string | null;
  maintenanceMode?: boolean | null;
}

const ID = 1;

const SELECT = {
  minInvestment: true,
  maxInvestment: true,
  minWithdrawalPercentage: true,
  supportEmail: true,
  iconOptions: true,
  badgeOptions: true,
  colorOptions: true,
  minAppVersion: true,
  maintenanceMode: true,
  updatedAt: true,
} satisfies PrismaNs.AppConfigSelect;

export type AppConfigView = PrismaNs.AppConfigGetPayload<{ select: typeof SELECT }>;

/** Needed to create the row when none exists yet (the option lists default to empty). */
const REQUIRED_ON_CREATE = ['minInvestment', 'maxInvestment', 'minWithdrawalPercentage', 'supportEmail', 'minAppVersion'] as const;

const label = (field: string) => field.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);

/** The singleton the mobile app reads at start. */
export class AppConfigService {
  constructor(private readonly prisma: Prisma) {}

  async get(): Promise<AppConfigView> {
    const row = await this.prisma.appConfig.findUnique({ where: { id: ID }, select: SELECT });
    if (!row) throw new NotFoundError();
    return row;
  }

  /**
   * Changes the fields given (null keeps the stored value). Cross-field rules (min ≤ max) apply to
   * the result, checked under a row lock so concurrent updates cannot combine into a broken config.
   */
  async update(input: UpdateAppConfigData): Promise<AppConfigView> {
    const given = givenFields(input);
    const fields: FieldErrors = {};

    return this.prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM app_config WHERE id = ${ID} FOR UPDATE`;
      const current = await tx.appConfig.findUnique({ where: { id: ID }, select: SELECT });
      if (!current) {
        for (const field of REQUIRED_ON_CREATE) if (given[field] === undefined) fields[field] ??= [`The ${label(field)} field is required.`];
      }
      const min = given.minInvestment ?? current?.minInvestment;
      const max = given.maxInvestment ?? current?.maxInvestment;
      if (min && max && dec(min).gt(dec(max))) {
        fields.maxInvestment = ['The max investment field must be greater than or equal to the min investment.'];
      }
      if (Object.keys(fields).length) throw new ValidationError(fields);
      const { minInvestment, maxInvestment, minWithdrawalPercentage, ...rest } = given;
      const data = {
        ...rest,
        ...(minInvestment ? { minInvestment: minInvestment.toFixed(2) } : {}),
        ...(maxInvestment ? { maxInvestment: maxInvestment.toFixed(2) } : {}),
        ...(minWithdrawalPercentage ? { minWithdrawalPercentage: minWithdrawalPercentage.toFixed(6) } : {}),
      };
      // The required fields were checked above.
      const complete = { iconOptions: [], badgeOptions: [], colorOptions: [], ...data } as PrismaNs.AppConfigCreateInput;
      const row = current
        ? await tx.appConfig.update({ where: { id: ID }, data, select: SELECT })
        : await tx.appConfig.create({ data: { ...complete, id: ID }, select: SELECT });
      const { updatedAt: _before, ...was } = current ?? { updatedAt: null };
      const { updatedAt: _after, ...now } = row;
      await audit.record(tx, { action: 'app_config.updated', target: { type: 'app_config', id: ID }, changes: changed(was, now) });
      return row;
    });
  }
}
