import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  getIntrospectionQuery,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  parse,
  print,
  specifiedRules,
  typeFromAST,
  validate,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { COST, GRAPHQL_LIMITS, limitValidationRules, queryCost } from '../src/graphql/limits';
import { loadOperations } from '../src/rest/operations';
import { UNPAGED_LIST_MAX } from '../src/services/listing';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';
import { Upload } from '../src/http/multipart';
import { WithdrawalRequestStatus } from '../src/generated/prisma/enums';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t.close());

const PUBLIC_UNIT =
  'items { id code name description location category { id name } status totalValue availablePercentage minInvestment expectedReturn currentValue imageUrl listedAt createdAt updatedAt } pageInfo { total lastPage }';
const aliased = (n: number, field: (i: number) => string) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field(i)}`).join(' ')} }`;

async function post(body: unknown, token?: string) {
  const req = t.http.post('/graphql').set('content-type', 'application/json');
  if (token) req.set('authorization', `Bearer ${token}`);
  return req.send(body as object);
}

/** Expects the request to be refused before anything ran: 400, the code, the message, and no SQL. */
async function expectRefused(query: string, code: string, message: RegExp, variables?: Record<string, unknown>) {
  const before = t.db.queryCount();
  const res = await post({ query, variables });
  expect(res.status).toBe(400);
  expect(res.body.data).toBeUndefined();
  expect(res.body.errors).toHaveLength(1);
  expect(res.body.errors[0].extensions.code).toBe(code);
  expect(res.body.errors[0].message).toMatch(message);
  expect(t.db.queryCount()).toBe(before);
}

/** A value of the right type for each variable (filters and pages as a client would send them). */
function sampleVariables(schema: GraphQLSchema, document: ReturnType<typeof parse>): Record<string, unknown> {
  const sample = (type: GraphQLInputType): unknown => {
    const inner = getNullableType(type);
    if (isListType(inner)) return [sample(inner.ofType)];
    if (isEnumType(inner)) return inner.getValues()[0].value;
    if (isInputObjectType(inner)) {
      return Object.fromEntries(
        Object.values(inner.getFields())
          .filter((f) => isNonNullType(f.type))
          .map((f) => [f.name, sample(f.type)]),
      );
    }
    if (inner.name === 'Upload') return new Upload(); // what the multipart parser puts in a multipart request's variables
    return { Int: 1, Float: 1, Boolean: true, Decimal: '100.00', DateTime: '2026-01-01T00:00:00Z', Date: '2026-01-01' }[inner.name] ?? '1';
  };
  const variables: Record<string, unknown> = {};
  for (const def of document.definitions) {
    if (def.kind !== 'OperationDefinition') continue;
    for (const v of def.variableDefinitions ?? []) {
      variables[v.variable.name.value] = v.variable.name.value === 'perPage' ? 100 : sample(typeFromAST(schema, v.type as never) as GraphQLInputType);
    }
  }
  return variables;
}

describe('what the REST face and the dashboard send passes every limit', () => {
  it('every operation in src/rest/operations, at perPage 100', () => {
    const schema = t.gateway.schema;
    const rules = [...specifiedRules, ...limitValidationRules()];
    const costs: Record<string, number> = {};
    for (const [name, document] of loadOperations()) {
      expect([name, validate(schema, document, rules).map((e) => e.message)]).toEqual([name, []]);
      expect(() => parse(print(document), { maxTokens: GRAPHQL_LIMITS.maxTokens })).not.toThrow();
      costs[name] = queryCost(schema, document, sampleVariables(schema, document));
    }
    const tooCostly = Object.entries(costs).filter(([, cost]) => cost > GRAPHQL_LIMITS.maxCost);
    expect(tooCostly).toEqual([]);
    // The model does grow with perPage: the largest list at 100 costs far more than a detail read.
    expect(Math.max(...Object.values(costs))).toBeGreaterThan(20 * costs.Me);
  });

  it('the Sandbox introspection query and the dashboard screen run through /graphql', async () => {
    const introspection = await post({ query: getIntrospectionQuery() });
    expect(introspection.status).toBe(200);
    expect(introspection.body.data.__schema.queryType.name).toBe('Query');
    const token = await t.token(DEMO_EMAILS.investor);
    const dashboard = await post({ query: print(loadOperations().get('Dashboard')!) }, token);
    expect(dashboard.body.errors).toBeUndefined();
    expect(dashboard.body.data.dashboard.summary).toBeDefined();
  });
});

