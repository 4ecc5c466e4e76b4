import { randomUUID } from 'node:crypto';
import { FaultProxy, commitAfterInsertInto } from './support/fault-proxy';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

/**
 * Issue 22, finding 10: a write whose COMMIT reached the database but whose answer never came back.
 * The gateway cannot know whether it happened; it answers 503 (never 500), keeps the
 * Idempotency-Key, and the client's retry with that key answers the record that was written instead
 * of writing a second one (docs/api.md, "Idempotency keys"). On every database the commit's answer
 * is lost by a transaction that commits and then reports a lost connection; on PostgreSQL, also by
 * a proxy that resets the connection right after COMMIT was sent.
 */

const UNAVAILABLE = { success: false, message: 'Service temporarily unavailable.' };
const lost = () => Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });

interface Face {
  name: string;
  table: 'investmentRequest' | 'withdrawalRequest';
  send: (
    t: TestGateway,
    token: string,
    unitId: number,
    key: string,
  ) => Promise<{ status: number; body: Record<string, unknown>; text: string; headers: Record<string, string> }>;
  id: (body: Record<string, unknown>) => number;
}

const REST_INVEST: Face = {
  name: 'REST POST /investment-requests',
  table: 'investmentRequest',
  send: (t, token, unitId, key) =>
    t.http.post('/api/v1/investment-requests').set('authorization', `Bearer ${token}`).set('idempotency-key', key).send({ unit_id: unitId, amount: 1500 }),
  id: (body) => (body.data as { id: number }).id,
};
const GRAPHQL_WITHDRAW: Face = {
  name: 'GraphQL createWithdrawalRequest',
  table: 'withdrawalRequest',
  send: (t, token, unitId, key) =>
    t.http
      .post('/graphql')
      .set('content-type', 'application/json')
      .set('authorization', `Bearer ${token}`)
      .set('idempotency-key', key)
      .send({
        query: 'mutation($input: CreateWithdrawalRequestInput!) { createWithdrawalRequest(input: $input) { id ownershipPercentage status } }',
        variables: { input: { unitId, ownershipPercentage: '0.5', reason: 'Lost commit test' } },
      }),
  id: (body) => Number((body.data as { createWithdrawalRequest: { id: string } }).createWithdrawalRequest.id),
};
const REST_WITHDRAW: Face = {
  name: 'REST POST /withdrawals/requests',
  table: 'withdrawalRequest',
  send: (t, token, unitId, key) =>
    t.http
      .post('/api/v1/withdrawals/requests')
      .set('authorization', `Bearer ${token}`)
      .set('idempotency-key', key)
      .send({ unit_id: unitId, ownership_percentage: 0.5, reason: 'Lost commit test' }),
  id: (body) => (body.data as { id: number }).id,
};
const GRAPHQL_INVEST: Face = {
  name: 'GraphQL createInvestmentRequest',
  table: 'investmentRequest',
  send: (t, token, unitId, key) =>
    t.http
      .post('/graphql')
      .set('content-type', 'application/json')
      .set('authorization', `Bearer ${token}`)
      .set('idempotency-key', key)
      .send({
        query: 'mutation($input: CreateInvestmentRequestInput!) { createInvestmentRequest(input: $input) { id amount status } }',
        variables: { input: { unitId, amount: '1500' } },
      }),
  id: (body) => Number((body.data as { createInvestmentRequest: { id: string } }).createInvestmentRequest.id),
};
const FACES = [REST_INVEST, GRAPHQL_INVEST, REST_WITHDRAW, GRAPHQL_WITHDRAW];

/** A unit open for investment, and a holding of the demo investor in it (room for withdrawals). */
async function unitWithHolding(t: TestGateway, investorId: number) {
  const category = await t.db.prisma.category.findFirstOrThrow();
  const unit = await t.db.prisma.unit.create({
    data: {
      code: `LOST-${randomUUID().slice(0, 8)}`,
      name: 'Lost commit unit',
      description: 'A unit made by the test.',
      location: 'Testville',
      categoryId: category.id,
      status: 'AVAILABLE',
      totalValue: '100000.00',
      availablePercentage: '50.000000',
      minInvestment: '1000.00',
      expectedReturn: '5.000000',
    },
  });
  await t.db.prisma.holding.create({ data: { investorId, unitId: unit.id, ownershipPercentage: '10.000000', investedAmount: '10000.00' } });
  return unit;
}

const rowsOn = (t: TestGateway, table: Face['table'], unitId: number) =>
  table === 'investmentRequest' ? t.db.prisma.investmentRequest.findMany({ where: { unitId } }) : t.db.prisma.withdrawalRequest.findMany({ where: { unitId } });

