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
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { MAX_JSON_DEPTH } from '../http/json-body';
import { present } from '../platform/invariant';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../services/pagination';
import type { RouteDeprecation } from './deprecation';
import type { RestRoute } from './route';
import { selectedFields, snake } from './serialize';
import { isIdempotentField } from '../schema/idempotent';
import committedExamples from './openapi-examples.json';

/**
 * OpenAPI 3.1 document generated from the route table: paths and methods from the rows, query and
 * body fields from what each row's `variables` mapping reads (recorded, then typed by the
 * operation's GraphQL variable types), responses from the operation's selection and the envelope.
 */
type Json = Record<string, unknown>;

const nullable = (schema: Json): Json =>
  schema.$ref || schema.oneOf ? { oneOf: [schema, { type: 'null' }] } : schema.type ? { ...schema, type: [schema.type, 'null'] } : schema; // no type: any value, null included

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
    case 'JSONObject':
      return { type: 'object', description: 'A JSON object; its keys are snake_case.' };
    case 'JSON':
      return { description: 'Any JSON value.' };
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
        properties: Object.fromEntries(
          fields.map((f) => [snake(f.name), { ...inputSchema(f.type), ...(f.description ? { description: f.description } : {}) }]),
        ),
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

export interface Recorded {
  query: Array<{ name: string; schema: Json; required: boolean }>;
  body: Json | null;
}

/** Runs a row's `variables` mapping on recording stand-ins and types what it read. */
export function record(schema: GraphQLSchema, op: OperationDefinitionNode, r: RestRoute<unknown>): Recorded {
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
  if (Object.keys(bodyProps).length)
    out.body = { type: 'object', properties: bodyProps, ...(bodyRequired.length ? { required: [...new Set(bodyRequired)] } : {}) };
  return out;
}

/** Bodies captured from the demo data by `npm run openapi:examples` (scripts/openapi-examples.ts). */
export interface OpenApiExamples {
  /** Per route (`METHOD /path/:param`): the request body sent and the answers by status. */
  operations: Record<string, { request?: unknown; responses: Record<string, unknown> }>;
  /** One answer per error status, shared by every route that can give it. */
  errors: Record<string, unknown>;
}

export const routeKey = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

const ERROR_REF = { $ref: '#/components/schemas/Error' };

/** The contract's error answers (§1), one per status, as reusable responses. */
const ERRORS: Record<string, { name: string; description: string; headers?: Json }> = {
  400: {
    name: 'MalformedBody',
    description: `The body is not well-formed JSON (or multipart), or its JSON nests deeper than ${MAX_JSON_DEPTH} levels (\`JSON nested deeper than ${MAX_JSON_DEPTH} levels.\`).`,
  },
  401: {
    name: 'Unauthenticated',
    description: 'Missing, invalid, expired or revoked bearer token; `WWW-Authenticate` says which (the body is the same for all).',
    headers: {
      'WWW-Authenticate': {
        description:
          'RFC 6750: `Bearer` when no token was sent; `Bearer error="invalid_token", error_description="…"` when one was refused, the description saying whether it expired (refresh it), its session ended (log in again) or it is not valid (log in again). GraphQL carries the same as `extensions.reason`: `TOKEN_EXPIRED`, `SESSION_REVOKED`, `TOKEN_INVALID`.',
        schema: { type: 'string' },
        example: 'Bearer error="invalid_token", error_description="The access token expired; refresh it"',
      },
    },
  },
  403: { name: 'Forbidden', description: 'Signed in, but this role may not call the route.' },
  404: { name: 'NotFound', description: 'No such resource, or it belongs to another investor (never 403 for that).' },
  409: { name: 'Conflict', description: 'A request with this Idempotency-Key is still being processed.' },
  413: { name: 'PayloadTooLarge', description: 'The body is over the size limit.' },
  415: { name: 'UnsupportedMediaType', description: 'The body is not in the content type the route reads.' },
  422: {
    name: 'ValidationFailed',
    description: 'Validation failure: `message` is the first error (plus how many more); `errors` lists them per field (snake_case).',
  },
  429: {
    name: 'TooManyAttempts',
    description: 'Too many attempts: wait `Retry-After` seconds.',
    headers: {
      'Retry-After': { description: 'Seconds until the next attempt may succeed.', schema: { type: 'integer', minimum: 1 } },
      'X-RateLimit-Limit': { description: 'Attempts allowed in the window.', schema: { type: 'integer' } },
      'X-RateLimit-Remaining': { description: 'Attempts left in the window (0).', schema: { type: 'integer' } },
    },
  },
  500: { name: 'ServerError', description: 'Unexpected failure (no stack, no SQL in the answer).' },
  503: { name: 'Unavailable', description: 'The database is unreachable, or the gateway is still starting.' },
};

