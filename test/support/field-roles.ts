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

/**
 * Who may call what: every Query and Mutation field of the schema, as guest, investor, analyst and
 * admin. Allowed → the answer carries no UNAUTHENTICATED/FORBIDDEN error (it may still be 404/422/409
 * for the made-up arguments); not allowed → UNAUTHENTICATED for a guest, FORBIDDEN for a user.
 */
export type Role = 'guest' | 'investor' | 'analyst' | 'admin';
export const ANYONE: Role[] = ['guest', 'investor', 'analyst', 'admin'];
const USERS: Role[] = ['investor', 'analyst', 'admin'];
const STAFF: Role[] = ['analyst', 'admin'];
const ADMIN: Role[] = ['admin'];
const INVESTOR: Role[] = ['investor'];

export const MATRIX: Record<'Query' | 'Mutation', Record<string, Role[]>> = {
  Query: {
    appConfig: ANYONE,
    legalText: ANYONE,
    publicCategories: ANYONE,
    publicCategory: ANYONE,
    publicUnits: ANYONE,
    publicUnit: ANYONE,
    me: USERS,
    settings: USERS,
    categories: USERS,
    category: USERS,
    units: USERS,
    unit: USERS,
    dashboard: USERS,
    distributions: USERS,
    distribution: USERS,
    withdrawalRequests: USERS,
    investmentRequests: USERS,
    investmentRequest: USERS,
    investors: USERS,
    investor: USERS,
    investorPortfolio: USERS,
    portfolioPerformance: USERS,
    transactions: USERS,
    transaction: USERS,
    payouts: USERS,
    payout: USERS,
    categoryMemberships: USERS,
    categoryMembership: USERS,
    kycDocuments: USERS,
    kycDocument: USERS,
    kycStatus: USERS,
    kycDocumentDownload: USERS,
    portfolio: INVESTOR,
    availableCategories: INVESTOR,
    profitStatement: INVESTOR,
    taxStatement: INVESTOR,
    portfolioSummaryStatement: INVESTOR,
    notifications: USERS,
    notification: USERS,
    unreadNotificationCount: USERS,
    distributionDeclarations: STAFF,
    distributionDeclaration: STAFF,
    assetsUnderManagement: STAFF,
    distributionTotals: STAFF,
    withdrawalVolumes: STAFF,
    auditEvents: ADMIN,
    auditEventsExport: ADMIN,
  },
  Mutation: {
    login: ANYONE,
    register: ANYONE,
    refreshToken: ANYONE,
    forgotPassword: ANYONE,
    resetPassword: ANYONE,
    changePassword: USERS,
    updateProfile: USERS,
    deleteAccount: USERS,
    updateSettings: USERS,
    logout: USERS,
    createInvestmentRequest: INVESTOR,
    cancelInvestmentRequest: INVESTOR,
    createWithdrawalRequest: INVESTOR,
    cancelWithdrawalRequest: INVESTOR,
    createCategoryMembership: INVESTOR,
    uploadKycDocument: INVESTOR,
    approveInvestmentRequest: ADMIN,
    rejectInvestmentRequest: ADMIN,
    approveWithdrawalRequest: ADMIN,
    rejectWithdrawalRequest: ADMIN,
    completeWithdrawalRequest: ADMIN,
    declareDistribution: ADMIN,
    approveDistribution: ADMIN,
    distributeDistribution: ADMIN,
    cancelDistribution: ADMIN,
    approveKycDocument: ADMIN,
    rejectKycDocument: ADMIN,
    markPayoutPaid: ADMIN,
    markPayoutFailed: ADMIN,
    createCategory: ADMIN,
    updateCategory: ADMIN,
    createUnit: ADMIN,
    updateUnit: ADMIN,
    recordUnitValuation: ADMIN,
    upsertLegalText: ADMIN,
    updateAppConfig: ADMIN,
    markNotificationRead: USERS,
    markAllNotificationsRead: USERS,
    registerDeviceToken: USERS,
    removeDeviceToken: USERS,
  },
};

/** A made-up but well-typed GraphQL literal for an argument. */
export function literal(type: GraphQLInputType): string {
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
    case 'Upload':
      return '$upload'; // files have no literal: sent as a multipart request
    default:
      return '"x"';
  }
}

export function operationFor(kind: 'Query' | 'Mutation', field: GraphQLField<unknown, unknown>): string {
  const args = field.args.filter((a) => a.type instanceof GraphQLNonNull).map((a) => `${a.name}: ${literal(a.type)}`);
  const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
  const vars = args.some((a) => a.includes('$upload')) ? '($upload: Upload!)' : '';
  return `${kind === 'Query' ? 'query' : 'mutation'}${vars} { ${field.name}${args.length ? `(${args.join(', ')})` : ''}${selection} }`;
}
