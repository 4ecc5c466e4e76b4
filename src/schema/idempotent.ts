import { Kind, type DocumentNode, type GraphQLField, type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import { Extensions } from 'type-graphql';

/**
 * Marks a mutation that creates a record or moves money: an `Idempotency-Key` header makes it
 * replay-safe (contract §1). The one list of such operations: the GraphQL plugin reads it from the
 * schema, and a REST route is idempotent when the mutation it runs carries it.
 */
export const Idempotent = () => Extensions({ idempotent: true });

export const isIdempotentField = (field: GraphQLField<unknown, unknown> | undefined) => field?.extensions?.idempotent === true;

const IDEMPOTENCY_NOTE =
  'Retry-safe with an Idempotency-Key header (1..255 printable ASCII, scoped to the user): the first answer is replayed for 24 h; ' +
  'the same key with another request is HTTP 422 (BAD_USER_INPUT, fields.idempotencyKey), and while the first still runs HTTP 409 (CONFLICT).';

/** Whether a mutation operation selects (directly or through fragments) any idempotent root field. */
export function selectsIdempotentField(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): boolean {
  const fields = schema.getMutationType()?.getFields();
  if (operation.operation !== 'mutation' || !fields) return false;
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d.selectionSet] as const] : [])));
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode): boolean =>
    set.selections.some((s) => {
      if (s.kind === Kind.FIELD) return isIdempotentField(fields[s.name.value]);
      if (s.kind === Kind.INLINE_FRAGMENT) return walk(s.selectionSet);
      if (seen.has(s.name.value)) return false;
      seen.add(s.name.value);
      const fragment = fragments.get(s.name.value);
      return fragment ? walk(fragment) : false;
    });
  return walk(operation.selectionSet);
}

/**
 * Adds to the description of every idempotent mutation what the header does, so clients learn it
 * from the schema itself, with the mark above as the only list (docs/api.md, "Idempotency keys").
 */
export function describeIdempotentFields(schema: GraphQLSchema): GraphQLSchema {
  for (const field of Object.values(schema.getMutationType()?.getFields() ?? {})) {
    if (isIdempotentField(field)) field.description = `${field.description ?? ''} ${IDEMPOTENCY_NOTE}`.trim();
  }
  return schema;
}