const errorContent = (example: unknown) => ({ 'application/json': { schema: ERROR_REF, ...(example === undefined ? {} : { example }) } });

function components(examples: OpenApiExamples): Json {
  return {
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'opaque', description: 'The `access_token` that login, register and refresh answer.' },
    },
    schemas: {
      Error: {
        type: 'object',
        description: 'The error envelope of every REST answer that is not a success.',
        properties: {
          success: { const: false },
          message: { type: 'string', description: 'A human sentence.' },
          errors: {
            type: 'object',
            description: 'Validation failures only: messages per field.',
            additionalProperties: { type: 'array', items: { type: 'string' } },
          },
        },
        required: ['success', 'message'],
      },
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
            items: {
              type: 'object',
              properties: { url: { type: ['string', 'null'] }, label: { type: 'string' }, active: { type: 'boolean' } },
              required: ['url', 'label', 'active'],
            },
          },
          path: { type: 'string' },
          per_page: { type: 'integer' },
          to: { type: ['integer', 'null'] },
          total: { type: 'integer' },
        },
        required: ['current_page', 'from', 'last_page', 'links', 'path', 'per_page', 'to', 'total'],
      },
    },
    responses: Object.fromEntries(
      Object.entries(ERRORS).map(([status, e]) => [
        e.name,
        { description: e.description, ...(e.headers ? { headers: e.headers } : {}), content: errorContent(examples.errors[status]) },
      ]),
    ),
  };
}

const errorRef = (status: number) => ({ $ref: `#/components/responses/${ERRORS[status].name}` });

/** JSON, or multipart/form-data with the file field as binary for upload routes. */
function requestContent(r: RestRoute<unknown>, body: Json, example: unknown): Json {
  const withExample = (schema: Json) => ({ schema, ...(example === undefined ? {} : { example }) });
  if (!r.multipartFile) return { 'application/json': withExample(body) };
  const properties = { ...(body.properties as Json), [r.multipartFile]: { type: 'string', format: 'binary' } };
  return { 'multipart/form-data': withExample({ ...body, properties }) };
}

/** A file answer: one entry per media type the file may have; text examples where there is one. */
const fileContent = (types: readonly string[], example: unknown): Json =>
  Object.fromEntries(
    types.map((t) => [
      t,
      {
        schema: { type: 'string', ...(t.startsWith('text/') ? {} : { format: 'binary' }) },
        ...(t.startsWith('text/') && typeof example === 'string' ? { example } : {}),
      },
    ]),
  );

const ATTACHMENT = { 'Content-Disposition': { description: 'attachment; filename="…"; filename*=UTF-8\'\'…', schema: { type: 'string' } } };

/** The headers every answer of a deprecated route carries (router.ts; docs/api.md, "Deprecation policy"). */
const deprecationHeaders = (d: RouteDeprecation): Json => ({
  Deprecation: {
    description: `RFC 9745: the route is deprecated, since this moment (\`@\` and Unix seconds; here ${d.since}).`,
    schema: { type: 'string', pattern: '^@-?\\d+$' },
  },
  Sunset: {
    description: `RFC 8594: the earliest the route may stop answering (an HTTP-date; here ${d.sunset}).`,
    schema: { type: 'string' },
  },
  Link: {
    description: 'The changelog entry that announced the deprecation and names the replacement (`rel="deprecation"`, RFC 9745).',
    schema: { type: 'string', example: `<${d.changelog}>; rel="deprecation"; type="text/html"` },
  },
});

