import type { DistributionCadence, DistributionType } from '../generated/prisma/enums';

/**
 * What a distribution is called and when it is paid, pure: the services apply these rules and the
 * demo-data seed plans with the very same functions.
 */

/** The kind of profit, in words. */
export const PROFIT_KIND_LABEL: Record<DistributionType, string> = {
  RENTAL_INCOME: 'Rental income',
  CAPITAL_GAIN: 'Capital gain',
  DIVIDEND: 'Dividend',
  INTEREST: 'Interest',
};

/** How often the unit pays, in words (SPECIAL: a one-off). */
export const CADENCE_LABEL: Record<DistributionCadence, string> = {
  MONTHLY: 'Monthly',
  QUARTERLY: 'Quarterly',
  SEMI_ANNUAL: 'Semi-annual',
  ANNUAL: 'Annual',
  SPECIAL: 'One-off',
};

/** "Monthly rental income": a distribution's name in the ledger, in notifications and in conflicts. */
export const distributionName = (cadence: DistributionCadence, kind: DistributionType) => `${CADENCE_LABEL[cadence]} ${PROFIT_KIND_LABEL[kind].toLowerCase()}`;

/** A UTC day in milliseconds: dates here are whole UTC days. */
export const DAY_MS = 86_400_000;

/** A UTC date (00:00 UTC) as its day number since the epoch. */
const dayOf = (date: Date) => Math.floor(date.getTime() / DAY_MS);

/** How far ahead a payment may be scheduled: two years of days, a leap day included. */
export const MAX_SCHEDULE_DAYS = 731;

/**
 * The scheduled payment date when the declaring admin gives none: the last day of the month after
 * the period's quarter ("2026-Q1" → 2026-04-30), kept within the dates isSchedulable allows (the
 * declaring day when that has passed; MAX_SCHEDULE_DAYS ahead for a period years away).
 */
export function defaultScheduledFor(period: string, today: Date): Date {
  const year = Number(period.slice(0, 4));
  const quarter = Number(period.slice(6, 7));
  const afterQuarter = Date.UTC(year, quarter * 3 + 1, 0);
  const first = dayOf(today) * DAY_MS;
  return new Date(Math.min(Math.max(afterQuarter, first), first + MAX_SCHEDULE_DAYS * DAY_MS));
}

/**
 * A scheduled date is a UTC date from the declaring day to MAX_SCHEDULE_DAYS after it: a schedule in
 * the past pays nothing on time, and one years ahead is a typo. The database holds the first bound
 * too (distributions_scheduled_from_declared_day).
 */
export function isSchedulable(date: Date, today: Date): boolean {
  if (date.getTime() % DAY_MS !== 0) return false;
  const days = dayOf(date) - dayOf(today);
  return days >= 0 && days <= MAX_SCHEDULE_DAYS;
}

/**
 * The payment date the REST face serves as `distributed_at` and the lists filter on: the time it
 * was paid, else its scheduled date at 00:00 UTC. Never null, from the moment it is declared.
 */
export const paymentDate = (paidAt: Date | null, scheduledFor: Date): Date => paidAt ?? scheduledFor;
