import { Kind, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { ValidationError } from '../../src/domain/errors';
import { loadOperations } from '../../src/rest/operations';
import { compileCoercer, type Coercer } from '../../src/rest/variables';
import { buildGatewaySchema } from '../../src/graphql/build';

// The real schema and the route table's own operations: no database, no HTTP.
let schema: GraphQLSchema;
const operations = loadOperations();
beforeAll(async () => {
  schema = await buildGatewaySchema();
});

function coercer(operation: string): Coercer {
  const op = operations.get(operation)?.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!op) throw new Error(`no operation ${operation}`);
  return compileCoercer(schema, op.variableDefinitions ?? []);
}

function fieldErrors(run: () => unknown): Record<string, string[]> {
  try {
    run();
  } catch (e) {
    if (e instanceof ValidationError) return e.fields;
    throw e;
  }
  throw new Error('no validation error');
}

describe('REST input → GraphQL variables', () => {
  it('reads query-string text as Int, Boolean, enum (any case) and Decimal', () => {
    expect(coercer('Notifications')({ page: '2', perPage: ' 30 ', unread: 'true', unreadFirst: '0' }, 'text')).toEqual({
      page: 2,
      perPage: 30,
      unread: true,
      unreadFirst: false,
    });
    expect(coercer('Payouts')({ filter: { status: 'paid', unitId: '7' } }, 'text')).toEqual({
      page: null,
      perPage: null,
      filter: { status: 'PAID', unitId: 7 },
    });
    // A route whose operation spells its filter out takes each query parameter as a variable.
    expect(coercer('Distributions')({ status: 'distributed', type: 'Semi_Annual', unitId: '7' }, 'text')).toEqual({
      page: null,
      perPage: null,
      status: 'DISTRIBUTED',
      type: 'SEMI_ANNUAL',
      unitId: 7,
      period: null,
      from: null,
      to: null,
      investorId: null,
    });
    expect(coercer('Units')({ filter: { minInvestmentFrom: '1000.50' } }, 'text')).toEqual({
      page: null,
      perPage: null,
      filter: { minInvestmentFrom: '1000.50' },
    });
  });

  it('finds camelCase fields under their snake_case keys, and ignores unknown keys', () => {
    expect(coercer('CreateInvestmentRequest')({ input: { unit_id: 3, amount: 2500, note: 'x' } }, 'json')).toEqual({ input: { unitId: 3, amount: '2500' } });
  });

  it('types JSON bodies strictly, one message per field', () => {
    expect(fieldErrors(() => coercer('CreateInvestmentRequest')({ input: { unit_id: '3', amount: '2500' } }, 'json'))).toEqual({
      unitId: ['The unit id field must be an integer.'],
      amount: ['The amount field must be a number.'],
    });
    expect(fieldErrors(() => coercer('Login')({ email: 42, password: ['x'] }, 'json'))).toEqual({
      email: ['The email field must be a string.'],
      password: ['The password field must be a string.'],
    });
  });

  it('reports required fields, unknown enum values, and numbers out of range', () => {
    expect(fieldErrors(() => coercer('Login')({ email: '', password: 'x' }, 'json'))).toEqual({ email: ['The email field is required.'] });
    expect(fieldErrors(() => coercer('Payouts')({ filter: { status: 'settled' } }, 'text'))).toEqual({ status: ['The selected status is invalid.'] });
    expect(fieldErrors(() => coercer('Distributions')({ type: 'dividend' }, 'text'))).toEqual({ type: ['The selected type is invalid.'] });
    expect(fieldErrors(() => coercer('Distributions')({ page: '99999999999' }, 'text'))).toEqual({ page: ['The page field must be an integer.'] });
    expect(fieldErrors(() => coercer('CreateInvestmentRequest')({ input: { unit_id: 1, amount: 1.1234567 } }, 'json'))).toEqual({
      amount: ['The amount field must be a number with at most 6 decimal places.'],
    });
  });

  it('gives an absent variable as null, keeps an absent input field absent, and passes an explicit null or "" on as null (clears a field)', () => {
    expect(coercer('UpdateProfile')({ input: { name: 'Ada' } }, 'json')).toEqual({ input: { name: 'Ada' } });
    expect(coercer('UpdateProfile')({ input: { phone: null, name: '' } }, 'json')).toEqual({ input: { phone: null, name: null } });
  });

  it('never reads inherited keys of a body', () => {
    const body = JSON.parse('{"input": {"__proto__": {"name": "x"}}}') as Record<string, unknown>;
    expect(coercer('UpdateProfile')(body, 'json')).toEqual({ input: {} });
  });
});
