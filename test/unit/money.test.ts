import fc from 'fast-check';
import { Decimal, allocate, cents, dec, sum } from '../../src/services/money';

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