describe('limits on one GraphQL document (400 before anything runs)', () => {
  it('depth', async () => {
    const nest = (n: number): string => (n === 0 ? 'minInvestment' : `... on AppConfig { ${nest(n - 1)} }`);
    expect((await post({ query: `{ appConfig { ${nest(GRAPHQL_LIMITS.maxDepth - 2)} } }` })).body.errors).toBeUndefined();
    await expectRefused(`{ appConfig { ${nest(GRAPHQL_LIMITS.maxDepth)} } }`, 'GRAPHQL_VALIDATION_FAILED', /depth limit of 8 exceeded/);
  });

  it('aliases', async () => {
    expect((await post({ query: aliased(GRAPHQL_LIMITS.maxAliases, () => 'appConfig { minInvestment }') })).body.errors).toBeUndefined();
    await expectRefused(
      aliased(GRAPHQL_LIMITS.maxAliases + 1, () => 'appConfig { minInvestment }'),
      'GRAPHQL_VALIDATION_FAILED',
      /Aliases limit of 15 exceeded/,
    );
  });

  it('directives', async () => {
    const fields = (n: number) => `{ ${Array.from({ length: n }, () => '__typename @include(if: true)').join(' ')} }`;
    expect((await post({ query: fields(GRAPHQL_LIMITS.maxDirectives) })).body.errors).toBeUndefined();
    await expectRefused(fields(GRAPHQL_LIMITS.maxDirectives + 1), 'GRAPHQL_VALIDATION_FAILED', /Directives limit of 20 exceeded/);
  });

  it('directives on fragment spreads, inline fragments and inside fragments count too (issue 22)', async () => {
    const spreads = (n: number) => `{ ${Array.from({ length: n }, () => '...F @include(if: true)').join(' ')} } fragment F on Query { __typename }`;
    expect((await post({ query: spreads(GRAPHQL_LIMITS.maxDirectives) })).body.errors).toBeUndefined();
    await expectRefused(spreads(60), 'GRAPHQL_VALIDATION_FAILED', /^Syntax Error: Directives limit of 20 exceeded, found 60\.$/);
    const inline = (n: number) => `{ ${Array.from({ length: n }, () => '... on Query @include(if: true) { __typename }').join(' ')} }`;
    await expectRefused(inline(GRAPHQL_LIMITS.maxDirectives + 1), 'GRAPHQL_VALIDATION_FAILED', /Directives limit of 20 exceeded, found 21/);
    // 10 on the spreads, 11 inside the fragment: 21 in the document.
    const mixed = `{ ${'...F @include(if: true) '.repeat(10)} } fragment F on Query { ${'__typename @include(if: true) '.repeat(11)} }`;
    await expectRefused(mixed, 'GRAPHQL_VALIDATION_FAILED', /Directives limit of 20 exceeded, found 21/);
  });

  it('tokens, counted by the parser', async () => {
    // `{ ...F0 … }` plus `fragment Fi on Query { __typename }`: 2 + 9 tokens per fragment.
    const fragments = (n: number) => {
      const names = Array.from({ length: n }, (_, i) => `F${i}`);
      return `{ ${names.map((f) => `...${f}`).join(' ')} } ${names.map((f) => `fragment ${f} on Query { __typename }`).join(' ')}`;
    };
    const atLimit = (GRAPHQL_LIMITS.maxTokens - 2) / 9;
    expect((await post({ query: fragments(atLimit) })).body.errors).toBeUndefined();
    await expectRefused(fragments(atLimit + 1), 'GRAPHQL_PARSE_FAILED', /more that 2000 tokens/);
  });

  it('cost grows with perPage: a few lists pass, the same lists at perPage 100 do not', async () => {
    const query = `query ($n: Int) ${aliased(8, () => `publicUnits(perPage: $n) { ${PUBLIC_UNIT} }`)}`;
    const small = await post({ query, variables: { n: 2 } });
    expect(small.body.errors).toBeUndefined();
    expect(small.body.data.a7.items).toHaveLength(2);
    await expectRefused(query, 'GRAPHQL_VALIDATION_FAILED', /^Query cost limit of 10000 exceeded, found \d+\.$/, { n: 100 });
    // The same document is priced by the variables each request brings, whatever came before.
    expect((await post({ query, variables: { n: 2 } })).body.errors).toBeUndefined();
    // Without perPage a list costs its default page, and perPage beyond 100 costs 100 (the resolver refuses it).
    const schema = t.gateway.schema;
    const one = (perPage: string) => queryCost(schema, parse(`{ publicUnits${perPage} { ${PUBLIC_UNIT} } }`));
    expect(one('')).toBe(one(`(perPage: ${COST.defaultPerPage})`));
    expect(one('(perPage: 100000)')).toBe(one('(perPage: 100)'));
  });

  it('__typename counts in the alias limit and the cost (issue 22)', async () => {
    // The reported request: 15 publicUnits(perPage: 100) whose fragment aliases __typename 560 times.
    const fragment = `fragment T on PublicUnit { ${Array.from({ length: 560 }, (_, i) => `t${i}: __typename`).join(' ')} }`;
    await expectRefused(
      `${aliased(15, () => 'publicUnits(perPage: 100) { items { ...T } }')} ${fragment}`,
      'GRAPHQL_VALIDATION_FAILED',
      /^Syntax Error: Aliases limit of 15 exceeded, found \d+\.$/,
    );
    await expectRefused(
      aliased(GRAPHQL_LIMITS.maxAliases + 1, () => '__typename'),
      'GRAPHQL_VALIDATION_FAILED',
      /Aliases limit of 15 exceeded, found 16/,
    );
    // A __typename costs 1 like any field: per item of a page.
    const schema = t.gateway.schema;
    const cost = (selection: string) => queryCost(schema, parse(`{ publicUnits(perPage: 100) { items { ${selection} } } }`));
    expect(cost('id __typename') - cost('id')).toBe(100);
  });

  it('an answer over maxAnswerBytes is refused with RESPONSE_TOO_LARGE, whatever its cost (issue 22)', async () => {
    const units = (await post({ query: '{ publicUnits(perPage: 100) { pageInfo { total } } }' })).body.data.publicUnits.pageInfo.total as number;
    expect(units).toBeGreaterThan(0);
    // Long aliases repeat in every item: cheap by the cost model (3 × (10 + 100 × 1)), large as JSON.
    const aliasLength = Math.ceil(GRAPHQL_LIMITS.maxAnswerBytes / (3 * Math.min(units, 100))) + 1;
    expect(3 * aliasLength).toBeLessThan(95 * 1024);
    const query = aliased(3, (i) => `publicUnits(perPage: 100) { items { ${String.fromCharCode(97 + i).repeat(aliasLength)}: id } }`);
    const res = await post({ query });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [{ message: expect.stringMatching(/^The answer is larger than 2097152 bytes/), extensions: { code: 'RESPONSE_TOO_LARGE', maxBytes: 2097152 } }],
    });
    expect(await t.http.get('/healthz')).toHaveProperty('status', 200);
  });

  it('lists without pages answer at most UNPAGED_LIST_MAX rows and are priced at that (issue 22)', async () => {
    const schema = t.gateway.schema;
    expect(queryCost(schema, parse('{ kycDocuments { id } }'))).toBe(COST.rootField + UNPAGED_LIST_MAX);
    expect(queryCost(schema, parse('{ categoryMemberships { id } }'))).toBe(COST.rootField + UNPAGED_LIST_MAX);
    const admin = await t.token(DEMO_EMAILS.admin);
    // More documents than a list answers (copies of a seeded one): the newest UNPAGED_LIST_MAX come back.
    const kyc = 'id investorId documentType status mimeType sizeBytes rejectionReason reviewedAt createdAt updatedAt';
    const { id: _id, ...seeded } = await t.db.prisma.kycDocument.findFirstOrThrow();
    await t.db.prisma.kycDocument.createMany({
      data: Array.from({ length: UNPAGED_LIST_MAX }, (_, i) => ({ ...seeded, storageKey: `${seeded.storageKey}-copy-${i}` })),
    });
    expect(await t.db.prisma.kycDocument.count()).toBeGreaterThan(UNPAGED_LIST_MAX);
    const one = await post({ query: `{ kycDocuments { ${kyc} } categoryMemberships { id } }` }, admin);
    expect(one.body.errors).toBeUndefined();
    expect(one.body.data.kycDocuments).toHaveLength(UNPAGED_LIST_MAX);
    const newest = await t.db.prisma.kycDocument.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: UNPAGED_LIST_MAX, select: { id: true } });
    expect(one.body.data.kycDocuments.map((d: { id: number }) => d.id)).toEqual(newest.map((d) => d.id));
    expect(one.body.data.categoryMemberships.length).toBeLessThanOrEqual(UNPAGED_LIST_MAX);
    // The reported request: 15 aliases of kycDocuments with every field, once priced at 1 650.
    const before = t.db.queryCount();
    const res = await post({ query: aliased(15, () => `kycDocuments { ${kyc} }`) }, admin);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(/^Query cost limit of 10000 exceeded, found 15150\.$/);
    expect(t.db.queryCount() - before).toBeLessThanOrEqual(1); // the bearer token's session only
  });

  it('1000 aliased publicUnits(perPage: 100) are refused with no SQL run', async () => {
    const before = t.db.queryCount();
    const res = await post({ query: aliased(1000, () => `publicUnits(perPage: 100) { ${PUBLIC_UNIT} }`) });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.errors[0].extensions.code).toEqual(expect.any(String));
    expect(t.db.queryCount()).toBe(before);
  });

  it('300 aliased dashboards are refused with no SQL run', async () => {
    const token = await t.token(DEMO_EMAILS.investor);
    const before = t.db.queryCount();
    const res = await post({ query: aliased(300, () => 'dashboard { summary { totalInvested } recentActivity { id amount } }') }, token);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toMatch(/^GRAPHQL_(PARSE|VALIDATION)_FAILED$/);
    // One statement: the bearer token's session; nothing of the dashboard ran.
    expect(t.db.queryCount() - before).toBeLessThanOrEqual(1);
  });
});

