/**
 * A distribution's cadence and payment date, as the shipped app reads them on REST (`type`,
 * `distributed_at`, contract §2) and as the dashboard reads them on GraphQL (cadence, profitKind,
 * scheduledFor, paidAt, paymentDate), through the real declaration mutations and transitions.
 */
import fc from 'fast-check';
import { Prisma } from '../src/generated/prisma/client';
import { MAX_SCHEDULE_DAYS } from '../src/domain/distribution-rules';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';
import { decodeDistribution } from './support/seed-decoders';

const DAY_MS = 86_400_000;
const CADENCES = ['MONTHLY', 'QUARTERLY', 'SEMI_ANNUAL', 'ANNUAL', 'SPECIAL'] as const;

let t: TestGateway;
let admin: string;
let investor: string;
let investorId: number;

beforeAll(async () => {
  t = await startTestGateway();
  [admin, investor] = await Promise.all([t.token(DEMO_EMAILS.admin), t.token(DEMO_EMAILS.investor)]);
  investorId = (await t.db.prisma.investor.findFirstOrThrow({ where: { user: { email: DEMO_EMAILS.investor } } })).id;
});
afterAll(() => t.close());

const today = () => new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS);
const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const daysFromToday = (n: number) => isoDay(new Date(today().getTime() + n * DAY_MS));

const DECL =
  'id cadence profitKind type scheduledFor paidAt distributedAt status distributions { id investorId cadence scheduledFor paidAt paymentDate status }';
const DECLARE = `mutation($input: DeclareDistributionInput!) { declareDistribution(input: $input) { ${DECL} } }`;
const MOVE = {
  approve: `mutation($id: Int!) { approveDistribution(id: $id) { ${DECL} } }`,
  distribute: `mutation($id: Int!) { distributeDistribution(id: $id) { ${DECL} } }`,
  cancel: `mutation($id: Int!) { cancelDistribution(id: $id) { ${DECL} } }`,
};
const PATH = { PENDING: [], APPROVED: ['approve'], DISTRIBUTED: ['approve', 'distribute'], CANCELLED: ['cancel'] } as const;

interface Row {
  id: number;
  investorId: number;
  cadence: string;
  scheduledFor: string;
  paidAt: string | null;
  paymentDate: string;
  status: string;
}
interface Declaration {
  id: number;
  cadence: string;
  profitKind: string;
  type: string;
  scheduledFor: string;
  paidAt: string | null;
  distributedAt: string | null;
  status: string;
  distributions: Row[];
}

let unitCounter = 0;
/** A unit that the demo investor holds 10 % of (the rest unsold). */
async function heldUnit(): Promise<number> {
  const p = t.db.prisma;
  const category = await p.category.findFirstOrThrow({ orderBy: { id: 'asc' } });
  const n = ++unitCounter;
  const unit = await p.unit.create({
    data: {
      code: `SCH-${n}`,
      name: `Schedule unit ${n}`,
      description: 'Fixture',
      location: 'Nowhere',
      categoryId: category.id,
      status: 'FUNDED',
      totalValue: '1000000.00',
      availablePercentage: '90',
      minInvestment: '500.00',
      expectedReturn: '5',
    },
  });
  await p.holding.create({ data: { investorId, unitId: unit.id, ownershipPercentage: '10', investedAmount: '100000.00' } });
  return unit.id;
}

async function declare(input: Record<string, unknown>) {
  const res = await t.gql<{ declareDistribution: Declaration }>(DECLARE, { input }, admin);
  return { decl: res.data?.declareDistribution, error: res.errors?.[0] };
}

async function move(step: keyof typeof MOVE, id: number): Promise<Declaration> {
  const res = await t.gql<Record<string, Declaration>>(MOVE[step], { id }, admin);
  if (!res.data) throw new Error(JSON.stringify(res.errors));
  return Object.values(res.data)[0];
}

const restGet = (url: string, token = investor) => t.http.get(url).set('authorization', `Bearer ${token}`).set('host', 'api.test');

