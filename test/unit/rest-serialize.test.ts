import fc from 'fast-check';
import {
  GraphQLEnumType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  parse,
  type FieldNode,
  type OperationDefinitionNode,
} from 'graphql';
import { GraphQLJSON } from 'graphql-scalars';
import { GraphQLDateTime } from 'graphql-scalars';
import { DateTimeScalar, DecimalScalar } from '../../src/schema/scalars';
import { compileWriter, envelopeText, laravelTimestamp } from '../../src/rest/serialize';

/** The definition the REST face has always written: toISOString without the fraction, with a UTC offset. */
const viaIsoString = (value: Date | string | number) => new Date(value).toISOString().slice(0, 19) + '+00:00';

/** Both sides' answer, or the error either throws (an invalid date). */
const outcome = (f: () => string) => {
  try {
    return f();
  } catch (err) {
    return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  }
};

/** Four-digit years, the ones the DateTime scalar's text is cut for, and any date at all (invalid ones too). */
const dates = fc.oneof(fc.date({ min: new Date('1000-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z') }), fc.date({ noInvalidDate: false }));

describe('REST timestamps', () => {
  it('writes every Date as toISOString does, without the fraction and with +00:00', () => {
    fc.assert(
      fc.property(dates, (date) => {
        expect(outcome(() => laravelTimestamp(date))).toBe(outcome(() => viaIsoString(date)));
      }),
      { numRuns: 5000 },
    );
  });

  it('reads an ISO string or a time value as a Date would', () => {
    const valid = dates.filter((d) => !Number.isNaN(d.getTime()));
    fc.assert(
      fc.property(
        fc.oneof(
          valid.map((d) => d.getTime()),
          valid.map((d) => d.toISOString()),
        ),
        (value) => {
          expect(laravelTimestamp(value)).toBe(viaIsoString(value));
        },
      ),
    );
  });

  it('the DateTime scalar writes the JSON a Date wrote, and REST cuts that text into the timestamp the Date gave', () => {
    const valid = dates.filter((d) => !Number.isNaN(d.getTime()));
    fc.assert(
      fc.property(valid, (date) => {
        const text = DateTimeScalar.serialize(date);
        expect(JSON.stringify({ at: text })).toBe(JSON.stringify({ at: GraphQLDateTime.serialize(date) }));
        expect(laravelTimestamp(text)).toBe(laravelTimestamp(date));
      }),
      { numRuns: 2000 },
    );
    // The rest of the scalar is graphql-scalars' own: name, description, parsing.
    const { serialize: _ours, ...ours } = DateTimeScalar.toConfig();
    const { serialize: _theirs, ...theirs } = GraphQLDateTime.toConfig();
    expect(ours).toEqual(theirs);
    expect(() => DateTimeScalar.serialize(new Date(Number.NaN))).toThrow();
  });

  it('drops the fraction without rounding and pads every field', () => {
    expect(laravelTimestamp(new Date('2026-03-31T00:00:00.000Z'))).toBe('2026-03-31T00:00:00+00:00');
    expect(laravelTimestamp(new Date('1000-01-02T03:04:05.999Z'))).toBe('1000-01-02T03:04:05+00:00');
    expect(laravelTimestamp(new Date('0999-12-31T23:59:59.999Z'))).toBe('0999-12-31T23:59:59+00:00');
  });
});

/** The first root field of `query` in `schema`, and a writer for it. */
function writerOf(schema: GraphQLSchema, query: string) {
  const [field] = (parse(query).definitions[0] as OperationDefinitionNode).selectionSet.selections as FieldNode[];
  return compileWriter(schema, {}, schema.getQueryType()!.getFields()[field.name.value].type, field.selectionSet);
}

