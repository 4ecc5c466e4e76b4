import fc from 'fast-check';
import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  Kind,
  getNamedType,
  print,
  typeFromAST,
  type GraphQLInputType,
  type OperationDefinitionNode,
} from 'graphql';
import type { Response } from 'supertest';
import { loadOperations } from '../src/rest/operations';
import { routeTable } from '../src/rest/routes';
import type { RestRoute } from '../src/rest/route';
import { snake } from '../src/rest/serialize';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

/**
 * Property-based fuzzing of both faces (issue 7): every row of the REST route table and every
 * operation the REST face runs (sent to /graphql with generated variables) get hostile input —
 * wrong JSON types, huge strings and numbers, unicode with lone surrogates and NUL, `__proto__`
 * keys, deep nesting, bad path ids and %-escapes, bad query strings — as guest, investor and admin.
 * Asserted: never a 5xx; every 4xx in the contract's shape; the server healthy afterwards; and,
 * for requests built so that they must be refused, a 4xx and no change in any table.
 *
 * Bounded and reproducible: fixed run counts and seed (FUZZ_SEED overrides it, FUZZ_SCALE
 * multiplies the runs and time budgets; fast-check prints the seed and the failing input).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 7_2026);
/** FUZZ_SCALE multiplies the run counts for a longer hunt outside CI. */
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const RUNS = { rest: 500, graphql: 250, rejected: 200 };
/**
 * The run counts are an upper bound; each property also stops generating after its time budget
 * (seconds), so a slow, loaded machine runs fewer inputs instead of timing out. A failure still
 * names the seed and the path of the failing input, which replays it.
 */
const BUDGET = { rest: 40, graphql: 20, rejected: 15 };
const settings = (numRuns: number, seconds: number) => ({
  seed: SEED,
  numRuns: Math.round(numRuns * SCALE),
  interruptAfterTimeLimit: seconds * 1000 * SCALE,
  markInterruptAsFailure: false,
  endOnFailure: true,
});
const TIMEOUT = 150_000 * SCALE;

let t: TestGateway;
type Account = 'investor' | 'admin';
/** `forged:N`: the Authorization header FORGED[N], which no session stands behind. */
type Role = 'guest' | Account | `forged:${number}`;
const FORGED = [
  'Bearer ',
  'Bearer x.y.z',
  'Bearer \u00ff\u00fe',
  'Basic YWRtaW46YWRtaW4=',
  `Bearer ${'a'.repeat(4000)}`,
  'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIiwicm9sZSI6ImFkbWluIn0.',
];
const tokens: Record<Account, string> = { investor: '', admin: '' };
const login = async (role: Account) => {
  tokens[role] = await t.token(role === 'admin' ? DEMO_EMAILS.admin : DEMO_EMAILS.investor);
};
const authorization = (role: Role): string | undefined =>
  role === 'guest' ? undefined : role.startsWith('forged:') ? FORGED[Number(role.slice(7))] : `Bearer ${tokens[role as Account]}`;

beforeAll(async () => {
  t = await startTestGateway();
  await login('investor');
  await login('admin');
});
afterAll(() => t.close());

// ---------- hostile values ----------

const withKey = (obj: Record<string, unknown>, key: string, value: unknown) =>
  Object.defineProperty(obj, key, { value, enumerable: true, configurable: true, writable: true });

function nested(depth: number, leaf: unknown, array: boolean): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = array ? [v] : { a: v };
  return v;
}

const hostileString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfff',
    '\udc00\ud800',
    '😀',
    '\u202e\u0301',
    '%00',
    '%E0%A4%A',
    "' OR 1=1 --",
    '<script>',
    '__proto__',
    'constructor',
    'NaN',
    'Infinity',
    '-0',
    '1e309',
    '0x10',
    ' 1 ',
    '1.5',
    '-1',
    '2026-02-30',
    '2026-Q5',
    'APPROVED',
    'pending',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('x'.repeat(256), 'é'.repeat(70_000), 'Aa1'.repeat(50), `${'a'.repeat(250)}@example.test`),
);
const hostileNumber = fc.oneof(
  fc.constantFrom(0, -0, -1, 1, 1.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 1e308, -1e308, 5e-324, 1e21, Number('123456789012.345678'), 0.1234567),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const hostileLeaf = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: hostileLeaf },
  { weight: 1, arbitrary: fc.array(hostileLeaf, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), hostileLeaf, { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('__proto__', 'constructor', 'prototype'), hostileLeaf).map(([k, v]) => withKey({}, k, v)) },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 50, max: 2000 }), fc.boolean()).map(([depth, array]) => nested(depth, 1, array)) },
);

