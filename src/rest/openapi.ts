import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  Kind,
  getNamedType,
  typeFromAST,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { present } from '../invariant';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../pagination';
import type { RestRoute } from './route';
import { selectedFields, snake } from './serialize';
import { isIdempotentField } from '../schema/idempotent';

/**
 * OpenAPI 3.1 document generated from the route table: paths and methods from the rows, query and
 * body fields from what each row's `variables` mapping reads (recorded, then typed by the
 * operation's GraphQL variable types), responses from the operation's selection and the envelope.
 */
type Json = Record<string, unknown>;

const nullable = (schema: Json): Json => (schema.$ref || schema.oneOf ? { oneOf: [schema, { type: 'null' }] } : { ...schema, type: [schema.type, 'null'] });

function scalarSchema(name: string): Json {
  switch (name) {
    case 'Int':
      return { type: 'integer' };
    case 'Float':
      return { type: 'number' };
    case 'Boolean':
      return { type: 'boolean' };
    case 'Decimal':
      return { type: 'number', description: 'Exact decimal (money: 2 places; ownership percentage: up to 6).' };
    case 'DateTime':
      return { type: 'string', format: 'date-time', example: '2026-03-31T00:00:00+00:00' };
    case 'Date':
      return { type: 'string', format: 'date', example: '2026-03-31' };
    default:
      return { type: 'string' };
  }
}

const enumSchema = (t: GraphQLEnumType): Json => ({ type: 'string', enum: t.getValues().map((v) => v.name.toLowerCase()) });

function inputSchema(type: GraphQLInputType): Json {
  const inner = (t: GraphQLInputType): Json => {
    if (t instanceof GraphQLNonNull) return inner(t.ofType);
    if (t instanceof GraphQLList) return { type: 'array', items: inputSchema(t.ofType) };
    if (t instanceof GraphQLEnumType) return enumSchema(t);
    if (t instanceof GraphQLInputObjectType) {
      const fields = Object.values(t.getFields());
      const required = fields.filter((f) => f.type instanceof GraphQLNonNull).map((f) => snake(f.name));
      return {
        type: 'object',
        properties: Object.fromEntries(fields.map((f) => [snake(f.name), { ...inputSchema(f.type), ...(f.description ? { description: f.description } : {}) }])),
        ...(required.length ? { required } : {}),
      };
    }
    return scalarSchema(t.name);
  };
  return type instanceof GraphQLNonNull ? inner(type) : nullable(inner(type));
}

function outputSchema(type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined, fragments: Record<string, FragmentDefinitionNode>): Json {
  const inner = (t: GraphQLOutputType): Json => {
    if (t instanceof GraphQLNonNull) return inner(t.ofType);
    if (t instanceof GraphQLList) return { type: 'array', items: outputSchema(t.ofType, selectionSet, fragments) };
    if (t instanceof GraphQLEnumType) return enumSchema(t);
    if (t instanceof GraphQLObjectType && selectionSet) {
      const fields = selectedFields(t, selectionSet, fragments);
      return {
        type: 'object',
        properties: Object.fromEntries(fields.map((f) => [f.out, outputSchema(f.type, f.selectionSet, fragments)])),
        required: fields.map((f) => f.out),
      };
    }
    return scalarSchema(getNamedType(t).name);
  };
  return type instanceof GraphQLNonNull ? inner(type) : nullable(inner(type));
}

const MARK = '\u0000openapi:';

interface Recorded {
  query: Array<{ name: string; schema: Json; required: boolean }>;
  body: Json | null;
}

