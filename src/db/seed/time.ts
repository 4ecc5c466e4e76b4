/** The seed's fixed clock: nothing is dated after HORIZON, whatever day the seed runs. */

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** The data set "ends" here; nothing is dated later. */
export const HORIZON = Date.UTC(2026, 10, 1);
export const LAST_PERIOD = { year: 2026, quarter: 3 };

export interface Timeline {
  /** First units are listed from here. */
  start: number;
  firstYear: number;
}
export const SHORT_TIMELINE: Timeline = { start: Date.UTC(2023, 8, 1), firstYear: 2024 };
export const LONG_TIMELINE: Timeline = { start: Date.UTC(2014, 8, 1), firstYear: 2015 };

export const d = (ms: number) => new Date(ms);
export const iso = (ms: number) => new Date(ms).toISOString();
/** A date column's value: the UTC day of `ms`, "2026-10-15". */
export const isoDay = (ms: number) => iso(ms).slice(0, 10);
export const quarterEnd = (year: number, quarter: number) => Date.UTC(year, quarter * 3, 1);