/** A value of the GraphQL input type (often plausible, so the request goes deep) or something hostile. */
function valueOf(type: GraphQLInputType, depth = 0): fc.Arbitrary<unknown> {
  if (type instanceof GraphQLNonNull) return valueOf(type.ofType, depth);
  if (type instanceof GraphQLList) return fc.oneof(fc.array(valueOf(type.ofType, depth + 1), { maxLength: 3 }), hostileValue);
  if (type instanceof GraphQLEnumType)
    return fc.oneof(
      fc.constantFrom(...type.getValues().map((v) => v.name)),
      fc.constantFrom(...type.getValues().map((v) => v.name.toLowerCase())),
      hostileValue,
    );
  if (type instanceof GraphQLInputObjectType) {
    if (depth > 3) return hostileValue;
    const fields = Object.fromEntries(Object.entries(type.getFields()).map(([name, f]) => [name, valueOf(f.type, depth + 1)]));
    return fc.oneof({ weight: 4, arbitrary: fc.record(fields, { requiredKeys: [] }) }, { weight: 1, arbitrary: hostileValue });
  }
  const plausible: Record<string, fc.Arbitrary<unknown>> = {
    Int: fc.oneof(fc.integer({ min: -3, max: 400 }), fc.integer()),
    Boolean: fc.boolean(),
    // Never the demo password: no generated request may change or delete the sessions' accounts.
    String: fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('investor@demo.test', 'Fuzz Name', 'Passw0rd-Fuzz')),
    Decimal: fc.oneof(fc.integer({ min: -10, max: 200_000 }), fc.constantFrom('1000.00', '0.5', '12.345678', 1500.25)),
    Date: fc.constantFrom('2026-01-01', '2025-12-31', '2024-02-29'),
  };
  return fc.oneof(plausible[getNamedType(type).name] ?? hostileValue, hostileValue);
}

/** A value of the type that both faces must refuse: a wrong JSON type, NUL or a lone surrogate. */
function poisonOf(type: GraphQLInputType): fc.Arbitrary<unknown> {
  if (type instanceof GraphQLNonNull) return poisonOf(type.ofType);
  if (type instanceof GraphQLList) return poisonOf(type.ofType).map((v) => [v]);
  if (type instanceof GraphQLEnumType) return fc.constantFrom(7, 'NOT_A_VALUE', {}, true);
  if (type instanceof GraphQLInputObjectType) {
    return fc.record(Object.fromEntries(Object.entries(type.getFields()).map(([name, f]) => [name, poisonOf(f.type)])));
  }
  const poison: Record<string, unknown[]> = {
    Int: ['1', 1.5, true, {}, 2 ** 40],
    Boolean: ['yes', 2, {}],
    String: [12345, true, {}, 'a\u0000b', '\ud800x', 'x\udc00'],
    Decimal: [true, {}, 'abc', '1e400'],
    Date: [12345, 'not-a-date', true],
    // A file only comes as a part of a multipart request: any JSON value is refused.
    Upload: [12345, 'file.pdf', true, {}],
  };
  const choices = poison[getNamedType(type).name];
  if (!choices) throw new Error(`no poison for ${String(type)}`);
  return fc.constantFrom(...choices);
}

// ---------- what each route and operation reads ----------

const schema = () => t.gateway.schema;
const operations = loadOperations();

function operationOf(name: string): OperationDefinitionNode {
  return operations.get(name)!.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
}

function variableTypes(op: OperationDefinitionNode): Array<[string, GraphQLInputType]> {
  return (op.variableDefinitions ?? []).map((d) => [d.variable.name.value, typeFromAST(schema(), d.type as never) as GraphQLInputType]);
}

/**
 * The body keys a route may read, with their types: the snake_case names of the operation's
 * variables and of the fields of its input-object variables (a route passes either).
 */
function bodyKeys(r: RestRoute<unknown>): Array<[string, GraphQLInputType]> {
  return variableTypes(operationOf(r.operation)).flatMap(([name, type]) => {
    const named = getNamedType(type);
    const own: [string, GraphQLInputType] = [snake(name), type];
    return named instanceof GraphQLInputObjectType
      ? [own, ...Object.entries(named.getFields()).map(([f, def]): [string, GraphQLInputType] => [snake(f), def.type])]
      : [own];
  });
}

