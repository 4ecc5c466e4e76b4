import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';
import { ANYONE, MATRIX, operationFor, type Role } from './support/field-roles';

let t: TestGateway;
const tokens: Partial<Record<Role, string>> = {};

beforeAll(async () => {
  t = await startTestGateway();
  tokens.investor = await t.token(DEMO_EMAILS.investor);
  tokens.analyst = await t.token(DEMO_EMAILS.analyst);
  tokens.admin = await t.token(DEMO_EMAILS.admin);
});
afterAll(() => t.close());

/** One operation as the role: a GraphQL multipart request when it takes a file, else JSON. */
async function ask(query: string, token?: string): Promise<{ errors?: Array<{ extensions?: Record<string, unknown> }> }> {
  if (!query.includes('$upload')) return t.gql(query, {}, token);
  const req = t.http.post('/graphql').set('apollo-require-preflight', 'true');
  if (token) req.set('authorization', `Bearer ${token}`);
  const res = await req
    .field('operations', JSON.stringify({ query, variables: { upload: null } }))
    .field('map', JSON.stringify({ 0: ['variables.upload'] }))
    .attach('0', Buffer.from('x'), 'x.txt');
  return res.body;
}

describe('role matrix', () => {
  it('covers every Query and Mutation field of the schema', () => {
    for (const kind of ['Query', 'Mutation'] as const) {
      const root = kind === 'Query' ? t.gateway.schema.getQueryType()! : t.gateway.schema.getMutationType()!;
      expect(Object.keys(MATRIX[kind]).sort()).toEqual(Object.keys(root.getFields()).sort());
    }
  });

  it('lets analysts read but change nothing beyond their own account', () => {
    const ownAccount = [
      'login',
      'register',
      'refreshToken',
      'forgotPassword',
      'resetPassword',
      'changePassword',
      'updateProfile',
      'deleteAccount',
      'updateSettings',
      'logout',
      'markNotificationRead',
      'markAllNotificationsRead',
      'registerDeviceToken',
      'removeDeviceToken',
    ];
    const analystMutations = Object.entries(MATRIX.Mutation)
      .filter(([, roles]) => roles.includes('analyst'))
      .map(([name]) => name);
    expect(analystMutations.sort()).toEqual(ownAccount.sort());
  });

  for (const kind of ['Query', 'Mutation'] as const) {
    for (const role of ANYONE) {
      it(`${kind} fields as ${role}`, async () => {
        const root = kind === 'Query' ? t.gateway.schema.getQueryType()! : t.gateway.schema.getMutationType()!;
        // logout last: it ends the session the other calls use.
        const fields = Object.values(root.getFields()).sort((a, b) => Number(a.name === 'logout') - Number(b.name === 'logout'));
        const outcomes: string[] = [];
        const expected: string[] = [];
        for (const field of fields) {
          const res = await ask(operationFor(kind, field), tokens[role]);
          const codes = (res.errors ?? []).map((e) => e.extensions?.code);
          const denied = codes.find((c) => c === 'UNAUTHENTICATED' || c === 'FORBIDDEN');
          const roles = MATRIX[kind][field.name];
          const allowed = roles.includes(role);
          // A field open to guests may still say UNAUTHENTICATED about bad credentials in its arguments (refreshToken).
          const outcome = denied === undefined || (roles.includes('guest') && denied === 'UNAUTHENTICATED') ? 'allowed' : denied;
          outcomes.push(`${field.name}: ${outcome}`);
          expected.push(`${field.name}: ${allowed ? 'allowed' : role === 'guest' ? 'UNAUTHENTICATED' : 'FORBIDDEN'}`);
        }
        expect(outcomes).toEqual(expected);
      });
    }
  }
});
