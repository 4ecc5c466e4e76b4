import { GraphQLScalarType, Kind } from 'graphql';
import { GraphQLDate, GraphQLDateTime } from 'graphql-scalars';
import { Decimal, dec, type DecimalInput } from '../domain/money';

export { GraphQLDate as DateScalar };

/**
 * graphql-scalars' DateTime (its parsing, validation and description), written out as its ISO text
 * rather than handed on as a Date: the same JSON (a Date's toJSON is toISOString), but one Date in a
 * result sends JSON.stringify down its slow path for the whole answer (14.5 % of a GraphQL list
 * request's CPU went to Apollo's JSON.stringify of results that held them).
 */
export const DateTimeScalar = new GraphQLScalarType({
  ...GraphQLDateTime.toConfig(),
  serialize: (value) => (GraphQLDateTime.serialize(value) as Date).toISOString(),
});

const DECIMAL_TEXT = /^-?\d{1,15}(\.\d{1,6})?$/;

function toFixedText(value: unknown): string {
  if (value === null || value === undefined) throw new TypeError('Decimal cannot represent an empty value');
  // The services hand Decimals: taken as they are, not re-read from their text for every leaf.
  const d = dec(value as DecimalInput);
  // At least two places (money: "1250.50"), more only when the value has them (percentages: "12.345678").
  // toString has exactly those digits when it writes no exponent (and "0" for -0, as toFixed does),
  // without toFixed's rounded copy: decimal.js was 4 % of a GraphQL list's CPU. NaN and ±Infinity
  // go to toFixed too, which refuses them.
  const text = d.toString();
  if (!d.isFinite() || text.includes('e')) return d.toFixed(Math.max(2, d.decimalPlaces()));
  const dot = text.indexOf('.');
  return dot < 0 ? text + '.00' : dot === text.length - 2 ? text + '0' : text;
}

/** Exact decimal numbers, serialized as strings ("1250.50"); input accepts strings or numbers. */
export const DecimalScalar = new GraphQLScalarType<Decimal, string>({
  name: 'Decimal',
  description: 'An exact decimal number as a string, e.g. "1250.50" (money: 2 places; ownership percentages: up to 6).',
  serialize: toFixedText,
  parseValue(value) {
    const text = typeof value === 'number' ? String(value) : value;
    if (typeof text !== 'string' || !DECIMAL_TEXT.test(text.trim())) throw new TypeError('Decimal must be a decimal number such as "1250.50"');
    return new Decimal(text.trim());
  },
  parseLiteral(ast) {
    if ((ast.kind === Kind.STRING || ast.kind === Kind.INT || ast.kind === Kind.FLOAT) && DECIMAL_TEXT.test(ast.value)) return new Decimal(ast.value);
    throw new TypeError('Decimal must be a decimal number such as "1250.50"');
  },
});
