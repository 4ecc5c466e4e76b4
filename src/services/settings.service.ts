import type { Prisma } from '../db/database';
import type { Prisma as PrismaNs } from '../generated/prisma/client';

const SELECT = {
  language: true,
  currency: true,
  timezone: true,
  pushEnabled: true,
  emailEnabled: true,
  notifyInvestments: true,
  notifyWithdrawals: true,
  notifyDistributions: true,
  notifyPayouts: true,
  notifyKyc: true,
  notifyNewUnits: true,
  updatedAt: true,
} satisfies PrismaNs.UserSettingsSelect;

export type UserSettingsView = PrismaNs.UserSettingsGetPayload<{ select: typeof SELECT }>;

type SettingsFields = Omit<UserSettingsView, 'updatedAt'>;
export type UpdateSettingsData = { [K in keyof SettingsFields]?: SettingsFields[K] | null };

/** The fields of a partial update that were given: absent and null both mean "keep the stored value". */
export function givenFields<T extends object>(input: T): { [K in keyof T]?: NonNullable<T[K]> } {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined)) as { [K in keyof T]?: NonNullable<T[K]> };
}

/** "europe/lisbon" → "Europe/Lisbon": the zone's canonical spelling (the input is already validated). */
const canonicalTimeZone = (zone: string) => new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;

/** Per-user preferences. Every user has a row: made with the defaults on first use. */
export class SettingsService {
  constructor(private readonly prisma: Prisma) {}

  get(userId: number): Promise<UserSettingsView> {
    return this.prisma.userSettings.upsert({ where: { userId }, create: { userId }, update: {}, select: SELECT });
  }

  /** Changes the fields given. */
  update(userId: number, input: UpdateSettingsData): Promise<UserSettingsView> {
    const data = givenFields(input);
    if (data.timezone) data.timezone = canonicalTimeZone(data.timezone);
    return this.prisma.userSettings.upsert({ where: { userId }, create: { userId, ...data }, update: data, select: SELECT });
  }
}