describe('JSON bodies on /graphql', () => {
  it('a body over GRAPHQL_BODY_LIMIT (100kb) is 413 in the GraphQL error shape; REST keeps its own limit', async () => {
    const res = await post({ query: '{ __typename }', variables: { pad: 'x'.repeat(101 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ errors: [{ message: 'Payload too large.', extensions: { code: 'PAYLOAD_TOO_LARGE' } }] });
    const rest = await t.http.post('/api/v1/auth/login').send({ email: DEMO_EMAILS.investor, password: 'x'.repeat(200 * 1024) });
    expect(rest.status).toBe(422);
  });

  /**
   * Streams a few MB of aliases (the 600 000-alias attack) in chunks; after the first chunk, while
   * the gateway is reading this request, /healthz must answer. Then the rest is sent and the
   * answer awaited. Content-Length is left out (chunked), so the body limit cannot refuse it unread.
   */
  async function floodWhileProbingHealth(gateway: TestGateway) {
    const body = Buffer.from(JSON.stringify({ query: aliased(300_000, () => '__typename') }));
    expect(body.length).toBeGreaterThan(3 * 1024 * 1024);
    const server = http.createServer(gateway.gateway.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    let healthDuringFlood: { status: number; body: unknown } | undefined;
    try {
      const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' } }, (res) => {
          let text = '';
          res.on('data', (c) => (text += c)).on('end', () => resolve({ status: res.statusCode!, body: text }));
        });
        req.on('error', reject);
        req.write(body.subarray(0, 64 * 1024));
        void fetch(`http://127.0.0.1:${port}/healthz`).then(async (health) => {
          healthDuringFlood = { status: health.status, body: await health.json() };
          for (let i = 64 * 1024; i < body.length; i += 256 * 1024) req.write(body.subarray(i, i + 256 * 1024));
          req.end();
        }, reject);
      });
      const result = await answer.catch((err: NodeJS.ErrnoException) => {
        // The gateway may answer 413 and close while the rest of the body is still being written.
        if (err.code === 'EPIPE' || err.code === 'ECONNRESET') return { status: 413, body: '' };
        throw err;
      });
      expect(healthDuringFlood).toEqual({ status: 200, body: expect.objectContaining({ status: 'ok' }) });
      return result;
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it('a few MB of aliases: 413 unread past the limit, and /healthz answers meanwhile', async () => {
    const result = await floodWhileProbingHealth(t);
    expect(result.status).toBe(413);
  });

  it('with a large body limit configured, the token limit refuses the same flood (400) without building it', async () => {
    const roomy = await startTestGateway({ GRAPHQL_BODY_LIMIT: '20mb' });
    try {
      const result = await floodWhileProbingHealth(roomy);
      expect(result.status).toBe(400);
      expect(JSON.parse(result.body).errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    } finally {
      await roomy.close();
    }
  });
});

describe('every list without pages answers at most what it is priced at (issue 22, finding 5)', () => {
  /** More rows than any plain list answers, written directly (the services refuse some of them). */
  const beyond = UNPAGED_LIST_MAX + 5;
  let declarationId: number;

  beforeAll(async () => {
    const prisma = t.db.prisma;
    const { id: _c, ...category } = await prisma.category.findFirstOrThrow({ where: { isActive: true } });
    await prisma.category.createMany({
      data: Array.from({ length: beyond }, (_, i) => ({ ...category, name: `${category.name} ${i}`, slug: `${category.slug}-${i}`, isFeatured: true })),
    });
    const { id: _u, ...unit } = await prisma.unit.findFirstOrThrow({ where: { status: 'AVAILABLE' } });
    const units = await prisma.unit.createManyAndReturn({
      data: Array.from({ length: beyond }, (_, i) => ({ ...unit, code: `${unit.code}-${i}` })),
      select: { id: true },
    });
    const investor = await prisma.investor.findFirstOrThrow({ where: { user: { email: DEMO_EMAILS.investor } } });
    await prisma.holding.createMany({
      data: units.map((u) => ({ investorId: investor.id, unitId: u.id, ownershipPercentage: '0.01', investedAmount: '1.00' })),
    });
    // One declaration per new unit, each in its own quarter: more than a report's groups by unit and by period.
    const { id: _d, ...distribution } = await prisma.distribution.findFirstOrThrow({ where: { status: 'DISTRIBUTED' } });
    const { id: _dd, ...declaration } = await prisma.distributionDeclaration.findUniqueOrThrow({ where: { id: distribution.declarationId } });
    const declarations = await prisma.distributionDeclaration.createManyAndReturn({
      data: units.map((u, i) => ({ ...declaration, unitId: u.id, period: `${1900 + Math.floor(i / 4)}-Q${(i % 4) + 1}` })),
      select: { id: true, unitId: true, period: true },
    });
    await prisma.distribution.createMany({
      data: declarations.map((d) => ({ ...distribution, declarationId: d.id, unitId: d.unitId, period: d.period, investorId: investor.id })),
    });
    // And one declaration with more holders than a list answers.
    const { id: _us, ...user } = await prisma.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.investor } });
    const users = await prisma.user.createManyAndReturn({
      data: Array.from({ length: beyond }, (_, i) => ({ ...user, email: `holder-${i}@lists.test` })),
      select: { id: true },
    });
    const holders = await prisma.investor.createManyAndReturn({ data: users.map((u) => ({ userId: u.id })), select: { id: true } });
    declarationId = declarations[0].id;
    await prisma.distribution.createMany({
      data: holders.map((h) => ({ ...distribution, declarationId, unitId: declarations[0].unitId, period: declarations[0].period, investorId: h.id })),
    });
  });

  const statuses = Object.keys(WithdrawalRequestStatus).length;
  type Who = 'guest' | keyof typeof DEMO_EMAILS;
  const cases: Array<{ list: string; who: Who; query: string; path: string; bound: number; price: number; stored: () => Promise<number> }> = [
    {
      list: 'Query.categories',
      who: 'admin',
      query: '{ categories(includeInactive: true) { id } }',
      path: 'categories',
      bound: UNPAGED_LIST_MAX,
      price: COST.rootField + UNPAGED_LIST_MAX,
      stored: () => t.db.prisma.category.count(),
    },
    {
      list: 'Query.publicCategories',
      who: 'guest',
      query: '{ publicCategories { id } }',
      path: 'publicCategories',
      bound: UNPAGED_LIST_MAX,
      price: COST.rootField + UNPAGED_LIST_MAX,
      stored: () => t.db.prisma.category.count({ where: { isActive: true } }),
    },
    {
      list: 'Query.availableCategories',
      who: 'investor',
      query: '{ availableCategories { id } }',
      path: 'availableCategories',
      bound: UNPAGED_LIST_MAX,
      price: COST.rootField + UNPAGED_LIST_MAX,
      stored: () => t.db.prisma.category.count({ where: { isActive: true, memberships: { none: {} } } }),
    },
    {
      list: 'Dashboard.featuredCategories',
      who: 'investor',
      query: '{ dashboard { featuredCategories { id } } }',
      path: 'dashboard.featuredCategories',
      bound: UNPAGED_LIST_MAX,
      price: COST.rootField + COST.field + UNPAGED_LIST_MAX,
      stored: () => t.db.prisma.category.count({ where: { isActive: true, isFeatured: true } }),
    },
    {
      list: 'Query.assetsUnderManagement',
      who: 'analyst',
      query: '{ assetsUnderManagement { categoryId } }',
      path: 'assetsUnderManagement',
      bound: UNPAGED_LIST_MAX,
      price: COST.rootField + UNPAGED_LIST_MAX,
      stored: () => t.db.prisma.category.count(),
    },
    {
      list: 'Portfolio.holdings',
      who: 'investor',
      query: '{ portfolio { holdings { id } } }',
      path: 'portfolio.holdings',
      bound: UNPAGED_LIST_MAX,
      price: COST.rootField + COST.field + UNPAGED_LIST_MAX,
      stored: () => t.db.prisma.holding.count({ where: { investor: { user: { email: DEMO_EMAILS.investor } }, ownershipPercentage: { gt: 0 } } }),
    },
    {
      list: 'PortfolioPerformance.holdings',
      who: 'admin',
      query: '{ portfolioPerformance { holdings { investedAmount } } }',
      path: 'portfolioPerformance.holdings',
      bound: UNPAGED_LIST_MAX,
      price: COST.rootField + COST.field + UNPAGED_LIST_MAX,
      stored: () => t.db.prisma.unit.count({ where: { holdings: { some: { ownershipPercentage: { gt: 0 } } } } }),
    },
    {
      list: 'DistributionDeclarationDetail.distributions',
      who: 'admin',
      query: '{ distributionDeclaration(id: ID) { distributions(perPage: 100) { id } } }',
      path: 'distributionDeclaration.distributions',
      bound: COST.maxPerPage,
      price: COST.rootField + COST.field + COST.maxPerPage,
      stored: () => t.db.prisma.distribution.count({ where: { declarationId } }),
    },
    {
      list: 'Query.withdrawalVolumes',
      who: 'admin',
      query: '{ withdrawalVolumes { count } }',
      path: 'withdrawalVolumes',
      bound: statuses,
      price: COST.rootField + statuses,
      stored: async () => statuses + 1, // one row per status: there is no data beyond it to write
    },
  ];

  it.each(cases)('$list: at most its bound with more rows stored, and priced at that bound', async ({ who, query: template, path, bound, price, stored }) => {
    const query = template.replace('ID', String(declarationId));
    expect(await stored()).toBeGreaterThan(bound);
    expect(queryCost(t.gateway.schema, parse(query))).toBe(price);
    const res = await post({ query }, who === 'guest' ? undefined : await t.token(DEMO_EMAILS[who]));
    expect(res.body.errors).toBeUndefined();
    const rows = path.split('.').reduce((value, key) => value[key], res.body.data) as unknown[];
    expect(rows.length).toBeLessThanOrEqual(bound);
    expect(rows.length).toBeGreaterThan(0);
  });

  it('a plain list keeps its order: newest holdings, largest units, catalogue order', async () => {
    const investor = await t.token(DEMO_EMAILS.investor);
    const res = await post(
      { query: '{ portfolio { holdingsCount holdings { id } } portfolioPerformance { holdings { investedAmount } } categories { name } }' },
      investor,
    );
    expect(res.body.errors).toBeUndefined();
    const { portfolio, portfolioPerformance, categories } = res.body.data;
    expect(portfolio.holdingsCount).toBeGreaterThan(UNPAGED_LIST_MAX); // the totals still cover every holding
    const newest = await t.db.prisma.holding.findMany({
      where: { investor: { user: { email: DEMO_EMAILS.investor } }, ownershipPercentage: { gt: 0 } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: UNPAGED_LIST_MAX,
      select: { id: true },
    });
    expect(portfolio.holdings.map((h: { id: number }) => h.id)).toEqual(newest.map((h) => h.id));
    const invested = portfolioPerformance.holdings.map((h: { investedAmount: string }) => Number(h.investedAmount));
    expect(invested).toEqual([...invested].sort((a, b) => b - a));
    const names = await t.db.prisma.category.findMany({
      where: { isActive: true },
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
      take: UNPAGED_LIST_MAX,
      select: { name: true },
    });
    expect(categories).toEqual(names);
  });

  it("a declaration's distributions are a page: 15 by default, the rest on later pages, holdersCount the total", async () => {
    const admin = await t.token(DEMO_EMAILS.admin);
    const res = await post(
      {
        query: `{ distributionDeclaration(id: ${declarationId}) { holdersCount first: distributions { id } last: distributions(page: 2, perPage: 100) { id } } }`,
      },
      admin,
    );
    expect(res.body.errors).toBeUndefined();
    const { holdersCount, first, last } = res.body.data.distributionDeclaration;
    expect(holdersCount).toBe(await t.db.prisma.distribution.count({ where: { declarationId } }));
    expect(first).toHaveLength(15);
    expect(last).toHaveLength(holdersCount - 100);
  });

  it.each(['PERIOD', 'UNIT'])('distributionTotals by %s refuses more groups than a list answers, and answers a narrower range', async (groupBy) => {
    const analyst = await t.token(DEMO_EMAILS.analyst);
    const res = await post({ query: `{ distributionTotals(groupBy: ${groupBy}) { count } }` }, analyst);
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(res.body.errors[0].message).toMatch(/^More than 100 groups match: narrow the period range/);
    const narrow = await post({ query: `{ distributionTotals(groupBy: ${groupBy}, filter: { toPeriod: "1901-Q4" }) { count } }` }, analyst);
    expect(narrow.body.errors).toBeUndefined();
    expect(narrow.body.data.distributionTotals).toHaveLength(8);
  });

  it('the catalogue refuses a category past UNPAGED_LIST_MAX (409), so no category list is ever cut', async () => {
    const admin = await t.token(DEMO_EMAILS.admin);
    const before = await t.db.prisma.category.count();
    const res = await post(
      { query: 'mutation { createCategory(input: { name: "One too many", slug: "one-too-many", description: "d", icon: "i", color: "#123456" }) { id } }' },
      admin,
    );
    expect(res.body.errors[0].extensions.code).toBe('CONFLICT');
    expect(res.body.errors[0].message).toBe(`The catalogue already holds the maximum of ${UNPAGED_LIST_MAX} categories.`);
    expect(await t.db.prisma.category.count()).toBe(before);
  });
});
