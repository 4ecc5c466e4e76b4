import { Decimal } from 'decimal.js';

/** Exact decimal arithmetic for money (2 places) and ownership percentages (6 places). */
export { Decimal };
export type DecimalInput = Decimal.Value | { toString(): string };

export const ZERO = new Decimal(0);
export const HUNDRED = new Decimal(100);

export function dec(value: DecimalInput): Decimal {
  return value instanceof Decimal ? value : new Decimal(value.toString());
}

/** Rounds to cents, half away from zero (the usual commercial rule). */
export function cents(value: DecimalInput): Decimal {
  return dec(value).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

export function sum(values: DecimalInput[]): Decimal {
  return values.reduce<Decimal>((acc, v) => acc.plus(dec(v)), ZERO);
}

/**
 * Splits `total` (cents) across `weights` so that the parts sum to `total` exactly: each part is
 * rounded down to the cent, then the leftover cents go one each to the largest fractional
 * remainders (ties: earliest index). Deterministic, and no cent is ever lost or invented.
 */
export function allocate(total: DecimalInput, weights: DecimalInput[]): Decimal[] {
  const amount = dec(total);
  const ws = weights.map(dec);
  const weightSum = sum(ws);
  if (ws.length === 0 || weightSum.isZero()) return ws.map(() => ZERO);
  const exact = ws.map((w) => amount.times(w).dividedBy(weightSum));
  const parts = exact.map((e) => e.toDecimalPlaces(2, Decimal.ROUND_DOWN));
  let leftoverCents = amount.minus(sum(parts)).times(100).toNumber();
  const order = exact.map((e, i) => ({ i, rem: e.minus(parts[i]) })).sort((a, b) => b.rem.comparedTo(a.rem) || a.i - b.i);
  for (let k = 0; leftoverCents > 0; k = (k + 1) % order.length, leftoverCents--) {
    parts[order[k].i] = parts[order[k].i].plus('0.01');
  }
  return parts;
}

/**
 * An amount for a sentence, with its currency (ISO 4217): "PLN 56,500.00", "€1,234.50". Exact: Intl
 * formats the decimal string, never a float. A code Intl does not know prints after the number.
 */
export function formatMoney(amount: DecimalInput, currency: string): string {
  const fixed = dec(amount).toFixed(2);
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
      fixed as Intl.StringNumericLiteral,
    );
  } catch {
    return `${fixed} ${currency}`;
  }
}
