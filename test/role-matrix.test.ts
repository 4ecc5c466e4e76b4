import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLScalarType,
  getNamedType,
  isLeafType,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

/**
 * Who may call what: every Query and Mutation field of the schema, as guest, investor, analyst and
 * admin. Allowed → the answer carries no UNAUTHENTICATED/FORBIDDEN error (it may still be 404/422/409
 * for the made-up arguments); not allowed → UNAUTHENTICATED for a guest, FORBIDDEN for a user.
 */
type Role = 'guest' | 'investor' | 'analyst' | 'admin';
const ANYONE: Role[] = ['guest', 'investor', 'analyst', 'admin'];
const USERS: Role[] = ['investor', 'analyst', 'admin'];
const STAFF: Role[] = ['analyst', 'admin'];
const ADMIN: Role[] = ['admin'];
const INVESTOR: Role[] = ['investor'];

const MATRIX: Record<'Query' | 'Mutation', Record<string, Role[]>> = {
  Query: {
    appConfig: ANYONE, legalText: ANYONE, publicCategories: ANYONE, publicCategory: ANYONE, publicUnits: ANYONE, publicUnit: ANYONE,
    me: USERS, settings: USERS, categories: USERS, category: USERS, units: USERS, unit: USERS, dashboard: USERS,
    distributions: USERS, distribution: USERS, withdrawalRequests: USERS, investmentRequests: USERS, investmentRequest: USERS,
    investors: USERS, investor: USERS, investorPortfolio: USERS, portfolioPerformance: USERS, transactions: USERS, transaction: USERS,
    payouts: USERS, payout: USERS, categoryMemberships: USERS, categoryMembership: USERS, kycDocuments: USERS, kycDocument: USERS,
    kycStatus: USERS, kycDocumentDownload: USERS, portfolio: INVESTOR, availableCategories: INVESTOR,
    profitStatement: INVESTOR, taxStatement: INVESTOR, portfolioSummaryStatement: INVESTOR,
    notifications: USERS, notification: USERS, unreadNotificationCount: USERS,
    distributionDeclarations: STAFF, distributionDeclaration: STAFF, assetsUnderManagement: STAFF, distributionTotals: STAFF, withdrawalVolumes: STAFF,
    auditEvents: ADMIN, auditEventsExport: ADMIN,
  },
  Mutation: {
    login: ANYONE, register: ANYONE, refreshToken: ANYONE, forgotPassword: ANYONE, resetPassword: ANYONE,
    changePassword: USERS, updateProfile: USERS, deleteAccount: USERS, updateSettings: USERS, logout: USERS,
    createInvestmentRequest: INVESTOR, cancelInvestmentRequest: INVESTOR, createWithdrawalRequest: INVESTOR, cancelWithdrawalRequest: INVESTOR,
    createCategoryMembership: INVESTOR, uploadKycDocument: INVESTOR,
    approveInvestmentRequest: ADMIN, rejectInvestmentRequest: ADMIN, approveWithdrawalRequest: ADMIN, rejectWithdrawalRequest: ADMIN,
    completeWithdrawalRequest: ADMIN, declareDistribution: ADMIN, approveDistribution: ADMIN, distributeDistribution: ADMIN,
    cancelDistribution: ADMIN, approveKycDocument: ADMIN, rejectKycDocument: ADMIN, markPayoutPaid: ADMIN, markPayoutFailed: ADMIN,
    createCategory: ADMIN, updateCategory: ADMIN, createUnit: ADMIN, updateUnit: ADMIN, recordUnitValuation: ADMIN,
    upsertLegalText: ADMIN, updateAppConfig: ADMIN,
    markNotificationRead: USERS, markAllNotificationsRead: USERS, registerDeviceToken: USERS, removeDeviceToken: USERS,
  },
};

/** A made-up but well-typed GraphQL literal for an argument. */
function literal(type: GraphQLInputType): string {
  if (type instanceof GraphQLNonNull) return literal(type.ofType);
  if (type instanceof GraphQLList) return '[]';
  if (type instanceof GraphQLEnumType) return type.getValues()[0].name;
  if (type instanceof GraphQLInputObjectType) {
    const required = Object.values(type.getFields()).filter((f) => f.type instanceof GraphQLNonNull);
    return `{ ${required.map((f) => `${f.name}: ${literal(f.type)}`).join(', ')} }`;
  }
  switch ((type as GraphQLScalarType).name) {
    case 'Int':
      return '999999';
    case 'Boolean':
      return 'true';
    case 'Decimal':
      return '"1"';
    case 'Date':
      return '"2026-01-01"';
    case 'DateTime':
      return '"2026-01-01T00:00:00Z"';
    default:
      return '"x"';
  }
}

function operationFor(kind: 'Query' | 'Mutation', field: GraphQLField<unknown, unknown>): string {
  const args = field.args.filter((a) => a.type instanceof GraphQLNonNull).map((a) => `${a.name}: ${literal(a.type)}`);
  const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
  return `${kind === 'Query' ? 'query' : 'mutation'} { ${field.name}${args.length ? `(${args.join(', ')})` : ''}${selection} }`;
}

let t: TestGateway;
const tokens: Partial<Record<Role, string>> = {};

beforeAll(async () => {
  t = await startTestGateway();
  tokens.investor = await t.token(DEMO_EMAILS.investor);
  tokens.analyst = await t.token(DEMO_EMAILS.analyst);
  tokens.admin = await t.token(DEMO_EMAILS.admin);
});
afterAll(() => t.close());

describe('role matrix', () => {
  it('covers every Query and Mutation field of the schema', () => {
    for (const kind of ['Query', 'Mutation'] as const) {
      const root = kind === 'Query' ? t.gateway.schema.getQueryType()! : t.gateway.schema.getMutationType()!;
      expect(Object.keys(MATRIX[kind]).sort()).toEqual(Object.keys(root.getFields()).sort());
    }
  });

  it('lets analysts read but change nothing beyond their own account', () => {
    const ownAccount = ['login', 'register', 'refreshToken', 'forgotPassword', 'resetPassword', 'changePassword', 'updateProfile', 'deleteAccount', 'updateSettings', 'logout',
      'markNotificationRead', 'markAllNotificationsRead', 'registerDeviceToken', 'removeDeviceToken'];
    const analystMutations = Object.entries(MATRIX.Mutation).filter(([, roles]) => roles.includes('analyst')).map(([name]) => name);
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
          const res = await t.gql(operationFor(kind, field), {}, tokens[role]);
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
