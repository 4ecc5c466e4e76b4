import { Decimal, HUNDRED, ZERO, allocate, cents, dec, sum, type DecimalInput } from './money';

/**
 * The platform's money rules, pure (Decimal in, Decimal out; no database): the services apply them
 * inside their transactions and the demo-data seed plans with the very same functions, so seeded
 * data is what the API would have produced. Percentages are of a unit (0–100, 6 places), amounts
 * are money (2 places).
 */

/** Decimal(14, 2): the largest amount a money column holds. */
export const MAX_MONEY = dec('999999999999.99');

/** An amount of money an input may carry: above 0, at most MAX_MONEY, in whole cents. */
export function isMoneyAmount(value: DecimalInput): boolean {
  const v = dec(value);
  return v.gt(ZERO) && v.lte(MAX_MONEY) && v.decimalPlaces() <= 2;
}

/** The share an investment buys: amount / unit total value × 100, rounded down to 6 places. */
export function investmentShare(amount: DecimalInput, unitTotalValue: DecimalInput): Decimal {
  return dec(amount).dividedBy(dec(unitTotalValue)).times(HUNDRED).toDecimalPlaces(6, Decimal.ROUND_DOWN);
}

/** A unit's availability once an investment of `percentage` is approved; sold out at 0 (FUNDED). */
export function availabilityAfterInvestment(available: DecimalInput, percentage: DecimalInput): { available: Decimal; soldOut: boolean } {
  const left = dec(available).minus(dec(percentage));
  return { available: left, soldOut: left.isZero() };
}

/** A unit's availability once a withdrawal of `percentage` is approved: the share goes back on sale. */
export function availabilityAfterWithdrawal(available: DecimalInput, percentage: DecimalInput): Decimal {
  return dec(available).plus(dec(percentage));
}

/**
 * The invested amount a withdrawal takes out of a holding: its pro-rata part of what the holding
 * cost, invested × requested % / held %, to the cent.
 */
export function withdrawalInvestedAmount(heldInvested: DecimalInput, heldPercentage: DecimalInput, percentage: DecimalInput): Decimal {
  return cents(dec(heldInvested).times(dec(percentage)).dividedBy(dec(heldPercentage)));
}

/** A holding once a withdrawal is approved; `empty` means the row is deleted. */
export function holdingAfterWithdrawal(
  held: { percentage: DecimalInput; invested: DecimalInput },
  withdrawal: { percentage: DecimalInput; invested: DecimalInput },
): { percentage: Decimal; invested: Decimal; empty: boolean } {
  const percentage = dec(held.percentage).minus(dec(withdrawal.percentage));
  return { percentage, invested: dec(held.invested).minus(dec(withdrawal.invested)), empty: percentage.isZero() };
}

/** What an approved withdrawal pays: the share at the unit's latest value, pct × value / 100, to the cent. */
export function withdrawalPayoutAmount(percentage: DecimalInput, unitValue: DecimalInput): Decimal {
  return cents(dec(percentage).times(dec(unitValue)).dividedBy(HUNDRED));
}

export interface HolderShare {
  gross: Decimal;
  fee: Decimal;
  /** gross − fee */
  net: Decimal;
}

export interface FanOut {
  /** One per holder, in the order given. */
  shares: HolderShare[];
  /** Σ fees, Σ nets and the unsold share's part of the gross (kept by the platform). */
  fees: Decimal;
  net: Decimal;
  retained: Decimal;
}

/**
 * A declared gross fanned out to the unit's holders: allocated over [each holder's %, the unit's
 * unsold %] so the parts sum exactly to the gross (see allocate), the unsold part retained; each
 * holder's fee is its gross × feeRate to the cent, and net = gross − fee.
 */
export function fanOut(gross: DecimalInput, feeRate: DecimalInput, holderPercentages: DecimalInput[], availablePercentage: DecimalInput): FanOut {
  const rate = dec(feeRate);
  const parts = allocate(gross, [...holderPercentages, availablePercentage]);
  const shares = parts.slice(0, -1).map((part) => {
    const fee = cents(part.times(rate));
    return { gross: part, fee, net: part.minus(fee) };
  });
  return { shares, fees: sum(shares.map((s) => s.fee)), net: sum(shares.map((s) => s.net)), retained: parts[parts.length - 1] ?? ZERO };
}

/** Distributing pays a holder only a net above zero: a share that rounds to 0.00 gets no payout. */
export function isPayable(net: DecimalInput): boolean {
  return dec(net).gt(ZERO);
}