const QUERY_KEYS = [
  'page',
  'per_page',
  'status',
  'type',
  'unit_id',
  'investor_id',
  'category_id',
  'from',
  'to',
  'period',
  'q',
  'format',
  'year',
  'unread',
  'unread_first',
  'source',
  'min_investment_from',
  'min_investment_to',
];
const queryValue = fc
  .oneof(
    fc.constantFrom(
      '0',
      '-1',
      '1.5',
      'abc',
      '',
      '101',
      '100',
      '2147483648',
      '99999999999999999999',
      '1e3',
      '%E0%A4%A',
      '%',
      '%00',
      '%ED%A0%80',
      '%FF',
      'true',
      'APPROVED',
      'pdf',
      'csv',
      'xml',
      '2026-02-30',
      '2026-Q1',
    ),
    // encodeURIComponent refuses lone surrogates: they go as the bytes a broken client would send.
    hostileString.map((s) =>
      s
        .split(/(\p{Surrogate})/u)
        .map((part, i) => (i % 2 ? '%ED%A0%80' : encodeURIComponent(part)))
        .join(''),
    ),
    // Node's HTTP parser answers 431 itself beyond 16 KB of headers (docs/api.md): stay below.
  )
  .filter((v) => v.length <= 2000);
const queryString = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.constantFrom('__proto__', 'constructor', 'page[]', 'per_page[x]', '__proto__[admin]', '%E0%A4%A')),
      queryValue,
    ),
    { maxLength: 5 },
  )
  .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));
const pathId = fc.oneof(
  fc.integer({ min: 1, max: 400 }).map(String),
  fc.constantFrom(
    '%E0%A4%A',
    '%',
    '%%',
    '%00',
    '%ZZ',
    '0',
    '-1',
    '1.5',
    '1e3',
    '99999999999',
    '2147483648',
    '%2e%2e',
    '%20',
    '1%00',
    'abc',
    '%F0%9F%99%82',
    '%ED%A0%80',
  ),
  fc
    .string({ unit: 'grapheme', maxLength: 6 })
    .filter((s) => s.length > 0)
    .map(encodeURIComponent),
);

type Body = { kind: 'json'; value: unknown } | { kind: 'raw'; type: string; bytes: Buffer } | { kind: 'none' };
const rawBody = fc.oneof(
  fc.constant<Body>({ kind: 'raw', type: 'application/json; charset=latin1', bytes: Buffer.from('{"email":"a@b.c"}') }),
  fc.constant<Body>({ kind: 'raw', type: 'application/json', bytes: Buffer.from('{"email": ') }),
  fc.constant<Body>({ kind: 'raw', type: 'application/json', bytes: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) }),
  fc.constant<Body>({ kind: 'raw', type: 'application/json', bytes: Buffer.from('"just a string"') }),
  fc.constant<Body>({ kind: 'raw', type: 'application/json', bytes: Buffer.from('[1,2,3]') }),
  fc.constant<Body>({ kind: 'raw', type: 'text/plain', bytes: Buffer.from('email=a@b.c') }),
  fc.constant<Body>({ kind: 'raw', type: 'application/x-www-form-urlencoded', bytes: Buffer.from('email=a%40b.c&password=x') }),
  fc.constant<Body>({
    kind: 'raw',
    type: 'multipart/form-data; boundary=x',
    bytes: Buffer.from('--x\r\nContent-Disposition: form-data; name="document_type"\r\n\r\npassport\r\n--x--\r\n'),
  }),
  fc.constant<Body>({ kind: 'raw', type: 'application/json', bytes: Buffer.from(`{"a":${'['.repeat(20_000)}${']'.repeat(20_000)}}`) }),
);

function jsonBody(r: RestRoute<unknown>): fc.Arbitrary<Body> {
  const keys = bodyKeys(r);
  const fields = fc.record(Object.fromEntries(keys.map(([k, type]) => [k, valueOf(type)])), { requiredKeys: [] });
  const extra = fc.option(fc.tuple(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'data'), hostileValue));
  return fc.tuple(fields, extra).map(([value, more]) => ({ kind: 'json', value: more ? withKey({ ...value }, more[0], more[1]) : value }));
}

// ---------- sending and checking ----------

const roles: fc.Arbitrary<Role> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom<Role>('guest', 'investor', 'admin') },
  { weight: 1, arbitrary: fc.nat(FORGED.length - 1).map((i): Role => `forged:${i}`) },
);

async function rest(method: string, url: string, role: Role, body: Body): Promise<Response> {
  const verb = method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
  let req = t.http[verb](url);
  const header = authorization(role);
  if (header !== undefined) req = req.set('authorization', header);
  if (body.kind === 'json') return req.set('content-type', 'application/json').send(JSON.stringify(body.value));
  if (body.kind === 'raw') return req.set('content-type', body.type).send(body.bytes);
  return req;
}

