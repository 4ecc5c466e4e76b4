import { buildContext } from '../../src/http/context';
import { DEMO_EMAILS, DEMO_PASSWORD, startTestGateway, type TestGateway } from '../support/harness';

/**
 * The GraphQL tier: operations through Apollo's own executeOperation (the gateway's server, with its
 * plugins and error formatting), the context from the one context builder; no HTTP, no supertest.
 */
let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t.close());

type Result<T> = { data?: T | null; errors?: ReadonlyArray<{ message: string; extensions?: Record<string, unknown> }> };

async function run<T = Record<string, unknown>>(query: string, variables: Record<string, unknown> = {}, token?: string): Promise<Result<T>> {
  const contextValue = await buildContext(t.services, token && `Bearer ${token}`, { ip: '203.0.113.9', requestId: 'graphql-tier' });
  const response = await t.gateway.apollo.executeOperation<T>({ query, variables }, { contextValue });
  if (response.body.kind !== 'single') throw new Error('incremental answer');
  return response.body.singleResult as Result<T>;
}

async function login(email: string): Promise<string> {
  const res = await run<{ login: { accessToken: string } }>('mutation($e: String!, $p: String!) { login(email: $e, password: $p) { accessToken } }', {
    e: email,
    p: DEMO_PASSWORD,
  });
  if (!res.data) throw new Error(`login ${email}: ${JSON.stringify(res.errors)}`);
  return res.data.login.accessToken;
}

const codeOf = (res: Result<unknown>) => res.errors?.[0]?.extensions?.code;

describe('GraphQL tier (executeOperation)', () => {
  let investor: string;
  let investorId: number;
  beforeAll(async () => {
    investor = await login(DEMO_EMAILS.investor);
    const me = await run<{ me: { investorId: number } }>('{ me { investorId } }', {}, investor);
    investorId = me.data?.me.investorId ?? NaN;
  });

  it('signs in and answers as the signed-in user', async () => {
    const res = await run<{ me: { email: string; role: string } }>('{ me { email role } }', {}, investor);
    expect(res).toEqual({ data: { me: { email: DEMO_EMAILS.investor, role: 'INVESTOR' } } });
  });

  it('refuses a wrong password with a field error', async () => {
    const res = await run('mutation { login(email: "investor@demo.test", password: "Wrong1234!") { accessToken } }');
    expect(codeOf(res)).toBe('BAD_USER_INPUT');
  });

  it('answers a guest UNAUTHENTICATED and an investor on a staff field FORBIDDEN', async () => {
    expect(codeOf(await run('{ distributions { items { id } } }'))).toBe('UNAUTHENTICATED');
    expect(codeOf(await run('{ distributionDeclarations { items { id } } }', {}, investor))).toBe('FORBIDDEN');
  });

  it("lists the investor's own distributions only, with the page's count", async () => {
    const res = await run<{ distributions: { items: { investorId: number }[]; pageInfo: { total: number } } }>(
      '{ distributions(perPage: 100) { items { investorId } pageInfo { total } } }',
      {},
      investor,
    );
    const own = await t.db.prisma.distribution.count({ where: { investorId } });
    expect(own).toBeGreaterThan(0);
    expect(res.data?.distributions.pageInfo.total).toBe(own);
    expect(res.data?.distributions.items.every((d) => d.investorId === investorId)).toBe(true);
  });

  it("answers another investor's distribution NOT_FOUND", async () => {
    const other = await t.db.prisma.distribution.findFirst({ where: { investorId: { not: investorId } }, select: { id: true } });
    expect(other).not.toBeNull();
    const res = await run('query($id: Int!) { distribution(id: $id) { id } }', { id: other?.id }, investor);
    expect(res.data).toBeNull();
    expect(codeOf(res)).toBe('NOT_FOUND');
  });

  it('reports invalid input per field (BAD_USER_INPUT with fields)', async () => {
    const create = 'mutation($input: CreateInvestmentRequestInput!) { createInvestmentRequest(input: $input) { id } }';
    // The input rules first; once they pass, the checks on stored data, together (docs/api.md "Validation").
    const res = await run(create, { input: { unitId: 2147483000, amount: '0.001' } }, investor);
    expect(codeOf(res)).toBe('BAD_USER_INPUT');
    expect(res.errors?.[0]?.extensions?.fields).toEqual({ amount: ['The amount field must have 0-2 decimal places.'] });
    const stored = await run(create, { input: { unitId: 2147483000, amount: '0' } }, investor);
    expect(codeOf(stored)).toBe('BAD_USER_INPUT');
    expect(Object.keys(stored.errors?.[0]?.extensions?.fields as Record<string, string[]>).sort()).toEqual(['amount', 'unitId']);
  });

  it("refuses what an input's rules refuse and passes an args class that declares none (type-graphql's own validation)", async () => {
    const empty = await run('mutation { registerDeviceToken(input: { token: "", platform: WEB }) { id } }', {}, investor);
    expect(empty.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { token: ['The token field is required.'] } });
    // PageArgs declares no class-validator rule (its bounds are the services'): page 0 means 1.
    const page = await run<{ distributions: { pageInfo: { currentPage: number } } }>(
      '{ distributions(page: 0, perPage: 1) { pageInfo { currentPage } } }',
      {},
      investor,
    );
    expect(page).toEqual({ data: { distributions: { pageInfo: { currentPage: 1 } } } });
  });
});