const tagOf = (path: string) =>
  path
    .split('/')[1]
    .split('-')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(' ');

/** What a row runs: its operation, the document's fragments, the root type and the operation's top-level field. */
export interface RouteOperation {
  op: OperationDefinitionNode;
  fragments: Record<string, FragmentDefinitionNode>;
  root: GraphQLObjectType;
  field: FieldNode;
}

/** The operation a row names; null when its first selection is not a field (there is no answer to document). */
export function routeOperation(schema: GraphQLSchema, operations: Map<string, DocumentNode>, r: RestRoute<unknown>): RouteOperation | null {
  const document = present(operations.get(r.operation), r.operation);
  const op = present(
    document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION),
    r.operation,
  );
  const fragments = Object.fromEntries(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  const root = present(op.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType(), op.operation);
  const field = op.selectionSet.selections[0];
  return field.kind === Kind.FIELD ? { op, fragments, root, field } : null;
}

/** The success envelope's properties in the contract's order: `success`, `data` typed from the selection, the paginator's `links` and `meta`, `message`. */
export function envelopeProperties(r: RestRoute<unknown>, { root, field, fragments }: RouteOperation): Json {
  const envelope = r.envelope ?? 'item';
  const fieldType = root.getFields()[field.name.value].type;
  let data: Json;
  if (r.emptyData) data = { type: 'array', maxItems: 0, items: {} };
  else if (envelope === 'item') data = outputSchema(fieldType, field.selectionSet, fragments);
  else {
    // A page: `data` is its items, the rest goes to `meta`.
    const items = field.selectionSet?.selections.find((s) => s.kind === Kind.FIELD && s.name.value === 'items');
    const pageType = getNamedType(fieldType) as GraphQLObjectType;
    data = outputSchema(pageType.getFields().items.type, items?.kind === Kind.FIELD ? items.selectionSet : undefined, fragments);
  }
  const properties: Json = { success: { const: true }, data };
  if (envelope === 'paginated') properties.links = { $ref: '#/components/schemas/PaginationLinks' };
  if (envelope !== 'item') properties.meta = { $ref: '#/components/schemas/PaginationMeta' };
  if (r.message) properties.message = { type: 'string', example: r.message };
  return properties;
}

/** A POST of a mutation marked `@Idempotent()` takes an Idempotency-Key. */
export const takesIdempotencyKey = (r: RestRoute<unknown>, { op, root, field }: RouteOperation): boolean =>
  r.method === 'POST' && op.operation === 'mutation' && isIdempotentField(root.getFields()[field.name.value]);

const PAGE_PARAMETER = {
  name: 'page',
  in: 'query',
  description: 'Default 1; anything but an integer ≥ 1 means 1; past the end gives an empty page.',
  schema: { type: 'integer' },
};

const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
  description:
    'Optional; 1..255 printable ASCII, scoped to the user. A retry with the same key and body replays the first answer for 24 h (header `Idempotent-Replayed: true`); another body is 422 (`errors.idempotency_key`); while the first still runs, 409.',
};

/** A row's parameters by where they are, in the document's order: path ids, `page`, the query fields its mapping reads, headers. */
export interface RouteParameters {
  path: Json[];
  page: Json[];
  query: Json[];
  header: Json[];
}

/** `per_page` carries its bounds and default, which the operation's `Int` does not say. */
export function routeParameters(r: RestRoute<unknown>, recorded: Recorded, idempotent: boolean): RouteParameters {
  return {
    path: [...r.path.matchAll(/:(\w+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      description: 'The id; anything but a positive integer names no resource (404).',
      schema: { type: 'integer', minimum: 1 },
    })),
    page: (r.envelope ?? 'item') === 'item' ? [] : [PAGE_PARAMETER],
    query: recorded.query.map((q) => ({
      name: q.name,
      in: 'query',
      required: q.required,
      schema: q.name === 'per_page' ? { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE } : q.schema,
    })),
    header: idempotent ? [IDEMPOTENCY_KEY_PARAMETER] : [],
  };
}

