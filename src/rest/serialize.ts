import {
  GraphQLEnumType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  Kind,
  getNamedType,
  type FieldNode,
  type GraphQLOutputType,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';

/** camelCase → snake_case, the REST face's field names. */
export const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/**
 * A decimal is written into JSON as a number literal, digit for digit (never through a float): the
 * shaper leaves it as this mark plus its digits, a string that `stringify` turns into the bare number.
 * (No text can carry the mark: PostgreSQL refuses NUL in text and JSON, and so does every text input.)
 */
const MARK = '\u0000num:';
const MARK_RE = /"\\u0000num:([-0-9.]+)"/g;

function decimalLiteral(value: unknown): string {
  const text = String(value);
  // "1250.50" → 1250.5, "100.00" → 100: the JSON number with no needless zeros.
  return MARK + (text.includes('.') ? text.replace(/\.?0+$/, '') : text);
}

/** toISOString's text of a four-digit year, as the DateTime scalar writes it. */
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * "2026-03-31T00:00:00.000Z" → "2026-03-31T00:00:00+00:00" (ISO 8601, UTC offset, no fraction).
 * The DateTime scalar writes toISOString's text: cut, not read again. Anything else (other years, a
 * Date, a time value) goes through toISOString, whose forms and errors it keeps.
 */
export function laravelTimestamp(value: unknown): string {
  if (typeof value === 'string' && ISO_UTC.test(value)) return value.slice(0, 19) + '+00:00';
  return new Date(value as string).toISOString().slice(0, 19) + '+00:00';
}

/** JSON text of a shaped answer; a plain JSON.stringify (a replacer function costs a call per value). */
export function stringify(body: unknown): string {
  return JSON.stringify(body).replace(MARK_RE, '$1');
}

export type Shaper = (value: unknown) => unknown;

const enumNamesOf = new WeakMap<GraphQLSchema, Set<string>>();

/** Every enum value name of the schema (`APPROVED`, `NATIONAL_ID`, …). */
function enumValueNames(schema: GraphQLSchema): Set<string> {
  let names = enumNamesOf.get(schema);
  if (!names) {
    const enums = Object.values(schema.getTypeMap()).filter((t): t is GraphQLEnumType => t instanceof GraphQLEnumType && !t.name.startsWith('__'));
    names = new Set(enums.flatMap((t) => t.getValues().map((v) => v.name)));
    enumNamesOf.set(schema, names);
  }
  return names;
}

/**
 * Free-form JSON (a notification's `data`) as REST writes it (contract §1): snake_case keys at every
 * depth and the schema's enum values in lower case, as for typed fields.
 */
function restJson(value: unknown, enumNames: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => restJson(item, enumNames));
  if (typeof value === 'string') return enumNames.has(value) ? value.toLowerCase() : value;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [snake(k), restJson(v, enumNames)]));
}

export interface SelectedField {
  /** Response key (alias or field name) and its REST name. */
  key: string;
  out: string;
  type: GraphQLOutputType;
  selectionSet?: SelectionSetNode;
}

/** The fields a selection set picks on an object type, fragments spread in place (their order is the output order). */
export function selectedFields(type: GraphQLObjectType, selectionSet: SelectionSetNode, fragments: Record<string, FragmentDefinitionNode>): SelectedField[] {
  const fields = type.getFields();
  const flatten = (sels: readonly SelectionNode[]): FieldNode[] =>
    sels.flatMap((sel) =>
      sel.kind === Kind.FRAGMENT_SPREAD
        ? flatten(fragments[sel.name.value].selectionSet.selections)
        : sel.kind === Kind.INLINE_FRAGMENT
          ? flatten(sel.selectionSet.selections)
          : [sel],
    );
  return flatten(selectionSet.selections).map((sel) => {
    const key = sel.alias?.value ?? sel.name.value;
    const def = fields[sel.name.value];
    if (!def) throw new Error(`Unknown field ${type.name}.${sel.name.value}`);
    return { key, out: snake(key), type: def.type, selectionSet: sel.selectionSet };
  });
}

/**
 * Compiles, once per route, a function that turns a GraphQL result into the REST shape: snake_case
 * keys in selection order, Decimal → JSON number, DateTime → Laravel timestamp, enum → lower case.
 */
export function compileShaper(
  schema: GraphQLSchema,
  fragments: Record<string, FragmentDefinitionNode>,
  type: GraphQLOutputType,
  selectionSet?: SelectionSetNode,
): Shaper {
  if (type instanceof GraphQLNonNull) return compileShaper(schema, fragments, type.ofType, selectionSet);
  if (type instanceof GraphQLList) {
    const item = compileShaper(schema, fragments, type.ofType, selectionSet);
    return (v) => (v == null ? null : (v as unknown[]).map(item));
  }
  if (type instanceof GraphQLEnumType) return (v) => (v == null ? null : String(v).toLowerCase());
  if (type instanceof GraphQLObjectType && selectionSet) {
    const parts = selectedFields(type, selectionSet, fragments).map((f) => ({ ...f, shape: compileShaper(schema, fragments, f.type, f.selectionSet) }));
    return (v) => {
      if (v == null) return null;
      const src = v as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const p of parts) out[p.out] = p.shape(src[p.key]);
      return out;
    };
  }
  switch (getNamedType(type).name) {
    case 'JSON':
    case 'JSONObject': {
      const enumNames = enumValueNames(schema);
      return (v) => (v == null ? null : restJson(v, enumNames));
    }
    case 'Decimal':
      return (v) => (v == null ? null : decimalLiteral(v));
    case 'DateTime':
      return (v) => (v == null ? null : laravelTimestamp(v));
    default:
      return (v) => v ?? null;
  }
}
