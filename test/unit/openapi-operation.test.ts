import { buildSchema, parse } from 'graphql';
import {
  applicableErrors,
  envelopeProperties,
  errorResponses,
  record,
  routeOperation,
  routeOperationObject,
  routeParameters,
  successResponses,
  takesIdempotencyKey,
  type OpenApiExamples,
  type RouteOperation,
} from '../../src/rest/openapi';
import type { RestRoute } from '../../src/rest/route';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../../src/services/pagination';

// The parts of one route's OpenAPI operation, on a schema and operations small enough to read whole;
// the whole document against the committed docs/openapi.json is test/openapi.test.ts.
const schema = buildSchema(`
  type Query {
    unit(id: Int!): Unit!
    units(perPage: Int, status: Status, investorId: Int): UnitPage!
  }
  type Mutation {
    openUnit(input: OpenUnitInput!): Unit!
    closeUnit(id: Int!): Boolean!
  }
  type Unit { id: Int!, name: String, status: Status! }
  enum Status { OPEN CLOSED }
  type UnitPage { items: [Unit!]!, pageInfo: PageInfo! }
  type PageInfo { total: Int! }
  input OpenUnitInput { name: String!, note: String }
`);
// As @Idempotent() marks a field (src/schema/idempotent.ts); SDL cannot say it.
Object.assign(schema.getMutationType()!.getFields().openUnit, { extensions: { idempotent: true } });

const operations = new Map(
  Object.entries({
    Unit: parse('query Unit($id: Int!) { unit(id: $id) { ...UnitFields } } fragment UnitFields on Unit { id name status }'),
    Units: parse(
      'query Units($perPage: Int, $status: Status, $investorId: Int) { units(perPage: $perPage, status: $status, investorId: $investorId) { items { id name } pageInfo { total } } }',
    ),
    OpenUnit: parse('mutation OpenUnit($input: OpenUnitInput!) { openUnit(input: $input) { id } }'),
    CloseUnit: parse('mutation CloseUnit($id: Int!) { closeUnit(id: $id) }'),
    Spread: parse('query Spread { ...Root } fragment Root on Query { unit(id: 1) { id } }'),
  }),
);

const route = (r: Pick<RestRoute<unknown>, 'method' | 'path' | 'operation'> & Partial<RestRoute<unknown>>): RestRoute<unknown> => ({
  summary: 'Summary',
  description: 'What it does.',
  auth: 'bearer',
  ...r,
});
const unit = route({ method: 'GET', path: '/units/:id', operation: 'Unit', variables: ({ params }) => ({ id: params.id }) });
const units = route({
  method: 'GET',
  path: '/units',
  operation: 'Units',
  envelope: 'paginated',
  variables: ({ query }) => ({ perPage: query.per_page, status: query.status, investorId: query.investor_id }),
});
const openUnit = route({ method: 'POST', path: '/units', operation: 'OpenUnit', status: 201, variables: ({ body }) => ({ input: body }) });
const closeUnit = route({
  method: 'POST',
  path: '/units/:id/close',
  operation: 'CloseUnit',
  emptyData: true,
  message: 'Unit closed.',
  errors: { 409: 'the unit is already closed' },
  variables: ({ params }) => ({ id: params.id }),
});

const operationOf = (r: RestRoute<unknown>): RouteOperation => {
  const operation = routeOperation(schema, operations, r);
  if (!operation) throw new Error(`${r.operation}: no field to document`);
  return operation;
};
const noExamples: OpenApiExamples = { operations: {}, errors: {} };
const nothingCaptured = { responses: {} };

describe('the operation a route runs (routeOperation)', () => {
  it('finds the operation, its fragments, the root type by kind and the top-level field', () => {
    const query = operationOf(unit);
    expect([query.op.name?.value, query.root.name, query.field.name.value, Object.keys(query.fragments)]).toEqual(['Unit', 'Query', 'unit', ['UnitFields']]);
    const mutation = operationOf(openUnit);
    expect([mutation.root.name, mutation.field.name.value]).toEqual(['Mutation', 'openUnit']);
  });

  it('has nothing to document when the first selection is not a field, and refuses an operation that does not exist', () => {
    expect(routeOperation(schema, operations, route({ method: 'GET', path: '/spread', operation: 'Spread' }))).toBeNull();
    expect(() => routeOperation(schema, operations, route({ method: 'GET', path: '/missing', operation: 'Missing' }))).toThrow('Missing');
  });
});