function expectRestShape(res: Response, what: string) {
  if (res.status >= 500) throw new Error(`${what} → ${res.status} ${JSON.stringify(res.body)}`);
  if (res.status < 400) return;
  const body = res.body as Record<string, unknown>;
  const keys = Object.keys(body);
  const ok =
    body.success === false &&
    typeof body.message === 'string' &&
    body.message.length > 0 &&
    (keys.join() === 'success,message' ||
      (keys.join() === 'success,message,errors' &&
        typeof body.errors === 'object' &&
        Object.values(body.errors as object).every((m) => Array.isArray(m) && m.length > 0 && m.every((s) => typeof s === 'string'))));
  if (!ok) throw new Error(`${what} → ${res.status} not in the contract's error shape: ${JSON.stringify(body)}`);
}

async function graphql(payload: unknown, role: Role): Promise<Response> {
  let req = t.http.post('/graphql').set('content-type', 'application/json');
  const header = authorization(role);
  if (header !== undefined) req = req.set('authorization', header);
  return req.send(JSON.stringify(payload));
}

function expectGraphqlShape(res: Response, what: string) {
  if (res.status >= 500) throw new Error(`${what} → ${res.status} ${JSON.stringify(res.body)}`);
  const body = res.body as { data?: unknown; errors?: Array<{ message?: unknown; extensions?: { code?: unknown } }> };
  if (body.errors !== undefined) {
    const ok =
      Array.isArray(body.errors) && body.errors.length > 0 && body.errors.every((e) => typeof e.message === 'string' && typeof e.extensions?.code === 'string');
    if (!ok) throw new Error(`${what} → ${res.status} errors without extensions.code: ${JSON.stringify(body)}`);
    const internal = body.errors.find((e) => e.extensions?.code === 'INTERNAL_SERVER_ERROR');
    if (internal) throw new Error(`${what} → INTERNAL_SERVER_ERROR ${JSON.stringify(body)}`);
  } else if (res.status >= 400 || body.data === undefined) {
    throw new Error(`${what} → ${res.status} neither data nor errors: ${JSON.stringify(body)}`);
  }
}