describe('REST decimals', () => {
  const Row = new GraphQLObjectType({ name: 'Row', fields: { amount: { type: DecimalScalar }, note: { type: GraphQLString } } });
  const schema = new GraphQLSchema({ query: new GraphQLObjectType({ name: 'Query', fields: { rows: { type: new GraphQLList(Row) } } }) });
  const write = writerOf(schema, '{ rows { amount note } }');

  /** The formulation the REST face used before: a marked object turned into text by a JSON.stringify replacer. */
  class Literal {
    constructor(readonly text: string) {}
  }
  const before = (items: { amount: string | null; note: string }[]) =>
    JSON.stringify(
      items.map(({ amount, note }) => ({ amount: amount === null ? null : new Literal(amount.includes('.') ? amount.replace(/\.?0+$/, '') : amount), note })),
      (_k, v: unknown) => (v instanceof Literal ? '\u0000num:' + v.text : v),
    ).replace(/"\\u0000num:([-0-9.]+)"/g, '$1');

  /** What the Decimal scalar serializes: up to 15 integer digits, 2 to 6 places, either sign. */
  const decimalText = fc
    .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }), fc.integer({ min: 2, max: 6 }), fc.bigInt({ min: 0n, max: 999_999n }))
    .map(([negative, whole, places, fraction]) => `${negative ? '-' : ''}${whole}.${String(fraction).padStart(6, '0').slice(0, places)}`);

  it('writes each decimal as the same JSON number text as before, and other strings untouched', () => {
    const item = fc.record({ amount: fc.option(decimalText, { nil: null }), note: fc.string({ unit: 'binary' }) });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 5 }), (items) => {
        expect(write(items)).toBe(before(items));
      }),
      { numRuns: 2000 },
    );
  });

  it('writes the digits as they are, without needless zeros', () => {
    expect(
      write([
        { amount: '1250.50', note: 'x' },
        { amount: '100.00', note: '' },
        { amount: '-0.000001', note: '1.50' },
      ]),
    ).toBe('[{"amount":1250.5,"note":"x"},{"amount":100,"note":""},{"amount":-0.000001,"note":"1.50"}]');
  });

  it('never splices text that is not a plain number into the JSON: it goes out as a string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const parsed = JSON.parse(write([{ amount: text, note: '' }])) as { amount: unknown }[];
        expect(typeof parsed[0].amount === 'number' ? /^-?\d+(\.\d+)?$/.test(text) : parsed[0].amount === text).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('REST writer', () => {
  const Status = new GraphQLEnumType({ name: 'Status', values: { APPROVED: {}, PENDING_REVIEW: {} } });
  const Unit = new GraphQLObjectType({ name: 'Unit', fields: { id: { type: new GraphQLNonNull(GraphQLInt) }, displayName: { type: GraphQLString } } });
  const Item = new GraphQLObjectType({
    name: 'Item',
    fields: {
      id: { type: new GraphQLNonNull(GraphQLInt) },
      status: { type: Status },
      paidAt: { type: DateTimeScalar },
      data: { type: GraphQLJSON },
      unit: { type: Unit },
      tags: { type: new GraphQLList(GraphQLString) },
    },
  });
  const schema = new GraphQLSchema({ query: new GraphQLObjectType({ name: 'Query', fields: { items: { type: new GraphQLList(Item) } } }) });
  const write = writerOf(schema, '{ items { id state: status paidAt data unit { id displayName } tags } }');

  const item = fc.record({
    id: fc.integer(),
    state: fc.option(fc.constantFrom('APPROVED', 'PENDING_REVIEW'), { nil: null }),
    paidAt: fc.option(
      fc.date({ min: new Date('1000-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }).map((d) => d.toISOString()),
      { nil: null },
    ),
    data: fc.option(
      fc.dictionary(fc.constantFrom('unitId', 'status', 'note'), fc.oneof(fc.string({ unit: 'binary' }), fc.constant('APPROVED'), fc.integer())),
      {
        nil: null,
      },
    ),
    unit: fc.option(fc.record({ id: fc.integer(), displayName: fc.option(fc.string({ unit: 'binary' }), { nil: null }) }), { nil: null }),
    tags: fc.option(fc.array(fc.option(fc.string({ unit: 'binary' }), { nil: null }), { maxLength: 3 }), { nil: null }),
  });

  /** The REST shape of an item as plain data (contract §1), for JSON.stringify to write. */
  const restShape = (v: typeof item extends fc.Arbitrary<infer T> ? T : never) => ({
    id: v.id,
    state: v.state === null ? null : v.state.toLowerCase(), // an alias is the key
    paid_at: v.paidAt === null ? null : laravelTimestamp(v.paidAt),
    data:
      v.data === null
        ? null
        : Object.fromEntries(Object.entries(v.data).map(([k, x]) => [k.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase(), x === 'APPROVED' ? 'approved' : x])),
    unit: v.unit === null ? null : { id: v.unit.id, display_name: v.unit.displayName },
    tags: v.tags,
  });

  it('writes the text JSON.stringify writes of the REST shape: snake_case keys in selection order, enums lower case, timestamps, nulls', () => {
    fc.assert(
      fc.property(fc.option(fc.array(item, { maxLength: 4 }), { nil: null }), (items) => {
        expect(write(items)).toBe(JSON.stringify(items === null ? null : items.map(restShape)));
      }),
      { numRuns: 1000 },
    );
  });

  it('wraps written data in the envelope, members in order', () => {
    expect(envelopeText('[1]', {})).toBe('{"success":true,"data":[1]}');
    expect(envelopeText('{"id":1}', { links: { next: null }, meta: { total: 1 }, message: 'ok' })).toBe(
      '{"success":true,"data":{"id":1},"links":{"next":null},"meta":{"total":1},"message":"ok"}',
    );
  });
});
