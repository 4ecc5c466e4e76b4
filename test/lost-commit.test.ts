import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AuthUser } from '../src/domain/auth-user';
import { Role } from '../src/generated/prisma/enums';
import { createTestUnit } from './support/fixtures';
import { FaultProxy, commitAfterInsertInto } from './support/fault-proxy';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

/**
 * Issue 22, finding 10: a write whose COMMIT reached the database but whose answer never came back.
 * The gateway cannot know whether it happened; it answers 503 (never 500), keeps the
 * Idempotency-Key, and the client's retry with that key answers the record that was written instead
 * of writing a second one (docs/api.md, "Idempotency keys"). Every operation marked idempotent is
 * tried, from one table (OPERATIONS). On every database the commit's answer is lost by a transaction
 * that commits and then reports a lost connection; on PostgreSQL, also by a proxy that resets the
 * connection right after COMMIT was sent.
 */

const UNAVAILABLE = { success: false, message: 'Service temporarily unavailable.' };
const lost = () => Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });

type Answer = { status: number; body: Record<string, unknown>; text: string; headers: Record<string, string> };

/** What every operation's case is given. */
interface World {
  t: TestGateway;
  investor: string;
  admin: string;
  investorId: number;
  adminUser: AuthUser;
  storageDir: string;
}

/** One attempt of an operation, ready to send with a key, and what its write left. */
interface Prepared {
  send: (key: string) => Promise<Answer>;
  /** Ids of the records the write adds (one per successful write: a second write shows here). */
  written: () => Promise<number[]>;
  /** The id the answer names when it is not the record written (e.g. the payout marked paid). */
  names?: number;
  /** Further checks once the retry is answered (e.g. no file left over). */
  after?: (ids: number[]) => Promise<void>;
}

interface Operation {
  name: string;
  face: 'REST' | 'GraphQL';
  /** The table the write inserts into: the proxy resets the connection after the COMMIT that follows. */
  table: string;
  /** The status of a first answer (GraphQL: 200). */
  status?: number;
  prepare: (w: World) => Promise<Prepared>;
}

/** A keyed REST POST (JSON), answered in the contract's envelope. */
const rest = (w: World, token: string | null, url: string, body: object) => (key: string) => {
  const req = w.t.http.post(`/api/v1${url}`).set('idempotency-key', key);
  if (token) req.set('authorization', `Bearer ${token}`);
  return req.send(body) as unknown as Promise<Answer>;
};
/** A keyed GraphQL mutation. */
const graphql = (w: World, token: string, query: string, variables: object) => (key: string) =>
  w.t.http
    .post('/graphql')
    .set('content-type', 'application/json')
    .set('authorization', `Bearer ${token}`)
    .set('idempotency-key', key)
    .send({ query, variables }) as unknown as Promise<Answer>;

const ids = (rows: { id: number }[]) => rows.map((r) => r.id);
const pdf = () => Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(1024)]);
const storedFiles = async (dir: string) =>
  (await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));

/** A unit open for investment, and a holding of the demo investor in it (room for withdrawals, a holder to distribute to). */
async function unitWithHolding(t: TestGateway, investorId: number) {
  const unit = await createTestUnit(t.db.prisma);
  await t.db.prisma.holding.create({ data: { investorId, unitId: unit.id, ownershipPercentage: '10.000000', investedAmount: '10000.00' } });
  return unit;
}

/** An APPROVED declaration on a fresh unit whose one holder is the demo investor. */
async function approvedDeclaration(w: World) {
  const unit = await unitWithHolding(w.t, w.investorId);
  const declared = await w.t.services.distributions.declare(w.adminUser, {
    unitId: unit.id,
    period: '2026-Q1',
    type: 'RENTAL_INCOME',
    grossAmount: '1000.00',
    feeRate: '0.05',
  });
  return w.t.services.distributions.approve(declared.id);
}

const unique = () => randomUUID().slice(0, 8);

