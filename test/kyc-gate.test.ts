import { randomUUID } from 'node:crypto';
import { createTestUnit } from './support/fixtures';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

/** Contract §2: investment and withdrawal requests need the investor's KYC status to be approved (else 409). */
let t: TestGateway;
let adminToken: string;
let unitId: number;

beforeAll(async () => {
  t = await startTestGateway();
  adminToken = await t.token(DEMO_EMAILS.admin);
  unitId = (await createTestUnit(t.db.prisma, { availablePercentage: '100.000000' })).id;
});
afterAll(() => t.close());

const NOT_VERIFIED = 'Identity verification is not approved yet.';

async function newInvestor(): Promise<{ token: string; investorId: number }> {
  const email = `kyc-${randomUUID()}@example.com`;
  const res = await t.http.post('/api/v1/auth/register').send({ name: 'New Investor', email, password: 'Secret123', password_confirmation: 'Secret123' });
  expect(res.status).toBe(201);
  const user = await t.db.prisma.user.findUniqueOrThrow({ where: { email }, include: { investor: true } });
  return { token: res.body.data.access_token, investorId: user.investor!.id };
}

const rest = (token: string, path: string, body: object) => t.http.post(`/api/v1${path}`).set('authorization', `Bearer ${token}`).send(body);
const invest = (token: string) => rest(token, '/investment-requests', { unit_id: unitId, amount: 5000 });
const withdraw = (token: string) => rest(token, '/withdrawals/requests', { unit_id: unitId, ownership_percentage: 1, reason: 'Need the money.' });
const gqlInvest = (token: string) =>
  t.gql<{ createInvestmentRequest: { id: number } }>(
    `mutation($input: CreateInvestmentRequestInput!) { createInvestmentRequest(input: $input) { id } }`,
    { input: { unitId, amount: '5000' } },
    token,
  );
const gqlWithdraw = (token: string) =>
  t.gql<{ createWithdrawalRequest: { id: number } }>(
    `mutation($input: CreateWithdrawalRequestInput!) { createWithdrawalRequest(input: $input) { id } }`,
    { input: { unitId, ownershipPercentage: '1', reason: 'Need the money.' } },
    token,
  );

async function uploadPassport(token: string): Promise<number> {
  const res = await t.http
    .post('/api/v1/kyc/documents')
    .set('authorization', `Bearer ${token}`)
    .field('document_type', 'passport')
    .attach('file', Buffer.from('%PDF-1.4 passport'), { filename: 'passport.pdf', contentType: 'application/pdf' });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

const requestsOf = async (investorId: number) => ({
  investments: await t.db.prisma.investmentRequest.count({ where: { investorId } }),
  withdrawals: await t.db.prisma.withdrawalRequest.count({ where: { investorId } }),
});

describe('KYC before money moves', () => {
  it('refuses a fresh account (no documents) with 409 on both operations and both faces, writing nothing', async () => {
    const { token, investorId } = await newInvestor();
    for (const res of [await invest(token), await withdraw(token)]) {
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ success: false, message: NOT_VERIFIED });
    }
    for (const res of [await gqlInvest(token), await gqlWithdraw(token)]) {
      expect(res.errors?.[0]).toMatchObject({ message: NOT_VERIFIED, extensions: { code: 'CONFLICT' } });
    }
    expect(await requestsOf(investorId)).toEqual({ investments: 0, withdrawals: 0 });
  });

  it('still refuses while the only document is pending, and after it was rejected', async () => {
    const { token, investorId } = await newInvestor();
    const doc = await uploadPassport(token);
    expect((await invest(token)).status).toBe(409);
    const rejected = await t.gql(`mutation($id: Int!) { rejectKycDocument(id: $id, reason: "Blurred.") { status } }`, { id: doc }, adminToken);
    expect(rejected.errors).toBeUndefined();
    expect((await invest(token)).body.message).toBe(NOT_VERIFIED);
    expect((await gqlWithdraw(token)).errors?.[0].message).toBe(NOT_VERIFIED);
    expect(await requestsOf(investorId)).toEqual({ investments: 0, withdrawals: 0 });
  });

  it('refuses a withdrawal from a share held without approved KYC as unverified, not as insufficient, writing nothing', async () => {
    const { token, investorId } = await newInvestor();
    await uploadPassport(token);
    // The withdrawal reads the identity in the statement that locks the holding: a holding must not hide the rule.
    await t.db.prisma.holding.create({ data: { investorId, unitId, ownershipPercentage: '5.000000', investedAmount: '5000.00' } });
    const res = await withdraw(token);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ success: false, message: NOT_VERIFIED });
    expect((await gqlWithdraw(token)).errors?.[0]).toMatchObject({ message: NOT_VERIFIED, extensions: { code: 'CONFLICT' } });
    expect(await requestsOf(investorId)).toEqual({ investments: 0, withdrawals: 0 });
  });

  it('allows both once an admin approved a document', async () => {
    const { token, investorId } = await newInvestor();
    const doc = await uploadPassport(token);
    const approved = await t.gql(`mutation($id: Int!) { approveKycDocument(id: $id) { status } }`, { id: doc }, adminToken);
    expect(approved.errors).toBeUndefined();

    const rest201 = await invest(token);
    expect(rest201.status).toBe(201);
    const viaGql = await gqlInvest(token);
    expect(viaGql.errors).toBeUndefined();
    // A holding to withdraw from: the admin approves the REST request.
    const approval = await t.gql(`mutation($id: Int!) { approveInvestmentRequest(id: $id) { status } }`, { id: rest201.body.data.id }, adminToken);
    expect(approval.errors).toBeUndefined();

    expect((await withdraw(token)).status).toBe(201);
    expect((await gqlWithdraw(token)).errors).toBeUndefined();
    expect(await requestsOf(investorId)).toEqual({ investments: 2, withdrawals: 2 });
  });
});
