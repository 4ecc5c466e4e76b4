import fc from 'fast-check';
import { Decimal, allocate, cents, dec, formatMoney, sum } from '../../src/domain/money';
import { DecimalScalar } from '../../src/schema/scalars';

describe('money', () => {
  it('rounds to cents half away from zero', () => {
    expect(cents('1.005').toFixed(2)).toBe('1.01');
    expect(cents('-1.005').toFixed(2)).toBe('-1.01');
    expect(cents('2.004').toFixed(2)).toBe('2.00');
  });

  it('adds decimals exactly where floating point would not', () => {
    expect(sum(['0.1', '0.2']).toFixed()).toBe('0.3');
    expect(dec({ toString: () => '12.345678' }).toFixed()).toBe('12.345678');
  });

  it('splits an amount by weights, largest remainders first, ties to the earliest', () => {
    expect(allocate('100.00', ['1', '1', '1']).map(String)).toEqual(['33.34', '33.33', '33.33']);
    expect(allocate('0.05', ['1', '1']).map(String)).toEqual(['0.03', '0.02']);
    expect(allocate('10', ['3', '1']).map(String)).toEqual(['7.5', '2.5']);
  });

  it('gives nothing to nobody when the weights are empty or all zero', () => {
    expect(allocate('10', [])).toEqual([]);
    expect(allocate('10', ['0', '0']).map(String)).toEqual(['0', '0']);
  });

  it('never loses or invents a cent, and no part is off its exact share by a cent or more', () => {
    const amount = fc.integer({ min: 0, max: 10_000_000 }).map((c) => new Decimal(c).dividedBy(100));
    const weights = fc.array(
      fc.integer({ min: 1, max: 1_000_000 }).map((w) => new Decimal(w).dividedBy(1000)),
      { minLength: 1, maxLength: 12 },
    );
    fc.assert(
      fc.property(amount, weights, (total, ws) => {
        const parts = allocate(total, ws);
        expect(sum(parts).equals(total)).toBe(true);
        const weightSum = sum(ws);
        parts.forEach((p, i) => {
          expect(p.decimalPlaces()).toBeLessThanOrEqual(2);
          expect(p.minus(total.times(ws[i]).dividedBy(weightSum)).abs().lt('0.01')).toBe(true);
        });
      }),
    );
  });
});

describe('formatMoney (amounts in notification texts)', () => {
  const plain = (s: string) => s.replace(/\u00a0/g, ' ');
  it('names the currency: its symbol where English has one, else its code', () => {
    expect(plain(formatMoney('56500', 'PLN'))).toBe('PLN 56,500.00');
    expect(formatMoney('56500.5', 'EUR')).toBe('€56,500.50');
    expect(formatMoney(new Decimal('0.1'), 'USD')).toBe('$0.10');
  });

  it('is exact for any amount (no float on the way): the digits are the decimal’s', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 16n), max: 10n ** 16n }), (cents) => {
        const amount = new Decimal(cents.toString()).div(100);
        expect(formatMoney(amount, 'CHF').replace(/[^\d.-]/g, '')).toBe(amount.toFixed(2));
      }),
    );
  });
});

describe('the Decimal scalar', () => {
  /** What it wrote before it took Decimals as they are: each one re-read from its text. */
  const fromText = (d: Decimal) => {
    const read = new Decimal(d.toString());
    return read.toFixed(Math.max(2, read.decimalPlaces()));
  };

  it('writes a Decimal as it wrote the Decimal read from its text, digit for digit', () => {
    const decimals = fc
      .tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: -12, max: 30 }))
      .map(([digits, exponent]) => new Decimal(`${digits}e${-exponent}`));
    fc.assert(
      fc.property(decimals, (d) => {
        expect(DecimalScalar.serialize(d)).toBe(fromText(d));
      }),
      { numRuns: 2000 },
    );
    expect(DecimalScalar.serialize(new Decimal(-0))).toBe('0.00');
    expect(DecimalScalar.serialize('1250.5')).toBe('1250.50');
  });

  it('refuses a value that is not a finite number, as it always did, rather than write it', () => {
    for (const value of [NaN, Infinity, -Infinity]) expect(() => DecimalScalar.serialize(new Decimal(value))).toThrow();
  });
});
