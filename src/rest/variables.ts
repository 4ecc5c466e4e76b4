import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLScalarType,
  typeFromAST,
  type GraphQLInputType,
  type GraphQLSchema,
  type VariableDefinitionNode,
} from 'graphql';
import { Upload } from '../http/multipart';
import { ValidationError, type FieldErrors } from '../domain/errors';
import { snake } from './serialize';

/**
 * Query strings, form fields and JSON bodies → GraphQL variables, driven by the operation's variable
 * types: snake_case keys are looked up for camelCase fields, enum values are matched
 * case-insensitively, and unknown keys are ignored. Text sources (query strings, multipart fields)
 * carry every value as a string, so there numeric strings become Int and Decimal and "true"/"1" a
 * Boolean; JSON bodies are typed strictly (contract §1, Laravel's `string`/`integer`/`numeric`/
 * `boolean`/`array` rules): a number for text, a string for a number, an array or object for a
 * scalar are refused. Mismatches become one 422 with a message per field (named as the GraphQL face
 * names them; REST snake-cases them). Text content rules (UTF-8, NUL, lengths) are the schema's.
 */
export type Coercer = (raw: Record<string, unknown>, source: InputSource) => Record<string, unknown>;

/** `text`: every value arrived as a string (query string, form field); `json`: a typed JSON body. */
export type InputSource = 'text' | 'json';

const label = (field: string) => snake(field).replace(/_/g, ' ');
const isBlank = (v: unknown) => v === undefined || v === null || v === '';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const INT_MAX = 2147483647;

function coerce(type: GraphQLInputType, raw: unknown, field: string, source: InputSource, errors: FieldErrors): unknown {
  if (type instanceof GraphQLNonNull) {
    if (isBlank(raw)) {
      errors[field] = [`The ${label(field)} field is required.`];
      return undefined;
    }
    return coerce(type.ofType, raw, field, source, errors);
  }
  if (isBlank(raw)) return null;
  const fail = (message: string) => {
    errors[field] = [message];
    return undefined;
  };
  const strict = source === 'json';
  if (type instanceof GraphQLList) {
    if (strict && !Array.isArray(raw)) return fail(`The ${label(field)} field must be an array.`);
    const list = Array.isArray(raw) ? raw : [raw];
    return list.map((item) => coerce(type.ofType, item, field, source, errors));
  }
  if (type instanceof GraphQLInputObjectType) {
    if (!isObject(raw)) return fail(`The ${label(field)} field must be an object.`);
    const out: Record<string, unknown> = {};
    for (const [name, def] of Object.entries(type.getFields())) {
      // Own keys only: `constructor` or `__proto__` in a body never reach a field.
      const key = Object.hasOwn(raw, snake(name)) ? snake(name) : name;
      const given = Object.hasOwn(raw, key) ? raw[key] : undefined;
      const value = coerce(def.type, given, name, source, errors);
      // An absent key stays absent; an explicit null or "" is passed on as null (clears a field).
      if (value !== undefined && given !== undefined) out[name] = value;
    }
    return out;
  }
  if (type instanceof GraphQLEnumType) {
    const match = typeof raw === 'string' ? type.getValues().find((v) => v.name === raw.toUpperCase()) : undefined;
    return match ? match.value : fail(`The selected ${label(field)} is invalid.`);
  }
  const scalar = type as GraphQLScalarType;
  switch (scalar.name) {
    case 'Int': {
      const n = strict ? raw : typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : raw;
      return typeof n === 'number' && Number.isInteger(n) && Math.abs(n) <= INT_MAX ? n : fail(`The ${label(field)} field must be an integer.`);
    }
    case 'Boolean':
      // Laravel's `boolean`: true, false, 1, 0, "1", "0"; query strings also say "true"/"false".
      if (raw === true || raw === 1 || raw === '1' || (!strict && raw === 'true')) return true;
      if (raw === false || raw === 0 || raw === '0' || (!strict && raw === 'false')) return false;
      return fail(`The ${label(field)} field must be true or false.`);
    case 'String':
    case 'ID':
      return typeof raw === 'string' ? raw : fail(`The ${label(field)} field must be a string.`);
    case 'Decimal': {
      // JSON: a number (read as a double: exact up to 15 significant digits); text: its digits.
      if (typeof raw !== 'number' && (strict || typeof raw !== 'string')) return fail(`The ${label(field)} field must be a number.`);
      // The scalar's own rule (≤ 15 integer digits, ≤ 6 places), reported as a field error.
      try {
        scalar.parseValue(raw);
        return String(raw).trim();
      } catch {
        return fail(`The ${label(field)} field must be a number with at most 6 decimal places.`);
      }
    }
    case 'Upload':
      // The multipart reader's file part: passed on for the scalar, which streams it.
      return raw instanceof Upload ? raw : fail(`The ${label(field)} field must be a file.`);
    default:
      try {
        if (typeof raw !== 'string') throw new TypeError('text expected');
        scalar.parseValue(raw);
        return raw;
      } catch {
        return fail(scalar.name === 'Date' ? `The ${label(field)} field must be a valid date (YYYY-MM-DD).` : `The ${label(field)} field is invalid.`);
      }
  }
}

export function compileCoercer(schema: GraphQLSchema, defs: readonly VariableDefinitionNode[]): Coercer {
  const vars = defs.map((d) => ({ name: d.variable.name.value, type: typeFromAST(schema, d.type as never) as GraphQLInputType }));
  return (raw, source) => {
    const errors: FieldErrors = {};
    const out: Record<string, unknown> = {};
    for (const v of vars) {
      const value = coerce(v.type, raw[v.name], v.name, source, errors);
      if (value !== undefined) out[v.name] = value;
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    return out;
  };
}