const short = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…(${text.length} chars)` : text);
const describeInput = (x: unknown) => {
  const text = JSON.stringify(x, (_k, v) => (typeof v === 'string' && v.length > 80 ? `${v.slice(0, 40)}…(${v.length} chars)` : v));
  return text.length > 600 ? `${text.slice(0, 600)}…` : text;
};

/** A successful logout in the batch ends that role's session: log in again then. */
async function keepSession(ended: boolean, role: Role) {
  if (ended && (role === 'investor' || role === 'admin')) await login(role);
}

/** Row count and a content hash of every table: any insert, update or delete changes it. */
async function snapshot(): Promise<Record<string, string>> {
  const prisma = t.db.prisma;
  const tables = await prisma.$queryRawUnsafe<Array<{ name: string }>>(
    "SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename <> '_prisma_migrations' ORDER BY tablename",
  );
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await prisma.$queryRawUnsafe<Array<{ n: number; h: string }>>(
      `SELECT count(*)::int AS n, md5(coalesce(string_agg(md5(t::text), '' ORDER BY md5(t::text)), '')) AS h FROM "${name}" t`,
    );
    out[name] = `${row.n}:${row.h}`;
  }
  return out;
}

async function expectHealthy() {
  expect((await t.http.get('/healthz')).status).toBe(200);
  const units = await t.http.get('/api/v1/public/units?per_page=2');
  expect(units.status).toBe(200);
  expect(units.body.success).toBe(true);
  const me = await t.gql<{ me: { email: string } }>('{ me { email } }', {}, await t.token(DEMO_EMAILS.investor));
  expect(me.data?.me.email).toBe(DEMO_EMAILS.investor);
}

// ---------- the properties ----------

const restCase = fc.constantFrom(...routeTable).chain((r) =>
  fc.record({
    route: fc.constant(r),
    role: roles,
    id: pathId,
    query: queryString,
    body:
      r.method === 'GET'
        ? fc.oneof({ weight: 5, arbitrary: fc.constant<Body>({ kind: 'none' }) }, { weight: 1, arbitrary: rawBody })
        : fc.oneof({ weight: 4, arbitrary: jsonBody(r) }, { weight: 1, arbitrary: rawBody }, { weight: 1, arbitrary: fc.constant<Body>({ kind: 'none' }) }),
  }),
);

describe('fuzzing both faces with hostile input', () => {
  it(
    'REST: every route of the route table answers hostile input with a contract-shaped 4xx or a success, never a 5xx',
    async () => {
      await fc.assert(
        fc.asyncProperty(restCase, async ({ route, role, id, query, body }) => {
          const url = `/api/v1${route.path.replace(/:\w+/g, id)}${query ? `?${query}` : ''}`;
          const res = await rest(route.method, url, role, body);
          expectRestShape(res, `${route.method} ${short(url)} as ${role} with ${describeInput(body)}`);
          await keepSession(route.operation === 'Logout' && res.status < 300, role);
        }),
        settings(RUNS.rest, BUDGET.rest),
      );
      await expectHealthy();
    },
    TIMEOUT,
  );

  it(
    'GraphQL: every operation of the REST face, with generated variables, answers errors with extensions.code, never a 5xx',
    async () => {
      const ops = [...operations.keys()].map((name) => ({ name, document: print(operations.get(name)!), vars: variableTypes(operationOf(name)) }));
      const gqlCase = fc.constantFrom(...ops).chain((op) =>
        fc.record({
          op: fc.constant(op),
          role: roles,
          variables: fc.oneof(
            { weight: 8, arbitrary: fc.record(Object.fromEntries(op.vars.map(([name, type]) => [name, valueOf(type)])), { requiredKeys: [] }) },
            { weight: 1, arbitrary: hostileValue },
          ),
          query: fc.oneof({ weight: 8, arbitrary: fc.constant(op.document) }, { weight: 1, arbitrary: hostileString }),
        }),
      );
      await fc.assert(
        fc.asyncProperty(gqlCase, async ({ op, role, variables, query }) => {
          const res = await graphql({ query, variables }, role);
          expectGraphqlShape(res, `${op.name} as ${role} with ${describeInput(variables)}`);
          await keepSession(op.name === 'Logout' && !res.body.errors, role);
        }),
        settings(RUNS.graphql, BUDGET.graphql),
      );
      await expectHealthy();
    },
    TIMEOUT,
  );

  it(
    'nothing is written by a request that must be refused, on either face',
    async () => {
      // Mutating routes that read a body field or a path id: every field they may read gets a value of
      // a wrong type, with NUL or a lone surrogate; a path id gets one that names nothing.
      const writes = routeTable.filter((r) => r.method !== 'GET' && (bodyKeys(r).length > 0 || r.path.includes(':')));
      const mutations = [...operations.keys()].filter((name) => operationOf(name).operation === 'mutation' && variableTypes(operationOf(name)).length > 0);
      const refusedRest = fc.constantFrom(...writes).chain((r) =>
        fc.record({
          face: fc.constant('rest' as const),
          name: fc.constant(`${r.method} ${r.path}`),
          route: fc.constant(r),
          role: roles,
          id: fc.constantFrom('%E0%A4%A', '0', '-1', 'abc', '99999999999'),
          body: fc.record(Object.fromEntries(bodyKeys(r).map(([k, type]) => [k, poisonOf(type)]))),
        }),
      );
      const refusedGraphql = fc.constantFrom(...mutations).chain((name) =>
        fc.record({
          face: fc.constant('graphql' as const),
          name: fc.constant(name),
          role: roles,
          variables: fc.record(Object.fromEntries(variableTypes(operationOf(name)).map(([v, type]) => [v, poisonOf(type)]))),
        }),
      );
      const before = await snapshot();
      await fc.assert(
        fc.asyncProperty(fc.oneof(refusedRest, refusedGraphql), async (c) => {
          if (c.face === 'rest') {
            const url = `/api/v1${c.route.path.replace(/:\w+/g, c.id)}`;
            const res = await rest(c.route.method, url, c.role, { kind: 'json', value: c.body });
            const what = `${c.name} as ${c.role} with ${describeInput(c.body)}`;
            expectRestShape(res, what);
            if (res.status < 400) throw new Error(`${what} → ${res.status}: accepted`);
          } else {
            const res = await graphql({ query: print(operations.get(c.name)!), variables: c.variables }, c.role);
            const what = `${c.name} as ${c.role} with ${describeInput(c.variables)}`;
            expectGraphqlShape(res, what);
            if (!res.body.errors) throw new Error(`${what} → accepted`);
          }
        }),
        settings(RUNS.rejected, BUDGET.rejected),
      );
      expect(await snapshot()).toEqual(before);
      await expectHealthy();
    },
    TIMEOUT,
  );
});