describe('the success envelope (envelopeProperties)', () => {
  it('an item: `data` is the field typed from its selection, fragments included; no paginator', () => {
    expect(envelopeProperties(unit, operationOf(unit))).toEqual({
      success: { const: true },
      data: {
        type: 'object',
        properties: { id: { type: 'integer' }, name: { type: ['string', 'null'] }, status: { type: 'string', enum: ['open', 'closed'] } },
        required: ['id', 'name', 'status'],
      },
    });
  });

  it('a page: `data` is its items, then `links` (paginated only) and `meta`', () => {
    const items = {
      type: 'array',
      items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: ['string', 'null'] } }, required: ['id', 'name'] },
    };
    const links = { $ref: '#/components/schemas/PaginationLinks' };
    const meta = { $ref: '#/components/schemas/PaginationMeta' };
    const paginated = envelopeProperties(units, operationOf(units));
    expect(paginated).toEqual({ success: { const: true }, data: items, links, meta });
    expect(Object.keys(paginated)).toEqual(['success', 'data', 'links', 'meta']);
    expect(envelopeProperties({ ...units, envelope: 'paginated-meta' }, operationOf(units))).toEqual({ success: { const: true }, data: items, meta });
  });

  it('an operation that only answers true: `data` is an empty array, and the message is documented', () => {
    expect(envelopeProperties(closeUnit, operationOf(closeUnit))).toEqual({
      success: { const: true },
      data: { type: 'array', maxItems: 0, items: {} },
      message: { type: 'string', example: 'Unit closed.' },
    });
  });
});

describe('parameters (takesIdempotencyKey, record, routeParameters)', () => {
  it('only a POST of a mutation marked @Idempotent() takes an Idempotency-Key', () => {
    expect(takesIdempotencyKey(openUnit, operationOf(openUnit))).toBe(true);
    expect(takesIdempotencyKey({ ...openUnit, method: 'PUT' }, operationOf(openUnit))).toBe(false);
    expect(takesIdempotencyKey(closeUnit, operationOf(closeUnit))).toBe(false);
  });

  it('records the query fields a mapping reads, typed by the operation; per_page with its bounds; `page` on lists', () => {
    const p = routeParameters(units, record(schema, operationOf(units).op, units), false);
    expect(p.path).toEqual([]);
    expect(p.page.map((q) => q.name)).toEqual(['page']);
    expect(p.query).toEqual([
      { name: 'per_page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE } },
      { name: 'status', in: 'query', required: false, schema: { type: ['string', 'null'], enum: ['open', 'closed'] } },
      { name: 'investor_id', in: 'query', required: false, schema: { type: ['integer', 'null'] } },
    ]);
    expect(p.header).toEqual([]);
  });

  it('a path id from the path itself; a body read whole from the input type, its required fields snake_case; the key header', () => {
    expect(routeParameters(unit, record(schema, operationOf(unit).op, unit), false).path).toEqual([
      expect.objectContaining({ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }),
    ]);
    const recorded = record(schema, operationOf(openUnit).op, openUnit);
    expect(recorded).toEqual({
      query: [],
      body: { type: 'object', properties: { name: { type: 'string' }, note: { type: ['string', 'null'] } }, required: ['name'] },
    });
    expect(routeParameters(openUnit, recorded, true).header).toEqual([expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false })]);
  });
});

