import { validate } from 'class-validator';
import { Decimal } from '../../src/domain/money';
import { MAX_MONEY } from '../../src/domain/money-rules';
import { AtLeastField, DecimalPlaces, DecimalRange, InvestmentLimit, Money } from '../../src/schema/rules';
import { DecimalScalar } from '../../src/schema/scalars';
import { UpdateAppConfigInput } from '../../src/schema/app-config.type';
import { DeclareDistributionInput } from '../../src/schema/distribution.type';
import { CreateInvestmentRequestInput } from '../../src/schema/investment-request.type';
import { CreateUnitInput, RecordUnitValuationArgs, UnitFilter, UpdateUnitInput } from '../../src/schema/unit.type';
import { CreateWithdrawalRequestInput } from '../../src/schema/withdrawal-request.type';

/** As the gateway validates (src/graphql/build.ts): absent and null properties skipped. */
async function messages(object: object): Promise<Record<string, string[]>> {
  const errors = await validate(object, { skipMissingProperties: true, forbidUnknownValues: false });
  return Object.fromEntries(errors.map((e) => [e.property, Object.values(e.constraints ?? {})]));
}

/** An instance of `type` with the fields given, each read by the Decimal scalar as a request would be. */
function input<T extends object>(type: new () => T, fields: Record<string, string | null>): T {
  const parsed = Object.entries(fields).map(([k, v]) => [k, v === null ? null : DecimalScalar.parseValue(v)]);
  return Object.assign(new type(), Object.fromEntries(parsed));
}

async function problem<T extends object>(type: new () => T, field: string, value: string): Promise<string[] | undefined> {
  return (await messages(input(type, { [field]: value })))[field];
}

class Fee {
  @DecimalRange('fee rate', { min: 0, below: 1, places: 6 })
  rate: Decimal;
}

class Share {
  @DecimalRange('share', { above: 0, max: 100 })
  pct: Decimal;
}

class Span {
  @DecimalRange('from', { min: 0 })
  from?: Decimal | null;

  @DecimalRange('to', { min: 0 })
  @AtLeastField('to', 'from', 'from')
  to?: Decimal | null;
}

describe('DecimalRange', () => {
  it('holds inclusive and exclusive bounds exactly at the boundary, with decimal places', async () => {
    for (const ok of ['0', '0.000001', '0.999999']) expect(await problem(Fee, 'rate', ok)).toBeUndefined();
    const message = 'The fee rate field must be at least 0 and less than 1, with at most 6 decimal places.';
    for (const bad of ['-0.000001', '1', '1.5']) expect(await problem(Fee, 'rate', bad)).toEqual([message]);
    // The scalar refuses a 7th place; the rule still holds one that reaches it another way.
    expect(await messages(Object.assign(new Fee(), { rate: new Decimal('0.1234561') }))).toEqual({ rate: [message] });
    for (const ok of ['0.000001', '100', '100.000000']) expect(await problem(Share, 'pct', ok)).toBeUndefined();
    for (const bad of ['0', '-1', '100.000001']) expect(await problem(Share, 'pct', bad)).toEqual(['The share field must be greater than 0 and at most 100.']);
  });

  it('says "between" for an inclusive range, and names a large bound digit for digit', async () => {
    class Gross {
      @DecimalRange('gross amount', { min: '0.01', max: MAX_MONEY, places: 2 })
      amount: Decimal;
    }
    const message = 'The gross amount field must be between 0.01 and 999999999999.99, with at most 2 decimal places.';
    for (const ok of ['0.01', '999999999999.99']) expect(await problem(Gross, 'amount', ok)).toBeUndefined();
    for (const bad of ['0', '0.001', '1.234', '1000000000000', '-5']) expect(await problem(Gross, 'amount', bad)).toEqual([message]);
  });

  it('leaves null and absent values to the field, and non-Decimals to the scalar', async () => {
    expect(await messages(input(Span, { from: null }))).toEqual({});
    expect(await messages(new Span())).toEqual({});
    expect(await messages(Object.assign(new Fee(), { rate: 'cheap' }))).toEqual({});
  });
});

describe('AtLeastField', () => {
  it('refuses an upper end below the lower one, and reports a negative end by its range only', async () => {
    expect(await messages(input(Span, { from: '1000', to: '1000' }))).toEqual({});
    expect(await messages(input(Span, { from: '1000.01', to: '1000' }))).toEqual({ to: ['The to field must be greater than or equal to from.'] });
    expect(await messages(input(Span, { from: '5', to: '-1' }))).toEqual({ to: ['The to field must be at least 0.'] });
    expect(await messages(input(Span, { from: '-5', to: '-1' }))).toEqual({
      from: ['The from field must be at least 0.'],
      to: ['The to field must be at least 0.'],
    });
    expect(await messages(input(Span, { to: '1' }))).toEqual({});
  });
});