const OPERATIONS: Operation[] = [
  {
    name: 'REST POST /investment-requests',
    face: 'REST',
    table: 'investment_requests',
    status: 201,
    prepare: async (w) => {
      const unit = await unitWithHolding(w.t, w.investorId);
      return {
        send: rest(w, w.investor, '/investment-requests', { unit_id: unit.id, amount: 1500 }),
        written: async () => ids(await w.t.db.prisma.investmentRequest.findMany({ where: { unitId: unit.id } })),
      };
    },
  },
  {
    name: 'GraphQL createInvestmentRequest',
    face: 'GraphQL',
    table: 'investment_requests',
    prepare: async (w) => {
      const unit = await unitWithHolding(w.t, w.investorId);
      return {
        send: graphql(w, w.investor, 'mutation($input: CreateInvestmentRequestInput!) { createInvestmentRequest(input: $input) { id amount status } }', {
          input: { unitId: unit.id, amount: '1500' },
        }),
        written: async () => ids(await w.t.db.prisma.investmentRequest.findMany({ where: { unitId: unit.id } })),
      };
    },
  },
  {
    name: 'REST POST /withdrawals/requests',
    face: 'REST',
    table: 'withdrawal_requests',
    status: 201,
    prepare: async (w) => {
      const unit = await unitWithHolding(w.t, w.investorId);
      return {
        send: rest(w, w.investor, '/withdrawals/requests', { unit_id: unit.id, ownership_percentage: 0.5, reason: 'Lost commit test' }),
        written: async () => ids(await w.t.db.prisma.withdrawalRequest.findMany({ where: { unitId: unit.id } })),
      };
    },
  },
  {
    name: 'GraphQL createWithdrawalRequest',
    face: 'GraphQL',
    table: 'withdrawal_requests',
    prepare: async (w) => {
      const unit = await unitWithHolding(w.t, w.investorId);
      return {
        send: graphql(
          w,
          w.investor,
          'mutation($input: CreateWithdrawalRequestInput!) { createWithdrawalRequest(input: $input) { id ownershipPercentage status } }',
          { input: { unitId: unit.id, ownershipPercentage: '0.5', reason: 'Lost commit test' } },
        ),
        written: async () => ids(await w.t.db.prisma.withdrawalRequest.findMany({ where: { unitId: unit.id } })),
      };
    },
  },
  {
    name: 'REST POST /auth/register',
    face: 'REST',
    table: 'users',
    status: 201,
    prepare: async (w) => {
      const email = `lost-${unique()}@example.com`;
      return {
        send: rest(w, null, '/auth/register', { name: 'Lost Commit', email, password: 'Secret123', password_confirmation: 'Secret123' }),
        written: async () => ids(await w.t.db.prisma.user.findMany({ where: { email } })),
      };
    },
  },
  ...(['REST', 'GraphQL'] as const).map((face): Operation => ({
    name: face === 'REST' ? 'REST POST /kyc/documents' : 'GraphQL uploadKycDocument',
    face,
    table: 'kyc_documents',
    status: face === 'REST' ? 201 : 200,
    prepare: async (w) => {
      const bytes = pdf();
      const before = (await w.t.db.prisma.kycDocument.aggregate({ _max: { id: true } }))._max.id ?? 0;
      const filesBefore = await storedFiles(w.storageDir);
      const send = (key: string) => {
        const req = w.t.http
          .post(face === 'REST' ? '/api/v1/kyc/documents' : '/graphql')
          .set('authorization', `Bearer ${w.investor}`)
          .set('idempotency-key', key);
        const sent =
          face === 'REST'
            ? req.field('document_type', 'PASSPORT').attach('file', bytes, 'scan.pdf')
            : req
                .set('apollo-require-preflight', 'true')
                .field(
                  'operations',
                  JSON.stringify({
                    query: 'mutation($input: UploadKycDocumentInput!) { uploadKycDocument(input: $input) { id status } }',
                    variables: { input: { documentType: 'PASSPORT', file: null } },
                  }),
                )
                .field('map', JSON.stringify({ 0: ['variables.input.file'] }))
                .attach('0', bytes, 'scan.pdf');
        return sent as unknown as Promise<Answer>;
      };
      return {
        send,
        written: async () => ids(await w.t.db.prisma.kycDocument.findMany({ where: { id: { gt: before }, investorId: w.investorId } })),
        // The one row's file is there (the lost commit did not remove it) and the retry's own file is gone.
        after: async ([id]) => {
          const row = await w.t.db.prisma.kycDocument.findUniqueOrThrow({ where: { id } });
          const added = (await storedFiles(w.storageDir)).filter((f) => !filesBefore.includes(f));
          expect(added.map((f) => path.relative(w.storageDir, f).split(path.sep).join('/'))).toEqual([row.storageKey]);
        },
      };
    },
  })),
  {
    name: 'REST POST /category-memberships',
    face: 'REST',
    table: 'category_memberships',
    status: 201,
    prepare: async (w) => {
      const n = unique();
      const category = await w.t.db.prisma.category.create({
        data: { name: `Lost ${n}`, slug: `lost-${n}`, description: 'For tests.', icon: 'star', color: '#00838F' },
      });
      return {
        send: rest(w, w.investor, '/category-memberships', { category_id: category.id }),
        written: async () => ids(await w.t.db.prisma.categoryMembership.findMany({ where: { categoryId: category.id } })),
      };
    },
  },
  {
    // An upsert on a unique token: what a second run changes is its answer (200, "already yours" instead of 201).
    name: 'REST POST /notifications/fcm-token',
    face: 'REST',
    table: 'device_tokens',
    status: 201,
    prepare: async (w) => {
      const token = `lost-${randomUUID()}`;
      return {
        send: rest(w, w.investor, '/notifications/fcm-token', { token, platform: 'ios' }),
        written: async () => ids(await w.t.db.prisma.deviceToken.findMany({ where: { token } })),
      };
    },
  },
  {
    name: 'GraphQL declareDistribution',
    face: 'GraphQL',
    table: 'distribution_declarations',
    prepare: async (w) => {
      const unit = await unitWithHolding(w.t, w.investorId);
      return {
        send: graphql(w, w.admin, 'mutation($input: DeclareDistributionInput!) { declareDistribution(input: $input) { id status } }', {
          input: { unitId: unit.id, period: '2026-Q2', type: 'RENTAL_INCOME', grossAmount: '1000.00', feeRate: '0.05' },
        }),
        written: async () => ids(await w.t.db.prisma.distributionDeclaration.findMany({ where: { unitId: unit.id } })),
      };
    },
  },
  {
    name: 'GraphQL distributeDistribution',
    face: 'GraphQL',
    table: 'payouts',
    prepare: async (w) => {
      const declaration = await approvedDeclaration(w);
      return {
        send: graphql(w, w.admin, 'mutation($id: Int!) { distributeDistribution(id: $id) { id status } }', { id: declaration.id }),
        // One payout per holder (one holder) per distribution run.
        written: async () => ids(await w.t.db.prisma.payout.findMany({ where: { distribution: { declarationId: declaration.id } } })),
        names: declaration.id,
      };
    },
  },
  {
    name: 'GraphQL markPayoutPaid',
    face: 'GraphQL',
    table: 'transactions',
    prepare: async (w) => {
      const declaration = await approvedDeclaration(w);
      await w.t.services.distributions.distribute(declaration.id);
      const payout = await w.t.db.prisma.payout.findFirstOrThrow({ where: { distribution: { declarationId: declaration.id } } });
      return {
        send: graphql(w, w.admin, 'mutation($id: Int!) { markPayoutPaid(id: $id) { id status } }', { id: payout.id }),
        // Its ledger row: one per payment.
        written: async () => ids(await w.t.db.prisma.transaction.findMany({ where: { payoutId: payout.id, type: 'PAYOUT' } })),
        names: payout.id,
      };
    },
  },
  {
    name: 'GraphQL createUnit',
    face: 'GraphQL',
    table: 'units',
    prepare: async (w) => {
      const code = `LOST-${unique().toUpperCase()}`;
      const category = await w.t.db.prisma.category.findFirstOrThrow({ where: { isActive: true } });
      return {
        send: graphql(w, w.admin, 'mutation($input: CreateUnitInput!) { createUnit(input: $input) { id code } }', {
          input: {
            code,
            name: 'Lost unit',
            description: 'Made by the test.',
            location: 'Testville',
            categoryId: category.id,
            totalValue: '100000.00',
            minInvestment: '1000.00',
            expectedReturn: '5',
          },
        }),
        written: async () => ids(await w.t.db.prisma.unit.findMany({ where: { code } })),
      };
    },
  },
  {
    name: 'GraphQL createCategory',
    face: 'GraphQL',
    table: 'categories',
    prepare: async (w) => {
      const n = unique();
      return {
        send: graphql(w, w.admin, 'mutation($input: CreateCategoryInput!) { createCategory(input: $input) { id slug } }', {
          input: { name: `Lost ${n}`, slug: `lost-${n}`, description: 'Made by the test.', icon: 'star', color: '#00838F' },
        }),
        written: async () => ids(await w.t.db.prisma.category.findMany({ where: { slug: `lost-${n}` } })),
      };
    },
  },
  {
    name: 'GraphQL recordUnitValuation',
    face: 'GraphQL',
    table: 'unit_valuations',
    prepare: async (w) => {
      const unit = await unitWithHolding(w.t, w.investorId);
      return {
        send: graphql(
          w,
          w.admin,
          'mutation($unitId: Int!, $value: Decimal!, $valuedAt: DateTime!) { recordUnitValuation(unitId: $unitId, value: $value, valuedAt: $valuedAt) { id value } }',
          { unitId: unit.id, value: '120000.00', valuedAt: '2026-01-01T00:00:00.000Z' },
        ),
        written: async () => ids(await w.t.db.prisma.unitValuation.findMany({ where: { unitId: unit.id } })),
      };
    },
  },
];