describe('answers (successResponses, applicableErrors, errorResponses)', () => {
  const envelope = { success: { const: true } };

  it('one success per status the route or its outcome gives, each with its captured example, headers only when there are some', () => {
    const r = { ...openUnit, outcomeStatuses: [200] };
    const answers = successResponses(r, envelope, { responses: { 201: { success: true } } }) as Record<string, { headers?: unknown; content: unknown }>;
    expect(Object.keys(answers)).toEqual(['200', '201']);
    expect(answers[201].content).toEqual({
      'application/json': { schema: { type: 'object', properties: envelope, required: ['success'] }, example: { success: true } },
    });
    expect(answers[200].content).not.toHaveProperty(['application/json', 'example']);
    expect(answers[200]).not.toHaveProperty('headers');
    const tokens = successResponses({ ...r, noStore: true }, envelope, nothingCaptured) as Record<string, { headers: Record<string, unknown> }>;
    expect(Object.keys(tokens[201].headers)).toEqual(['Cache-Control']);
  });

  it('a download: the file per media type, as an attachment, the text example where there is one', () => {
    const r = { ...unit, download: ['application/pdf', 'text/csv'] };
    const { 200: file } = successResponses(r, envelope, { responses: { 200: 'id,name\n' } }) as Record<string, { headers: object; content: unknown }>;
    expect(Object.keys(file.headers)).toEqual(['Content-Disposition']);
    expect(file.content).toEqual({
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
      'text/csv': { schema: { type: 'string' }, example: 'id,name\n' },
    });
  });

  it('the errors follow from the route: guest or not, path id or investor filter, body, idempotency, rate limit', () => {
    const errorsOf = (r: RestRoute<unknown>, idempotent = false) => {
      const recorded = record(schema, operationOf(r).op, r);
      return applicableErrors(r, routeParameters(r, recorded, idempotent), recorded.body !== null, idempotent);
    };
    expect(errorsOf({ ...unit, auth: 'guest', path: '/unit' })).toEqual([415, 500, 503]);
    expect(errorsOf(unit)).toEqual([401, 403, 404, 415, 500, 503]);
    expect(errorsOf(units)).toEqual([401, 403, 404, 415, 422, 500, 503]);
    expect(errorsOf(openUnit, true)).toEqual([400, 401, 403, 409, 413, 415, 422, 500, 503]);
    expect(errorsOf({ ...openUnit, auth: 'guest', rateLimited: true, errors: { 401: 'the password is wrong' } })).toEqual([
      400, 401, 413, 415, 422, 429, 500, 503,
    ]);
  });

  it('an error the route declares is described as it says, with its example; the others are the shared answers', () => {
    const examples: OpenApiExamples = { operations: {}, errors: { 404: { success: false, message: 'Not found.' } } };
    const answers = errorResponses(
      { ...closeUnit, errors: { 404: 'no such unit', 409: 'the unit is already closed' } },
      [404, 409, 500],
      { responses: { 409: { success: false, message: 'Already closed.' } } },
      examples,
    );
    expect(answers).toEqual({
      404: { description: 'no such unit', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, example: examples.errors[404] } } },
      409: {
        description: 'the unit is already closed',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, example: { success: false, message: 'Already closed.' } } },
      },
      500: { $ref: '#/components/responses/ServerError' },
    });
  });
});

describe('one route’s operation (routeOperationObject)', () => {
  it('puts the parts together: tag, description with the 409 and deprecation, security, parameters in order, body, answers', () => {
    const deprecated = { since: '2026-01-01', sunset: '2026-07-01', changelog: 'https://example.test/changelog#units' };
    const op = routeOperationObject(schema, { ...closeUnit, path: '/unit-actions/:id/close', deprecated }, operationOf(closeUnit), noExamples);
    expect(op).toMatchObject({
      tags: ['Unit Actions'],
      summary: 'Summary',
      operationId: 'CloseUnit',
      deprecated: true,
      security: [{ bearer: [] }],
      parameters: [expect.objectContaining({ name: 'id', in: 'path' })],
    });
    expect(op.description).toBe(
      'What it does. Conflict (409) when the unit is already closed. Deprecated since 2026-01-01: answers until at least 2026-07-01 (`Sunset`); the replacement is in the changelog entry (https://example.test/changelog#units).',
    );
    expect(Object.keys(op.responses as object)).toEqual(['200', '400', '401', '403', '404', '409', '413', '415', '500', '503']);
    expect(op).not.toHaveProperty('requestBody');

    const open = routeOperationObject(schema, openUnit, operationOf(openUnit), noExamples);
    expect((open.parameters as Array<{ name: string }>).map((p) => p.name)).toEqual(['Idempotency-Key']);
    expect(open.requestBody).toEqual({ required: true, content: { 'application/json': { schema: record(schema, operationOf(openUnit).op, openUnit).body } } });
    expect(Object.keys(open)).toEqual(['tags', 'summary', 'operationId', 'description', 'security', 'parameters', 'requestBody', 'responses']);
  });
});