/** Runs a row's `variables` mapping on recording stand-ins and types what it read. */
function record(schema: GraphQLSchema, op: OperationDefinitionNode, r: RestRoute<unknown>): Recorded {
  const out: Recorded = { query: [], body: null };
  if (!r.variables) return out;
  const query = new Proxy({}, { get: (_t, key) => (typeof key === 'string' ? `${MARK}query:${key}` : undefined) });
  const body = new Proxy({}, { get: (_t, key) => (typeof key === 'string' ? `${MARK}body:${key}` : undefined) });
  const params = new Proxy({}, { get: () => '1' }); // path parameters are documented from the path itself
  const vars = r.variables({ query, body, params } as never) as Record<string, unknown>;
  const bodyProps: Record<string, Json> = {};
  const bodyRequired: string[] = [];

  const walk = (value: unknown, type: GraphQLInputType) => {
    const named = type instanceof GraphQLNonNull ? type.ofType : type;
    if (value === body) {
      const whole = inputSchema(named as GraphQLInputType);
      Object.assign(bodyProps, whole.properties as Json);
      bodyRequired.push(...((whole.required as string[]) ?? []));
    } else if (typeof value === 'string' && value.startsWith(MARK)) {
      const [source, name] = value.slice(MARK.length).split(':');
      const s = inputSchema(type);
      if (source === 'query') out.query.push({ name, schema: s, required: type instanceof GraphQLNonNull });
      else {
        bodyProps[name] = s;
        if (type instanceof GraphQLNonNull) bodyRequired.push(name);
      }
    } else if (value && typeof value === 'object' && named instanceof GraphQLInputObjectType) {
      const fields = named.getFields();
      for (const [k, v] of Object.entries(value)) walk(v, fields[k].type);
    }
  };
  for (const def of op.variableDefinitions ?? []) {
    walk(vars[def.variable.name.value], typeFromAST(schema, def.type as never) as GraphQLInputType);
  }
  if (Object.keys(bodyProps).length) out.body = { type: 'object', properties: bodyProps, ...(bodyRequired.length ? { required: [...new Set(bodyRequired)] } : {}) };
  return out;
}

const error = (description: string, message: string, extra: Json = {}) => ({
  description,
  content: {
    'application/json': {
      schema: { type: 'object', properties: { success: { const: false }, message: { type: 'string', example: message }, ...extra }, required: ['success', 'message'] },
    },
  },
});

const COMPONENTS = {
  securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
  schemas: {
    PaginationLinks: {
      type: 'object',
      properties: { first: { type: 'string' }, last: { type: 'string' }, prev: { type: ['string', 'null'] }, next: { type: ['string', 'null'] } },
      required: ['first', 'last', 'prev', 'next'],
    },
    PaginationMeta: {
      type: 'object',
      description: 'Laravel length-aware paginator meta; keys in this order.',
      properties: {
        current_page: { type: 'integer' },
        from: { type: ['integer', 'null'] },
        last_page: { type: 'integer' },
        links: {
          type: 'array',
          items: { type: 'object', properties: { url: { type: ['string', 'null'] }, label: { type: 'string' }, active: { type: 'boolean' } }, required: ['url', 'label', 'active'] },
        },
        path: { type: 'string' },
        per_page: { type: 'integer' },
        to: { type: ['integer', 'null'] },
        total: { type: 'integer' },
      },
      required: ['current_page', 'from', 'last_page', 'links', 'path', 'per_page', 'to', 'total'],
    },
  },
  responses: {
    Unauthenticated: error('Missing, invalid, expired or revoked bearer token', 'Unauthenticated.'),
    Forbidden: error('Role not allowed', 'This action is unauthorized.'),
    NotFound: error('Missing, or owned by someone else', 'Resource not found.'),
    Conflict: error('State conflict', 'This withdrawal request is approved and cannot be cancelled.'),
    ValidationFailed: error('Validation failure', 'The per page field must be between 1 and 100.', {
      errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
    }),
    TooManyAttempts: error('Rate limited (Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining headers)', 'Too Many Attempts.'),
    ServerError: error('Unexpected failure', 'Server Error.'),
    Unavailable: error('Database unreachable', 'Service temporarily unavailable.'),
  },
};

/** JSON, or multipart/form-data with the file field as binary for upload routes. */
function requestContent(r: RestRoute<unknown>, body: Json): Json {
  if (!r.multipartFile) return { 'application/json': { schema: body } };
  const properties = { ...(body.properties as Json), [r.multipartFile]: { type: 'string', format: 'binary' } };
  return { 'multipart/form-data': { schema: { ...body, properties } } };
}

const tagOf = (path: string) =>
  path
    .split('/')[1]
    .split('-')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(' ');