type CapturedExamples = OpenApiExamples['operations'][string];
/** The errors a row may describe itself (RestRoute.errors). */
type DeclaredStatus = keyof NonNullable<RestRoute<unknown>['errors']>;

/** The answers of a row that succeeded: its status and those its outcome may choose, each an envelope or a file. */
export function successResponses(r: RestRoute<unknown>, envelope: Json, captured: CapturedExamples): Json {
  const headers: Json = {
    ...(r.noStore ? { 'Cache-Control': { description: 'Token answers are never cached.', schema: { type: 'string', const: 'no-store' } } } : {}),
    ...(r.deprecated ? deprecationHeaders(r.deprecated) : {}),
  };
  const success = (status: number): Json =>
    r.download
      ? { description: 'The file, as an attachment.', headers: { ...ATTACHMENT, ...headers }, content: fileContent(r.download, captured.responses[status]) }
      : {
          description: r.message ?? 'Success.',
          ...(Object.keys(headers).length ? { headers } : {}),
          content: {
            'application/json': {
              schema: { type: 'object', properties: envelope, required: Object.keys(envelope) },
              ...(status in captured.responses ? { example: captured.responses[status] } : {}),
            },
          },
        };
  return Object.fromEntries([r.status ?? 200, ...(r.outcomeStatuses ?? [])].sort().map((status) => [status, success(status)]));
}

/** The error statuses a row can answer, from what it reads, who may call it and the errors it declares. */
export function applicableErrors(r: RestRoute<unknown>, parameters: RouteParameters, hasBody: boolean, idempotent: boolean): number[] {
  const sendsBody = r.method !== 'GET';
  const candidates: Array<[number, boolean]> = [
    [400, sendsBody],
    [401, r.auth !== 'guest' || r.errors?.[401] !== undefined],
    [403, r.auth !== 'guest'],
    // A path id, or a staff filter `investor_id`, may name nothing (or another investor's row).
    [404, parameters.path.length > 0 || parameters.query.some((q) => q.name === 'investor_id') || r.errors?.[404] !== undefined],
    [409, idempotent || r.errors?.[409] !== undefined],
    [413, sendsBody],
    [415, true], // the router refuses a body of another type on every route, GETs included
    [422, parameters.query.length > 0 || hasBody || idempotent],
    [429, r.rateLimited === true],
    [500, true],
    [503, true],
  ];
  return candidates.filter(([, applies]) => applies).map(([status]) => status);
}

/** Each error answer: the shared response, or the row's own description of its 401, 404 or 409 with the captured example. */
export function errorResponses(r: RestRoute<unknown>, statuses: number[], captured: CapturedExamples, examples: OpenApiExamples): Json {
  const specific = (status: DeclaredStatus) => ({
    description: present(r.errors?.[status], `${r.operation}: the ${status} it declares`),
    ...(ERRORS[status].headers ? { headers: ERRORS[status].headers } : {}),
    content: errorContent(captured.responses[status] ?? examples.errors[status]),
  });
  return Object.fromEntries(statuses.map((status) => [status, r.errors?.[status as DeclaredStatus] ? specific(status as DeclaredStatus) : errorRef(status)]));
}

/** The description: the row's own, with its 409's condition and, when deprecated, the dates and where the replacement is. */
function operationDescription(r: RestRoute<unknown>): string {
  const description = r.errors?.[409] ? `${r.description} Conflict (409) when ${r.errors[409]}.` : r.description;
  if (!r.deprecated) return description;
  const { since, sunset, changelog } = r.deprecated;
  return `${description} Deprecated since ${since}: answers until at least ${sunset} (\`Sunset\`); the replacement is in the changelog entry (${changelog}).`;
}

