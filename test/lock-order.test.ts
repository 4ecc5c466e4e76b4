import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

/**
 * Operations that lock the same unit and holding in different orders must not deadlock: approving
 * an investment (unit, then holding) next to creating a withdrawal request (holding, then a
 * key-share lock on the unit through the new row's foreign key). On PostgreSQL a deadlock aborts one
 * of them with a 500; on PGlite the two run one after the other.
 */
let t: TestGateway;
let investorToken: string;
let adminToken: string;

beforeAll(async () => {
  t = await startTestGateway();
  investorToken = await t.token(DEMO_EMAILS.investor);
  adminToken = await t.token(DEMO_EMAILS.admin);
});
afterAll(() => t.close());

it('approving an investment and requesting a withdrawal on the same holding both succeed, round after round', async () => {
  const investor = await t.db.prisma.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.investor }, include: { investor: true } });
  const holding = await t.db.prisma.holding.findFirstOrThrow({
    where: { investorId: investor.investor!.id, unit: { status: 'AVAILABLE', availablePercentage: { gt: 1 } } },
    include: { unit: true },
    orderBy: { ownershipPercentage: 'desc' },
  });
  const config = await t.db.prisma.appConfig.findUniqueOrThrow({ where: { id: 1 } });
  const amount = holding.unit.minInvestment.greaterThan(config.minInvestment) ? holding.unit.minInvestment : config.minInvestment;

  for (let round = 0; round < 5; round++) {
    const created = await t.http
      .post('/api/v1/investment-requests')
      .set('authorization', `Bearer ${investorToken}`)
      .send({ unit_id: holding.unitId, amount: amount.toNumber() });
    expect(created.status).toBe(201);
    const [approved, withdrawal] = await Promise.all([
      t.gql(`mutation { approveInvestmentRequest(id: ${created.body.data.id}) { status } }`, {}, adminToken),
      t.http
        .post('/api/v1/withdrawals/requests')
        .set('authorization', `Bearer ${investorToken}`)
        .send({ unit_id: holding.unitId, ownership_percentage: 0.000001, reason: `Round ${round}` }),
    ]);
    expect(approved.errors).toBeUndefined();
    expect(approved.data).toEqual({ approveInvestmentRequest: { status: 'APPROVED' } });
    expect(withdrawal.status).toBe(201);
  }
});