describe('DecimalPlaces, Money and InvestmentLimit', () => {
  it('DecimalPlaces checks the places alone', async () => {
    class Amount {
      @DecimalPlaces('amount', 2)
      amount: Decimal;
    }
    for (const ok of ['-5', '0', '1000.5', '1000.50']) expect(await problem(Amount, 'amount', ok)).toBeUndefined();
    expect(await problem(Amount, 'amount', '1000.005')).toEqual(['The amount field must have 0-2 decimal places.']);
  });

  it('Money is isMoneyAmount: above 0, whole cents, at most MAX_MONEY', async () => {
    class Value {
      @Money('value')
      value: Decimal;
    }
    for (const ok of ['0.01', '999999999999.99']) expect(await problem(Value, 'value', ok)).toBeUndefined();
    for (const bad of ['0', '-0.01', '0.001', '1000000000000']) {
      expect(await problem(Value, 'value', bad)).toEqual(['The value field must be greater than 0, with at most 2 decimal places.']);
    }
  });

  it('InvestmentLimit reports the first rule that fails', async () => {
    class Limit {
      @InvestmentLimit('max investment')
      max: Decimal;
    }
    for (const ok of ['0.01', '999999999999.99']) expect(await problem(Limit, 'max', ok)).toBeUndefined();
    expect(await problem(Limit, 'max', '0')).toEqual(['The max investment field must be greater than 0.']);
    expect(await problem(Limit, 'max', '-0.001')).toEqual(['The max investment field must be greater than 0.']);
    expect(await problem(Limit, 'max', '10.001')).toEqual(['The max investment field must have at most 2 decimal places.']);
    expect(await problem(Limit, 'max', '1000000000000')).toEqual(['The max investment field must be less than 1000000000000.']);
  });
});

/** Each Decimal input the services used to check, a value they refused, and their message for it. */
const FORMER_RULES: Array<[new () => object, string, string, string]> = [
  [DeclareDistributionInput, 'grossAmount', '0', 'The gross amount field must be between 0.01 and 999999999999.99, with at most 2 decimal places.'],
  [DeclareDistributionInput, 'feeRate', '1', 'The fee rate field must be at least 0 and less than 1, with at most 6 decimal places.'],
  [CreateInvestmentRequestInput, 'amount', '1000.005', 'The amount field must have 0-2 decimal places.'],
  [
    CreateWithdrawalRequestInput,
    'ownershipPercentage',
    '100.5',
    'The ownership percentage field must be greater than 0 and at most 100, with at most 6 decimal places.',
  ],
  [UpdateAppConfigInput, 'minInvestment', '0', 'The min investment field must be greater than 0.'],
  [UpdateAppConfigInput, 'maxInvestment', '10.001', 'The max investment field must have at most 2 decimal places.'],
  [UpdateAppConfigInput, 'minWithdrawalPercentage', '150', 'The min withdrawal percentage field must be greater than 0 and at most 100.'],
  [CreateUnitInput, 'totalValue', '0', 'The total value field must be greater than 0, with at most 2 decimal places.'],
  [CreateUnitInput, 'minInvestment', '0.001', 'The min investment field must be greater than 0, with at most 2 decimal places.'],
  [CreateUnitInput, 'expectedReturn', '101', 'The expected return field must be between 0 and 100, with at most 6 decimal places.'],
  [UpdateUnitInput, 'totalValue', '-1', 'The total value field must be greater than 0, with at most 2 decimal places.'],
  [UpdateUnitInput, 'expectedReturn', '-0.5', 'The expected return field must be between 0 and 100, with at most 6 decimal places.'],
  [RecordUnitValuationArgs, 'value', '0', 'The value field must be greater than 0, with at most 2 decimal places.'],
  [UnitFilter, 'minInvestmentFrom', '-1', 'The min investment from field must be at least 0.'],
];

describe("the input types carry the services' former rules, messages unchanged", () => {
  it.each(FORMER_RULES.map(([type, field, value, message]) => ({ name: `${type.name}.${field}`, type, field, value, message })))(
    '$name = $value',
    async ({ type, field, value, message }) => {
      expect(await problem(type, field, value)).toEqual([message]);
    },
  );

  it('UnitFilter: minInvestmentTo not below minInvestmentFrom', async () => {
    expect(await messages(input(UnitFilter, { minInvestmentFrom: '2000', minInvestmentTo: '1000' }))).toEqual({
      minInvestmentTo: ['The min investment to field must be greater than or equal to min investment from.'],
    });
  });
});