describe('declaring with a cadence and a scheduled date', () => {
  it('keeps the scheduled date apart from the paid time on GraphQL, and serves REST the one the app expects at each step', async () => {
    const unitId = await heldUnit();
    const scheduledFor = daysFromToday(10);
    const { decl, error } = await declare({
      unitId,
      period: '2026-Q3',
      profitKind: 'RENTAL_INCOME',
      cadence: 'MONTHLY',
      scheduledFor,
      grossAmount: '900.00',
      feeRate: '0.1',
    });
    expect(error).toBeUndefined();
    expect(decl).toMatchObject({ cadence: 'MONTHLY', profitKind: 'RENTAL_INCOME', type: 'RENTAL_INCOME', scheduledFor, paidAt: null, status: 'PENDING' });
    const [row] = decl!.distributions;
    expect(row).toMatchObject({ cadence: 'MONTHLY', scheduledFor, paidAt: null, paymentDate: `${scheduledFor}T00:00:00.000Z` });

    const rest = async () => (await restGet(`/api/v1/distributions/${row.id}`)).body.data;
    expect(await rest()).toMatchObject({ type: 'monthly', status: 'pending', distributed_at: `${scheduledFor}T00:00:00+00:00` });
    await move('approve', decl!.id);
    expect(await rest()).toMatchObject({ status: 'approved', distributed_at: `${scheduledFor}T00:00:00+00:00` });

    const paid = await move('distribute', decl!.id);
    expect(paid.paidAt).toEqual(expect.any(String));
    expect(paid.distributedAt).toBe(paid.paidAt);
    expect(paid.scheduledFor).toBe(scheduledFor);
    const paidRow = paid.distributions[0];
    expect(paidRow).toMatchObject({ scheduledFor, paymentDate: paidRow.paidAt });
    expect(await rest()).toMatchObject({ status: 'distributed', distributed_at: paidRow.paidAt!.slice(0, 19) + '+00:00' });
  });

  it('keeps a cancelled distribution’s scheduled date', async () => {
    const unitId = await heldUnit();
    const scheduledFor = daysFromToday(3);
    const { decl } = await declare({ unitId, period: '2026-Q3', profitKind: 'DIVIDEND', cadence: 'SPECIAL', scheduledFor, grossAmount: '100', feeRate: '0' });
    const cancelled = await move('cancel', decl!.id);
    expect(cancelled).toMatchObject({ status: 'CANCELLED', scheduledFor, paidAt: null });
    const res = await restGet(`/api/v1/distributions/${cancelled.distributions[0].id}`);
    expect(res.body.data).toMatchObject({ type: 'special', status: 'cancelled', distributed_at: `${scheduledFor}T00:00:00+00:00` });
  });

  it('defaults to QUARTERLY and to the last day of the month after the quarter, or today once that has passed', async () => {
    const unitId = await heldUnit();
    const past = await declare({ unitId, period: '2020-Q1', type: 'INTEREST', grossAmount: '50', feeRate: '0' });
    expect(past.decl).toMatchObject({ cadence: 'QUARTERLY', profitKind: 'INTEREST', scheduledFor: isoDay(today()) });
    const year = today().getUTCFullYear() + 1;
    const next = await declare({ unitId, period: `${year}-Q1`, profitKind: 'INTEREST', grossAmount: '50', feeRate: '0' });
    expect(next.decl).toMatchObject({ cadence: 'QUARTERLY', scheduledFor: `${year}-04-30` });
  });

  it('allows three monthly declarations of one quarter on their own dates, and refuses a twin with CONFLICT', async () => {
    const unitId = await heldUnit();
    const input = { unitId, period: '2026-Q4', profitKind: 'RENTAL_INCOME', cadence: 'MONTHLY', grossAmount: '300', feeRate: '0.05' };
    for (const days of [5, 35, 65]) expect((await declare({ ...input, scheduledFor: daysFromToday(days) })).error).toBeUndefined();
    const twin = await declare({ ...input, scheduledFor: daysFromToday(35) });
    expect(twin.error?.extensions?.code).toBe('CONFLICT');
    expect(twin.error?.message).toBe(`A monthly rental income distribution of this unit for 2026-Q4, paid on ${daysFromToday(35)}, has already been declared.`);
    expect(await t.db.prisma.distributionDeclaration.count({ where: { unitId } })).toBe(3);
  });

  it('records the cadence and the scheduled date in the declaration’s audit event', async () => {
    const unitId = await heldUnit();
    const scheduledFor = daysFromToday(20);
    const { decl } = await declare({ unitId, period: '2026-Q3', profitKind: 'CAPITAL_GAIN', cadence: 'ANNUAL', scheduledFor, grossAmount: '10', feeRate: '0' });
    const event = await t.db.prisma.auditEvent.findFirstOrThrow({ where: { action: 'distribution_declaration.declared', targetId: String(decl!.id) } });
    expect((event.changes as { after: Record<string, unknown> }).after).toMatchObject({ cadence: 'ANNUAL', scheduledFor: `${scheduledFor}T00:00:00.000Z` });
  });

  it('names the cadence in the paid notification, its data and the ledger row', async () => {
    const unitId = await heldUnit();
    const { decl } = await declare({
      unitId,
      period: '2026-Q3',
      profitKind: 'DIVIDEND',
      cadence: 'SEMI_ANNUAL',
      scheduledFor: daysFromToday(1),
      grossAmount: '1000',
      feeRate: '0',
    });
    await move('approve', decl!.id);
    const paid = await move('distribute', decl!.id);
    const distributionId = paid.distributions[0].id;
    const ledger = await t.db.prisma.transaction.findFirstOrThrow({ where: { distributionId, type: 'DISTRIBUTION' }, include: { unit: true } });
    expect(ledger.description).toBe(`Semi-annual dividend 2026-Q3 · ${ledger.unit.name}`);
    const list = await restGet('/api/v1/notifications?per_page=100');
    const note = list.body.data.find((n: { data: { distribution_id?: number } }) => n.data.distribution_id === distributionId);
    expect(note).toMatchObject({ title: 'Semi-annual dividend paid', data: { cadence: 'semi_annual', distribution_id: distributionId } });
  });
});

