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

/** A JSON number, as the Decimal scalar's text always is ("-12.50"): written bare, digit for digit. */
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?$/;

/** A decimal as a JSON number literal, never through a float: "1250.50" → 1250.5, "100.00" → 100. */
function decimalLiteral(value: unknown): string {
  const text = String(value);
  const trimmed = text.includes('.') ? text.replace(/\.?0+$/, '') : text;
  // Text that is not a plain number is never spliced into the JSON raw: it goes out as a string.
  return JSON_NUMBER.test(trimmed) ? trimmed : JSON.stringify(text);
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

/** Writes a GraphQL result value as the REST face's JSON text. */
export type Writer = (value: unknown) => string;

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
 * Compiles, once per route, a function that writes a GraphQL result as the REST JSON text itself:
 * snake_case keys in selection order, Decimal → JSON number, DateTime → Laravel timestamp, enum →
 * lower case. Written straight to text rather than shaped into objects for JSON.stringify: no
 * second copy of the answer, and a decimal needs no marker to be cut out of a string afterwards.
 */
export function compileWriter(
  schema: GraphQLSchema,
  fragments: Record<string, FragmentDefinitionNode>,
  type: GraphQLOutputType,
  selectionSet?: SelectionSetNode,
): Writer {
  if (type instanceof GraphQLNonNull) return compileWriter(schema, fragments, type.ofType, selectionSet);
  if (type instanceof GraphQLList) {
    const item = compileWriter(schema, fragments, type.ofType, selectionSet);
    return (v) => {
      if (v == null) return 'null';
      const items = v as unknown[];
      let text = '[';
      for (let i = 0; i < items.length; i++) text += (i ? ',' : '') + item(items[i]);
      return text + ']';
    };
  }
  // Enum value names are GraphQL names ([_A-Za-z][_0-9A-Za-z]*): nothing in them needs escaping.
  if (type instanceof GraphQLEnumType) return (v) => (v == null ? 'null' : '"' + String(v).toLowerCase() + '"');
  if (type instanceof GraphQLObjectType && selectionSet) {
    const fields = selectedFields(type, selectionSet, fragments);
    const keys = fields.map((f) => f.key);
    // '{"id":' for the first member, ',"unit_id":' for the others.
    const prefixes = fields.map((f, i) => (i ? ',' : '{') + JSON.stringify(f.out) + ':');
    const writers = fields.map((f) => compileWriter(schema, fragments, f.type, f.selectionSet));
    return (v) => {
      if (v == null) return 'null';
      const src = v as Record<string, unknown>;
      let text = '';
      for (let i = 0; i < keys.length; i++) text += prefixes[i] + writers[i](src[keys[i]]);
      return text + '}';
    };
  }
  switch (getNamedType(type).name) {
    case 'JSON':
    case 'JSONObject': {
      const enumNames = enumValueNames(schema);
      return (v) => (v == null ? 'null' : JSON.stringify(restJson(v, enumNames)));
    }
    case 'Decimal':
      return (v) => (v == null ? 'null' : decimalLiteral(v));
    case 'DateTime':
      // The timestamp's characters (digits, "-", ":", "T", "+") need no escaping.
      return (v) => (v == null ? 'null' : '"' + laravelTimestamp(v) + '"');
    default:
      return (v) => (v == null ? 'null' : JSON.stringify(v));
  }
}

/** `{"success":true,"data":…}` and the envelope's other members: `data` is JSON text already. */
export function envelopeText(data: string, members: Record<string, unknown>): string {
  const rest = JSON.stringify(members);
  return '{"success":true,"data":' + data + (rest === '{}' ? '}' : ',' + rest.slice(1));
}