export function buildOpenApi(schema: GraphQLSchema, operations: Map<string, DocumentNode>, routes: RestRoute<unknown>[]): Json {
  const paths: Record<string, Json> = {};
  for (const r of routes) {
    const document = present(operations.get(r.operation), r.operation);
    const op = present(document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION), r.operation);
    const fragments = Object.fromEntries(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
    const root = present(op.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType(), op.operation);
    const field = op.selectionSet.selections[0];
    if (field.kind !== Kind.FIELD) continue;
    const fieldType = root.getFields()[field.name.value].type;
    const envelope = r.envelope ?? 'item';
    let data: Json;
    if (r.emptyData) data = { type: 'array', maxItems: 0 };
    else if (envelope === 'item') data = outputSchema(fieldType, field.selectionSet, fragments);
    else {
      const items = field.selectionSet?.selections.find((s) => s.kind === Kind.FIELD && s.name.value === 'items');
      const pageType = getNamedType(fieldType) as GraphQLObjectType;
      data = outputSchema(pageType.getFields().items.type, items?.kind === Kind.FIELD ? items.selectionSet : undefined, fragments);
    }
    const envelopeProps: Json = { success: { const: true }, data };
    if (envelope === 'paginated') envelopeProps.links = { $ref: '#/components/schemas/PaginationLinks' };
    if (envelope !== 'item') envelopeProps.meta = { $ref: '#/components/schemas/PaginationMeta' };
    if (r.message) envelopeProps.message = { type: 'string', example: r.message };

    const recorded = record(schema, op, r);
    const pathParams = [...r.path.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }));
    const pageParams =
      envelope === 'item'
        ? []
        : [{ name: 'page', in: 'query', description: 'Default 1; anything but an integer ≥ 1 means 1; past the end gives an empty page.', schema: { type: 'integer' } }];
    const headerParams =
      r.method === 'POST' && op.operation === 'mutation' && isIdempotentField(root.getFields()[field.name.value])
        ? [{
            name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
            description: 'Optional; 1..255 printable ASCII, scoped to the user. A retry with the same key and body replays the first answer for 24 h (header `Idempotent-Replayed: true`); another body is 422 (`errors.idempotency_key`); while the first still runs, 409.',
          }]
        : [];
    const queryParams = recorded.query.map((q) => ({
      name: q.name,
      in: 'query',
      required: q.required,
      schema: q.name === 'per_page' ? { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE } : q.schema,
    }));
    const status = String(r.status ?? 200);
    const noStore = r.noStore ? { headers: { 'Cache-Control': { description: 'Token answers are never cached.', schema: { type: 'string', const: 'no-store' } } } } : {};
    const responses: Json = {
      [status]: r.download
        ? { description: 'The file, as an attachment (Content-Disposition)', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } }
        : { description: r.message ?? 'Success', content: { 'application/json': { schema: { type: 'object', properties: envelopeProps, required: Object.keys(envelopeProps) } } }, ...noStore },
    };
    if (r.auth !== 'guest') responses['401'] = { $ref: '#/components/responses/Unauthenticated' };
    if (r.auth !== 'guest') responses['403'] = { $ref: '#/components/responses/Forbidden' };
    if (pathParams.length) responses['404'] = { $ref: '#/components/responses/NotFound' };
    if (op.operation === 'mutation') responses['409'] = { $ref: '#/components/responses/Conflict' };
    if (queryParams.length || recorded.body) responses['422'] = { $ref: '#/components/responses/ValidationFailed' };
    if (r.auth === 'guest' && op.operation === 'mutation') responses['429'] = { $ref: '#/components/responses/TooManyAttempts' };
    responses['500'] = { $ref: '#/components/responses/ServerError' };
    responses['503'] = { $ref: '#/components/responses/Unavailable' };

    const path = r.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][r.method.toLowerCase()] = {
      tags: [tagOf(r.path)],
      summary: r.summary,
      operationId: r.operation,
      description: `Runs the GraphQL ${op.operation} \`${r.operation}\` (field \`${field.name.value}\`).${r.auth === 'admin' ? ' Admin only.' : ''}`,
      security: r.auth === 'guest' ? [] : [{ bearer: [] }],
      ...(pathParams.length || pageParams.length || queryParams.length || headerParams.length ? { parameters: [...pathParams, ...pageParams, ...queryParams, ...headerParams] } : {}),
      ...(recorded.body ? { requestBody: { required: true, content: requestContent(r, recorded.body) } } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Investment platform REST API',
      version: '1.0.0',
      description: 'The REST compatibility layer of the investment platform gateway. Every operation runs the GraphQL operation named in its description; conventions: docs/api.md.',
    },
    servers: [{ url: '/api/v1' }],
    paths,
    components: COMPONENTS,
  };
}