/** The id an answer names: its record's (REST `data`, GraphQL its one root field), register's user's. */
function answeredId(op: Operation, body: Record<string, unknown>): number {
  const data = body.data as Record<string, unknown>;
  const record = (op.face === 'REST' ? data : Object.values(data)[0]) as { id: number | string; user?: { id: number } };
  return Number(record.user?.id ?? record.id);
}

/** The 503 a lost commit answers on each face. */
function expectUnavailable(op: Operation, res: Answer) {
  expect(res.status).toBe(503);
  if (op.face === 'REST') expect(res.body).toEqual(UNAVAILABLE);
  else expect((res.body.errors as Array<{ extensions: { code: string } }>)[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
}

/** The first answer was lost with one record written: the retry answers that record, writes nothing, and is then replayed. */
async function expectRetryAnswersTheRecord(op: Operation, prepared: Prepared, key: string) {
  const written = await prepared.written();
  expect(written).toHaveLength(1);
  const retry = await prepared.send(key);
  expect({ status: retry.status, errors: retry.body.errors }).toEqual({ status: op.status ?? 200, errors: undefined });
  expect(answeredId(op, retry.body)).toBe(prepared.names ?? written[0]);
  expect(await prepared.written()).toEqual(written);
  await prepared.after?.(written);
  // From then on the answer is kept and replayed.
  const again = await prepared.send(key);
  expect(again.text).toBe(retry.text);
  expect(again.headers['idempotent-replayed']).toBe('true');
}

async function world(t: TestGateway, storageDir: string): Promise<World> {
  const admin = await t.db.prisma.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.admin } });
  return {
    t,
    storageDir,
    investor: await t.token(DEMO_EMAILS.investor),
    admin: await t.token(DEMO_EMAILS.admin),
    investorId: (await t.db.prisma.investor.findFirstOrThrow({ where: { user: { email: DEMO_EMAILS.investor } } })).id,
    adminUser: { id: admin.id, role: Role.ADMIN, investorId: null, sessionId: randomUUID() },
  };
}

