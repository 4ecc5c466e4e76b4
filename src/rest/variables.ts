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
import { ValidationError, type FieldErrors } from '../errors';
import { snake } from './serialize';

/**
 * Query strings and JSON bodies → GraphQL variables, driven by the operation's variable types:
 * snake_case keys are looked up for camelCase fields, numeric strings become Int, enum values are
 * matched case-insensitively, and unknown keys are ignored. Type mismatches become one 422 with
 * Laravel-style messages per field (named as the GraphQL face names them; REST snake-cases them).
 */
export type Coercer = (raw: Record<string, unknown>) => Record<string, unknown>;

const label = (field: string) => snake(field).replace(/_/g, ' ');
const isBlank = (v: unknown) => v === undefined || v === null || v === '';

function coerce(type: GraphQLInputType, raw: unknown, field: string, errors: FieldErrors): unknown {
  if (type instanceof GraphQLNonNull) {
    if (isBlank(raw)) {
      errors[field] = [`The ${label(field)} field is required.`];
      return undefined;
    }
    return coerce(type.ofType, raw, field, errors);
  }
  if (isBlank(raw)) return null;
  const fail = (message: string) => {
    errors[field] = [message];
    return undefined;
  };
  if (type instanceof GraphQLList) {
    const list = Array.isArray(raw) ? raw : [raw];
    return list.map((item) => coerce(type.ofType, item, field, errors));
  }
  if (type instanceof GraphQLInputObjectType) {
    if (typeof raw !== 'object' || Array.isArray(raw)) return fail(`The ${label(field)} field must be an object.`);
    const src = raw as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [name, def] of Object.entries(type.getFields())) {
      const given = src[snake(name)] ?? src[name];
      const value = coerce(def.type, given, name, errors);
      // An absent key stays absent; an explicit null or "" is passed on as null (clears a field).
      if (value !== undefined && given !== undefined) out[name] = value;
    }
    return out;
  }
  if (type instanceof GraphQLEnumType) {
    const match = type.getValues().find((v) => v.name === String(raw).toUpperCase());
    return match ? match.value : fail(`The selected ${label(field)} is invalid.`);
  }
  const scalar = type as GraphQLScalarType;
  switch (scalar.name) {
    case 'Int': {
      const s = String(raw).trim();
      if (typeof raw === 'boolean' || !/^-?\d+$/.test(s) || !Number.isSafeInteger(Number(s)) || Math.abs(Number(s)) > 2147483647) {
        return fail(`The ${label(field)} field must be an integer.`);
      }
      return Number(s);
    }
    case 'Boolean':
      if (raw === true || raw === 'true' || raw === '1' || raw === 1) return true;
      if (raw === false || raw === 'false' || raw === '0' || raw === 0) return false;
      return fail(`The ${label(field)} field must be true or false.`);
    case 'String':
    case 'ID':
      return typeof raw === 'string' || typeof raw === 'number' ? String(raw) : fail(`The ${label(field)} field must be a string.`);
    case 'Decimal':
      // The scalar's own rule (≤ 15 integer digits, ≤ 6 places), reported as a field error.
      try {
        scalar.parseValue(raw);
        return String(raw).trim();
      } catch {
        return fail(`The ${label(field)} field must be a number with at most 6 decimal places.`);
      }
    default:
      try {
        scalar.parseValue(raw);
        return raw;
      } catch {
        return fail(scalar.name === 'Date' ? `The ${label(field)} field must be a valid date (YYYY-MM-DD).` : `The ${label(field)} field is invalid.`);
      }
  }
}

export function compileCoercer(schema: GraphQLSchema, defs: readonly VariableDefinitionNode[]): Coercer {
  const vars = defs.map((d) => ({ name: d.variable.name.value, type: typeFromAST(schema, d.type as never) as GraphQLInputType }));
  return (raw) => {
    const errors: FieldErrors = {};
    const out: Record<string, unknown> = {};
    for (const v of vars) {
      const value = coerce(v.type, raw[v.name], v.name, errors);
      if (value !== undefined) out[v.name] = value;
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    return out;
  };
}