describe('bad input is a 422 that writes nothing', () => {
  it.each([
    ['in the past', () => daysFromToday(-1)],
    ['far in the past', () => '1999-12-31'],
    ['absurdly far ahead', () => daysFromToday(MAX_SCHEDULE_DAYS + 1)],
    ['in the year 9999', () => '9999-12-31'],
  ])('a scheduled date %s', async (_label, date) => {
    const unitId = await heldUnit();
    const { decl, error } = await declare({ unitId, period: '2026-Q3', profitKind: 'DIVIDEND', scheduledFor: date(), grossAmount: '10', feeRate: '0' });
    expect(decl).toBeUndefined();
    expect(error?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { scheduledFor: [expect.stringContaining('scheduled for')] } });
    expect(await t.db.prisma.distributionDeclaration.count({ where: { unitId } })).toBe(0);
  });

  it.each(['2026-02-30', 'tomorrow', '2026-1-5', '2026-03-31T00:00:00Z'])('a scheduled date that is not a date (%p)', async (date) => {
    const unitId = await heldUnit();
    const { error } = await declare({ unitId, period: '2026-Q3', profitKind: 'DIVIDEND', scheduledFor: date, grossAmount: '10', feeRate: '0' });
    expect(error?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(await t.db.prisma.distributionDeclaration.count({ where: { unitId } })).toBe(0);
  });

  it('no profit kind at all', async () => {
    const unitId = await heldUnit();
    const { error } = await declare({ unitId, period: '2026-Q3', grossAmount: '10', feeRate: '0' });
    expect(error?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { profitKind: ['The profit kind field is required.'] } });
    expect(await t.db.prisma.distributionDeclaration.count({ where: { unitId } })).toBe(0);
  });

  it.each(['dividend', 'weekly', 'MONTHLY ', '1'])('REST ?type=%p (not a cadence) is a 422 named type', async (type) => {
    const res = await restGet(`/api/v1/distributions?type=${encodeURIComponent(type)}`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ success: false, message: 'The selected type is invalid.', errors: { type: ['The selected type is invalid.'] } });
  });
});

describe('REST ?type= filters on the cadence', () => {
  it.each(CADENCES)('%s: every row has it, and the total is the count of it', async (cadence) => {
    const analyst = await t.token(DEMO_EMAILS.analyst);
    const res = await restGet(`/api/v1/distributions?type=${cadence.toLowerCase()}&per_page=100`, analyst);
    expect(res.status).toBe(200);
    expect(res.body.data.every((d: { type: string }) => d.type === cadence.toLowerCase())).toBe(true);
    expect(res.body.meta.total).toBe(await t.db.prisma.distribution.count({ where: { cadence } }));
  });
});

describe('every declaration decodes as the app decodes it (fast-check)', () => {
  it('random cadences, dates, amounts and statuses reached through the real transitions', async () => {
    const unitId = await heldUnit();
    let period = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...CADENCES),
        fc.constantFrom('RENTAL_INCOME', 'CAPITAL_GAIN', 'DIVIDEND', 'INTEREST'),
        fc.option(fc.integer({ min: 0, max: MAX_SCHEDULE_DAYS }), { nil: undefined }),
        fc.integer({ min: 1, max: 99_999_999_999_999 }),
        fc.integer({ min: 0, max: 999_999 }),
        fc.constantFrom('PENDING', 'APPROVED', 'DISTRIBUTED', 'CANCELLED'),
        async (cadence, profitKind, days, cents, feeMillionths, status) => {
          period++;
          const input = {
            unitId,
            period: `${2000 + Math.floor(period / 4)}-Q${(period % 4) + 1}`,
            profitKind,
            cadence,
            ...(days !== undefined && { scheduledFor: daysFromToday(days) }),
            grossAmount: new Prisma.Decimal(cents).dividedBy(100).toFixed(2),
            feeRate: new Prisma.Decimal(feeMillionths).dividedBy(1_000_000).toFixed(6),
          };
          const { decl, error } = await declare(input);
          expect(error).toBeUndefined();
          for (const step of PATH[status]) await move(step, decl!.id);
          const id = decl!.distributions[0].id;
          const res = await restGet(`/api/v1/distributions/${id}`);
          expect(res.status).toBe(200);
          const item = decodeDistribution(res.body.data);
          expect(item.type).toBe(cadence.toLowerCase());
          expect(item.status).toBe(status.toLowerCase());
          const row = await t.db.prisma.distribution.findUniqueOrThrow({ where: { id } });
          const expected = (row.distributedAt ?? row.scheduledFor).toISOString().slice(0, 19) + '+00:00';
          expect(item.distributed_at).toBe(expected);
        },
      ),
      { numRuns: 25 },
    );
  });
});