/** One row's OpenAPI operation: what it is, who may call it, what it reads and every answer it can give. */
export function routeOperationObject(schema: GraphQLSchema, r: RestRoute<unknown>, operation: RouteOperation, examples: OpenApiExamples): Json {
  const captured = examples.operations[routeKey(r)] ?? { responses: {} };
  const recorded = record(schema, operation.op, r);
  const idempotent = takesIdempotencyKey(r, operation);
  const grouped = routeParameters(r, recorded, idempotent);
  const parameters = [...grouped.path, ...grouped.page, ...grouped.query, ...grouped.header];
  return {
    tags: [tagOf(r.path)],
    summary: r.summary,
    operationId: r.operationId ?? r.operation,
    description: operationDescription(r),
    ...(r.deprecated ? { deprecated: true } : {}),
    security: r.auth === 'guest' ? [] : [{ bearer: [] }],
    ...(parameters.length ? { parameters } : {}),
    ...(recorded.body ? { requestBody: { required: true, content: requestContent(r, recorded.body, captured.request) } } : {}),
    responses: {
      ...successResponses(r, envelopeProperties(r, operation), captured),
      ...errorResponses(r, applicableErrors(r, grouped, recorded.body !== null, idempotent), captured, examples),
    },
  };
}

/** The document: one operation per row (the path's `:id` as `{id}`), the download link's, the tags in first use, the shared components. */
export function buildOpenApi(
  schema: GraphQLSchema,
  operations: Map<string, DocumentNode>,
  routes: RestRoute<unknown>[],
  examples: OpenApiExamples = committedExamples,
): Json {
  const paths: Record<string, Json> = {};
  for (const r of routes) {
    const operation = routeOperation(schema, operations, r);
    if (!operation) continue;
    const path = r.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][r.method.toLowerCase()] = routeOperationObject(schema, r, operation, examples);
  }
  paths['/downloads/{token}'] = { get: downloadOperation(routes, examples) };
  const tags = [...new Set(Object.values(paths).flatMap((p) => Object.values(p as Record<string, { tags: string[] }>).flatMap((o) => o.tags)))];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Investment platform REST API',
      version: '1.0.0',
      description:
        'The REST face of the investment platform gateway, for the mobile app. Every route runs a GraphQL operation of the same gateway in-process, so both faces answer alike. Conventions (envelopes, pagination, errors, Idempotency-Key): docs/api.md. Examples are real answers from the demo data (`npm run openapi:examples`).',
      contact: { name: 'Investment platform API team' },
      // Proprietary (package.json: UNLICENSED); a LicenseRef- is how SPDX expressions name a licence off its list.
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/api/v1', description: 'This gateway' }],
    tags: tags.map((name) => ({ name, description: `${name} routes.` })),
    paths,
    components: components(examples),
  };
}

/** GET /downloads/{token}: served outside the route table (router.ts), documented here. */
function downloadOperation(routes: RestRoute<unknown>[], examples: OpenApiExamples): Json {
  // Every file type a route can stream, plus the back office's audit CSV export (GraphQL only).
  const types = [...new Set([...routes.flatMap((r) => r.download ?? []), 'text/csv'])];
  return {
    tags: ['Downloads'],
    summary: 'Download a file by link',
    operationId: 'Download',
    description:
      'Streams the file behind a short-lived link that a GraphQL `Download` field handed out (statements, identity documents, audit exports). The token in the path is the credential, so no Authorization header is needed: links expire after a few minutes and die with the session that created them. An expired, tampered or revoked link is a 404.',
    security: [],
    parameters: [{ name: 'token', in: 'path', required: true, description: 'The opaque link token.', schema: { type: 'string' } }],
    responses: {
      200: {
        description: 'The file, as an attachment.',
        headers: ATTACHMENT,
        content: fileContent(types, examples.operations['GET /downloads/:token']?.responses[200]),
      },
      404: errorRef(404),
      500: errorRef(500),
      503: errorRef(503),
    },
  };
}