const CASES = OPERATIONS.map((op) => [op.name, op] as const);

describe('a commit whose answer is lost (any database)', () => {
  let w: World;

  beforeAll(async () => {
    const storageDir = await mkdtemp(path.join(tmpdir(), 'lost-commit-'));
    w = await world(await startTestGateway({ STORAGE_DIR: storageDir }), storageDir);
  });
  afterAll(async () => {
    await w.t.close();
    await rm(w.storageDir, { recursive: true, force: true });
  });
  afterEach(() => jest.restoreAllMocks());

  /** The next transaction commits, then the gateway hears of a lost connection (as when COMMIT's answer never arrives). */
  const loseNextCommit = () => {
    const prisma = w.t.db.prisma;
    const original = prisma.$transaction.bind(prisma) as (...args: unknown[]) => Promise<unknown>;
    return jest.spyOn(prisma, '$transaction').mockImplementationOnce((async (...args: unknown[]) => {
      await original(...args);
      throw lost();
    }) as never);
  };

  it.each(CASES)('%s: 503, the key kept, and the retry answers the one record written', async (_name, op) => {
    const prepared = await op.prepare(w);
    const key = randomUUID();
    const spy = loseNextCommit();
    const first = await prepared.send(key);
    expect(spy).toHaveBeenCalled();
    expectUnavailable(op, first);
    await expectRetryAnswersTheRecord(op, prepared, key);
  });

  it('a write that did not commit leaves the key to a retry that writes it once', async () => {
    const [op] = OPERATIONS;
    const prepared = await op.prepare(w);
    const key = randomUUID();
    jest.spyOn(w.t.db.prisma, '$transaction').mockRejectedValueOnce(lost());
    expectUnavailable(op, await prepared.send(key));
    expect(await prepared.written()).toEqual([]);
    const retry = await prepared.send(key);
    expect(retry.status).toBe(201);
    expect(await prepared.written()).toEqual([answeredId(op, retry.body)]);
  });

  it('an outcome recorded for another kind of write is a 422 on the key, never a 500, and writes nothing', async () => {
    const [op] = OPERATIONS;
    const prepared = await op.prepare(w);
    const key = randomUUID();
    loseNextCommit();
    expectUnavailable(op, await prepared.send(key));
    // As if a release had renamed the kind this field's outcome was recorded under.
    await w.t.db.prisma.$executeRaw`UPDATE idempotency_keys SET outcomes = jsonb_build_object('createInvestmentRequest', 'unit:1')
      WHERE id = (SELECT id FROM idempotency_keys WHERE outcomes IS NOT NULL ORDER BY committed_at DESC, id DESC LIMIT 1)`;
    const retry = await prepared.send(key);
    expect(retry.status).toBe(422);
    expect(retry.body.errors).toHaveProperty('idempotency_key');
    expect(await prepared.written()).toHaveLength(1);
  });

  it('the same key with another request after a lost commit is a 422, and writes nothing', async () => {
    const [op] = OPERATIONS;
    const prepared = await op.prepare(w);
    const key = randomUUID();
    loseNextCommit();
    expectUnavailable(op, await prepared.send(key));
    const unitId = (await w.t.db.prisma.investmentRequest.findFirstOrThrow({ where: { id: { in: await prepared.written() } } })).unitId;
    const other = await rest(w, w.investor, '/investment-requests', { unit_id: unitId, amount: 2500 })(key);
    expect(other.status).toBe(422);
    expect(other.body.errors).toHaveProperty('idempotency_key');
    expect(await prepared.written()).toHaveLength(1);
  });
});

// A connection reset right after COMMIT was sent needs a real server behind a proxy.
if (process.env.TEST_DATABASE_URL) {
  describe('PostgreSQL: the connection reset right after COMMIT was sent', () => {
    let w: World;
    let proxy: FaultProxy;

    beforeAll(async () => {
      const storageDir = await mkdtemp(path.join(tmpdir(), 'lost-commit-'));
      const t = await startTestGateway(
        { STORAGE_DIR: storageDir },
        {
          databaseUrl: async (url) => {
            const started = await FaultProxy.start(url);
            proxy = started.proxy;
            return started.url;
          },
        },
      );
      w = await world(t, storageDir);
    });
    afterAll(async () => {
      await w.t.close();
      await proxy.close();
      await rm(w.storageDir, { recursive: true, force: true });
    });

    it.each(CASES)('%s: 503, then the retry answers the one committed record', async (_name, op) => {
      const prepared = await op.prepare(w);
      const key = randomUUID();
      const cut = proxy.cutAfter(commitAfterInsertInto(op.table));
      const first = await prepared.send(key);
      await cut; // the server did answer the COMMIT: the record is there
      expectUnavailable(op, first);
      await expectRetryAnswersTheRecord(op, prepared, key);
    });
  });
}