/** The 503 a lost commit answers on each face. */
function expectUnavailable(face: Face, res: { status: number; body: Record<string, unknown> }) {
  expect(res.status).toBe(503);
  if (face.name.startsWith('REST')) expect(res.body).toEqual(UNAVAILABLE);
  else expect((res.body.errors as Array<{ extensions: { code: string } }>)[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
}

describe('a commit whose answer is lost (any database)', () => {
  let t: TestGateway;
  let token: string;
  let investorId: number;

  beforeAll(async () => {
    t = await startTestGateway();
    token = await t.token(DEMO_EMAILS.investor);
    investorId = (await t.db.prisma.investor.findFirstOrThrow({ where: { user: { email: DEMO_EMAILS.investor } } })).id;
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  it.each(FACES.map((f) => [f.name, f] as const))('%s: 503, the key kept, and the retry answers the one row written', async (_name, face) => {
    const unit = await unitWithHolding(t, investorId);
    const key = randomUUID();
    // The transaction commits, then the gateway hears of a lost connection (as when COMMIT's answer never arrives).
    const prisma = t.db.prisma;
    const original = prisma.$transaction.bind(prisma) as (...args: unknown[]) => Promise<unknown>;
    const spy = jest.spyOn(prisma, '$transaction').mockImplementationOnce((async (...args: unknown[]) => {
      await original(...args);
      throw lost();
    }) as never);

    const first = await face.send(t, token, unit.id, key);
    expect(spy).toHaveBeenCalled();
    expectUnavailable(face, first);
    const written = await rowsOn(t, face.table, unit.id);
    expect(written).toHaveLength(1);

    const retry = await face.send(t, token, unit.id, key);
    expect(retry.status).toBe(face.name.startsWith('REST') ? 201 : 200);
    expect(face.id(retry.body)).toBe(written[0].id);
    expect(await rowsOn(t, face.table, unit.id)).toHaveLength(1);
    // From then on the answer is kept and replayed.
    const again = await face.send(t, token, unit.id, key);
    expect(again.text).toBe(retry.text);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('a write that did not commit leaves the key to a retry that writes it once', async () => {
    const unit = await unitWithHolding(t, investorId);
    const key = randomUUID();
    jest.spyOn(t.db.prisma, '$transaction').mockRejectedValueOnce(lost());
    expectUnavailable(REST_INVEST, await REST_INVEST.send(t, token, unit.id, key));
    expect(await rowsOn(t, 'investmentRequest', unit.id)).toHaveLength(0);
    const retry = await REST_INVEST.send(t, token, unit.id, key);
    expect(retry.status).toBe(201);
    expect(await rowsOn(t, 'investmentRequest', unit.id)).toEqual([expect.objectContaining({ id: REST_INVEST.id(retry.body) })]);
  });

  it('the same key with another request after a lost commit is a 422, and writes nothing', async () => {
    const unit = await unitWithHolding(t, investorId);
    const key = randomUUID();
    const prisma = t.db.prisma;
    const original = prisma.$transaction.bind(prisma) as (...args: unknown[]) => Promise<unknown>;
    jest.spyOn(prisma, '$transaction').mockImplementationOnce((async (...args: unknown[]) => {
      await original(...args);
      throw lost();
    }) as never);
    expectUnavailable(REST_INVEST, await REST_INVEST.send(t, token, unit.id, key));
    const other = await t.http
      .post('/api/v1/investment-requests')
      .set('authorization', `Bearer ${token}`)
      .set('idempotency-key', key)
      .send({ unit_id: unit.id, amount: 2500 });
    expect(other.status).toBe(422);
    expect(other.body.errors).toHaveProperty('idempotency_key');
    expect(await rowsOn(t, 'investmentRequest', unit.id)).toHaveLength(1);
  });
});

// A connection reset right after COMMIT was sent needs a real server behind a proxy.
if (process.env.TEST_DATABASE_URL) {
  describe('PostgreSQL: the connection reset right after COMMIT was sent', () => {
    let t: TestGateway;
    let proxy: FaultProxy;
    let token: string;
    let investorId: number;

    beforeAll(async () => {
      t = await startTestGateway(
        {},
        {
          databaseUrl: async (url) => {
            const started = await FaultProxy.start(url);
            proxy = started.proxy;
            return started.url;
          },
        },
      );
      token = await t.token(DEMO_EMAILS.investor);
      investorId = (await t.db.prisma.investor.findFirstOrThrow({ where: { user: { email: DEMO_EMAILS.investor } } })).id;
    });
    afterAll(async () => {
      await t.close();
      await proxy.close();
    });

    it.each(FACES.map((f) => [f.name, f] as const))('%s: 503, then the retry answers the one committed row', async (_name, face) => {
      const unit = await unitWithHolding(t, investorId);
      const key = randomUUID();
      const cut = proxy.cutAfter(commitAfterInsertInto(face.table === 'investmentRequest' ? 'investment_requests' : 'withdrawal_requests'));
      const first = await face.send(t, token, unit.id, key);
      await cut; // the server did answer the COMMIT: the row is there
      expectUnavailable(face, first);
      const written = await rowsOn(t, face.table, unit.id);
      expect(written).toHaveLength(1);

      const retry = await face.send(t, token, unit.id, key);
      expect(retry.status).toBe(face.name.startsWith('REST') ? 201 : 200);
      expect(face.id(retry.body)).toBe(written[0].id);
      expect(await rowsOn(t, face.table, unit.id)).toHaveLength(1);
    });
  });
}
