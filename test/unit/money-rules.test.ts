import fc from 'fast-check';
import {
  availabilityAfterInvestment,
  availabilityAfterWithdrawal,
  fanOut,
  holdingAfterWithdrawal,
  investmentShare,
  isMoneyAmount,
  isPayable,
  MAX_MONEY,
  withdrawalInvestedAmount,
  withdrawalPayoutAmount,
} from '../../src/domain/money-rules';
import { Decimal, sum } from '../../src/domain/money';

const money = (min: number, max: number) => fc.integer({ min, max }).map((c) => new Decimal(c).dividedBy(100));
const percentage = fc.integer({ min: 1, max: 100_000_000 }).map((p) => new Decimal(p).dividedBy(1_000_000));

describe('money rules', () => {
  it('takes as money input an amount above 0, at most the largest Decimal(14, 2), in whole cents', () => {
    expect(MAX_MONEY.toFixed(2)).toBe('999999999999.99');
    for (const ok of ['0.01', '1', '10.5', '999999999999.99', new Decimal('1234.50')]) expect(isMoneyAmount(ok)).toBe(true);
    for (const bad of ['0', '-0.01', '-5', '0.001', '1.234', '1000000000000', '999999999999.991']) expect(isMoneyAmount(bad)).toBe(false);
  });

  it('prices an investment as amount / total value × 100, rounded down to 6 places', () => {
    expect(investmentShare('1000', '3000000').toFixed()).toBe('0.033333');
    expect(investmentShare('20000', '3000000').toFixed()).toBe('0.666666');
    expect(investmentShare('500', '320000').toFixed()).toBe('0.15625');
    expect(investmentShare('0.01', '999999999').isZero()).toBe(true);
    fc.assert(
      fc.property(money(1, 100_000_000), money(100_000, 1_000_000_000), (amount, total) => {
        const share = investmentShare(amount, total);
        expect(share.decimalPlaces()).toBeLessThanOrEqual(6);
        // Never more than the amount pays for, and less by under one millionth of a percent.
        const exact = amount.dividedBy(total).times(100);
        expect(share.lte(exact) && exact.minus(share).lt('0.000001')).toBe(true);
      }),
    );
  });

  it('moves availability with investments and withdrawals; sold out exactly at zero', () => {
    expect(availabilityAfterInvestment('12.5', '2.5')).toEqual({ available: new Decimal('10'), soldOut: false });
    expect(availabilityAfterInvestment('2.5', '2.5').soldOut).toBe(true);
    expect(availabilityAfterWithdrawal('0', '2.5').toFixed(6)).toBe('2.500000');
  });

  it('takes a withdrawal out of the invested amount pro rata, to the cent', () => {
    expect(withdrawalInvestedAmount('10000.00', '1.25', '0.5').toFixed(2)).toBe('4000.00');
    expect(withdrawalInvestedAmount('100.00', '3', '1').toFixed(2)).toBe('33.33');
    expect(withdrawalInvestedAmount('100.00', '3', '3').toFixed(2)).toBe('100.00');
    expect(holdingAfterWithdrawal({ percentage: '1.25', invested: '10000.00' }, { percentage: '0.5', invested: '4000.00' })).toEqual({
      percentage: new Decimal('0.75'),
      invested: new Decimal('6000'),
      empty: false,
    });
    expect(holdingAfterWithdrawal({ percentage: '0.5', invested: '4000.00' }, { percentage: '0.5', invested: '4000.00' }).empty).toBe(true);
  });

  it('pays a withdrawal at the unit value: pct × value / 100, half up to the cent', () => {
    expect(withdrawalPayoutAmount('0.5', '2000000').toFixed(2)).toBe('10000.00');
    expect(withdrawalPayoutAmount('0.000001', '2500000').toFixed(2)).toBe('0.03');
    expect(withdrawalPayoutAmount('0.000001', '500000').toFixed(2)).toBe('0.01');
  });

  it('fans a gross out to holders and the unsold share; net = gross − fee per holder', () => {
    const split = fanOut('1000.00', '0.1', ['50', '25'], '25');
    expect(split.shares.map((s) => [s.gross.toFixed(2), s.fee.toFixed(2), s.net.toFixed(2)])).toEqual([
      ['500.00', '50.00', '450.00'],
      ['250.00', '25.00', '225.00'],
    ]);
    expect([split.fees.toFixed(2), split.net.toFixed(2), split.retained.toFixed(2)]).toEqual(['75.00', '675.00', '250.00']);
    // Leftover cents go to the largest remainders; a fee rounds half up.
    const odd = fanOut('0.05', '0.5', ['1', '1'], '0');
    expect(odd.shares.map((s) => [s.gross.toFixed(2), s.fee.toFixed(2), s.net.toFixed(2)])).toEqual([
      ['0.03', '0.02', '0.01'],
      ['0.02', '0.01', '0.01'],
    ]);
    expect(odd.retained.toFixed(2)).toBe('0.00');
  });

  it('never loses or invents a cent in a fan-out', () => {
    const holders = fc.array(percentage, { minLength: 1, maxLength: 20 });
    const feeRate = fc.integer({ min: 0, max: 999_999 }).map((r) => new Decimal(r).dividedBy(1_000_000));
    fc.assert(
      fc.property(money(1, 100_000_000), feeRate, holders, percentage, (gross, rate, held, available) => {
        const split = fanOut(gross, rate, held, available);
        expect(split.shares).toHaveLength(held.length);
        expect(
          sum(split.shares.map((s) => s.gross))
            .plus(split.retained)
            .equals(gross),
        ).toBe(true);
        expect(split.net.plus(split.fees).plus(split.retained).equals(gross)).toBe(true);
        for (const s of split.shares) {
          expect(s.net.equals(s.gross.minus(s.fee))).toBe(true);
          expect(s.fee.decimalPlaces()).toBeLessThanOrEqual(2);
          expect(s.net.gte(0)).toBe(true);
        }
      }),
    );
  });

  it('pays only a net above zero', () => {
    expect([isPayable('0.01'), isPayable('0.00'), isPayable(new Decimal(0))]).toEqual([true, false, false]);
  });
});
