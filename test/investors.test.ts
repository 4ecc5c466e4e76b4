import { Prisma } from '../src/generated/prisma/client';
import { kycStatusOf } from '../src/services/investor.service';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

let t: TestGateway;
let investorToken: string;
let adminToken: string;
let analystToken: string;
let investorId: number;
let otherId: number;

beforeAll(async () => {
  t = await startTestGateway();
  [investorToken, adminToken, analystToken] = await Promise.all([t.token(DEMO_EMAILS.investor), t.token(DEMO_EMAILS.admin), t.token(DEMO_EMAILS.analyst)]);
  investorId = (await t.db.prisma.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.investor }, include: { investor: true } })).investor!.id;
  otherId = (await t.db.prisma.investor.findFirstOrThrow({ where: { id: { not: investorId }, holdings: { some: {} } } })).id;
});
afterAll(() => t.close());

const get = (url: string, token = investorToken) => t.http.get(url).set('authorization', `Bearer ${token}`).set('host', 'api.test');
const D = (v: string | number) => new Prisma.Decimal(v);

/** The status the rule gives, written out independently of the service. */
async function expectedKyc(id: number) {
  const docs = await t.db.prisma.kycDocument.findMany({ where: { investorId: id }, select: { status: true } });
  for (const s of ['APPROVED', 'PENDING', 'REJECTED'] as const) if (docs.some((d) => d.status === s)) return s.toLowerCase();
  return 'not_submitted';
}

async function expectedSummary(id: number) {
  const holdings = await t.db.prisma.holding.findMany({ where: { investorId: id, ownershipPercentage: { gt: 0 } } });
  return { holdings_count: holdings.length, total_invested: holdings.reduce((a, h) => a.plus(h.investedAmount), D(0)).toNumber() };
}

describe('kycStatusOf', () => {
  it.each([
    [['REJECTED', 'PENDING', 'APPROVED'], 'APPROVED'],
    [['REJECTED', 'PENDING'], 'PENDING'],
    [['REJECTED', 'REJECTED'], 'REJECTED'],
    [[], 'NOT_SUBMITTED'],
  ] as const)('derives %p → %s', (statuses, expected) => {
    expect(kycStatusOf(statuses)).toBe(expected);
  });
});

describe('GET /api/v1/investors', () => {
  it('shows an investor a list holding only themself, with the summary fields', async () => {
    const res = await get('/api/v1/investors');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['success', 'data', 'links', 'meta']);
    expect(res.body.meta.total).toBe(1);
    const [me] = res.body.data;
    expect(Object.keys(me)).toEqual([
      'id',
      'user_id',
      'name',
      'email',
      'phone',
      'country',
      'city',
      'kyc_status',
      'holdings_count',
      'total_invested',
      'created_at',
    ]);
    const row = await t.db.prisma.investor.findUniqueOrThrow({ where: { id: investorId }, include: { user: true } });
    expect(me).toMatchObject({
      id: investorId,
      user_id: row.userId,
      name: row.user.name,
      email: DEMO_EMAILS.investor,
      country: row.country,
      city: row.city,
      kyc_status: await expectedKyc(investorId),
      ...(await expectedSummary(investorId)),
    });
    expect(me.holdings_count).toBeGreaterThan(0);
  });

  it('shows staff every investor, newest first, each with its own KYC status and holdings summary', async () => {
    for (const token of [adminToken, analystToken]) {
      const res = await get('/api/v1/investors?per_page=100', token);
      expect(res.status).toBe(200);
      const expected = await t.db.prisma.investor.findMany({ where: { user: { deletedAt: null } }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
      expect(res.body.data.map((i: { id: number }) => i.id)).toEqual(expected.map((i) => i.id));
      expect(res.body.meta.total).toBe(expected.length);
      for (const inv of res.body.data) {
        expect(inv.kyc_status).toBe(await expectedKyc(inv.id));
        expect({ holdings_count: inv.holdings_count, total_invested: inv.total_invested }).toEqual(await expectedSummary(inv.id));
      }
    }
  });

  it('represents the derived KYC statuses in the demo data', async () => {
    const res = await get('/api/v1/investors?per_page=100', adminToken);
    const seen = new Set(res.body.data.map((i: { kyc_status: string }) => i.kyc_status));
    expect(seen.has('approved')).toBe(true);
    expect(seen.size).toBeGreaterThan(1);
  });

  it('answers a page of investors with a constant number of SQL statements', async () => {
    const count = async (perPage: number) => {
      const before = t.db.queryCount();
      await get(`/api/v1/investors?per_page=${perPage}`, adminToken);
      return t.db.queryCount() - before;
    };
    expect(await count(15)).toBe(await count(2));
  });

  it('filters by q on name or email, case-insensitively', async () => {
    const target = await t.db.prisma.investor.findFirstOrThrow({ where: { id: otherId }, include: { user: true } });
    const bySurname = target.user.name.split(' ').pop()!.toUpperCase();
    const res = await get(`/api/v1/investors?q=${encodeURIComponent(bySurname)}`, adminToken);
    expect(res.status).toBe(200);
    expect(res.body.data.map((i: { id: number }) => i.id)).toContain(otherId);
    const expected = await t.db.prisma.investor.count({
      where: {
        user: { deletedAt: null, OR: [{ name: { contains: bySurname, mode: 'insensitive' } }, { email: { contains: bySurname, mode: 'insensitive' } }] },
      },
    });
    expect(res.body.meta.total).toBe(expected);
    const byEmail = await get(`/api/v1/investors?q=${encodeURIComponent(target.user.email)}`, adminToken);
    expect(byEmail.body.data.map((i: { id: number }) => i.id)).toEqual([otherId]);
    expect(byEmail.body.links.first).toBe(`http://api.test/api/v1/investors?q=${encodeURIComponent(target.user.email)}&page=1`);
    // An investor's q cannot reach anyone else.
    const mine = await get(`/api/v1/investors?q=${encodeURIComponent(target.user.email)}`);
    expect(mine.body.data).toEqual([]);
  });

  it('rejects a bad per_page or an overlong q with 422', async () => {
    const perPage = await get('/api/v1/investors?per_page=101', adminToken);
    expect(perPage.status).toBe(422);
    expect(perPage.body.errors).toHaveProperty('per_page');
    const q = await get(`/api/v1/investors?q=${'x'.repeat(256)}`, adminToken);
    expect(q.status).toBe(422);
    expect(q.body.errors).toEqual({ q: ['The q field must not be greater than 255 characters.'] });
  });

  it('requires a bearer token', async () => {
    const res = await t.http.get('/api/v1/investors');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, message: 'Unauthenticated.' });
  });
});

describe('GET /api/v1/investors/{id}', () => {
  it('answers the investor’s own record', async () => {
    const res = await get(`/api/v1/investors/${investorId}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['success', 'data']);
    expect(res.body.data).toMatchObject({ id: investorId, email: DEMO_EMAILS.investor, kyc_status: await expectedKyc(investorId) });
  });

  it('answers 404 for another investor, a missing id and a non-numeric id', async () => {
    for (const id of [otherId, 99999999, 'abc']) {
      const res = await get(`/api/v1/investors/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, message: 'Resource not found.' });
    }
  });

  it('lets staff read any investor', async () => {
    for (const token of [adminToken, analystToken]) {
      const res = await get(`/api/v1/investors/${otherId}`, token);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: otherId, ...(await expectedSummary(otherId)) });
    }
  });

  it('requires a bearer token', async () => {
    expect((await t.http.get(`/api/v1/investors/${investorId}`)).status).toBe(401);
  });
});

describe('GET /api/v1/investors/{id}/portfolio', () => {
  /** Value of the whole unit: latest valuation, else its total value. */
  async function unitValue(unitId: number) {
    const latest = await t.db.prisma.unitValuation.findFirst({ where: { unitId }, orderBy: { valuedAt: 'desc' } });
    return latest?.value ?? (await t.db.prisma.unit.findUniqueOrThrow({ where: { id: unitId } })).totalValue;
  }

  async function expectedPortfolio(id: number) {
    const holdings = await t.db.prisma.holding.findMany({
      where: { investorId: id, ownershipPercentage: { gt: 0 } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      include: { unit: true },
    });
    const rows = [];
    for (const h of holdings) {
      const value = await unitValue(h.unitId);
      const current = h.ownershipPercentage.times(value).dividedBy(100).toDecimalPlaces(2, Prisma.Decimal.ROUND_HALF_UP);
      const ret = current.minus(h.investedAmount);
      rows.push({
        id: h.id,
        unit: { id: h.unit.id, code: h.unit.code, name: h.unit.name },
        ownership_percentage: h.ownershipPercentage.toNumber(),
        invested_amount: h.investedAmount.toNumber(),
        unit_value: value.toNumber(),
        current_value: current.toNumber(),
        return_amount: ret.toNumber(),
        return_percentage: ret.times(100).dividedBy(h.investedAmount).toDecimalPlaces(2, Prisma.Decimal.ROUND_HALF_UP).toNumber(),
        _invested: h.investedAmount,
        _current: current,
      });
    }
    const invested = rows.reduce((a, r) => a.plus(r._invested), D(0));
    const current = rows.reduce((a, r) => a.plus(r._current), D(0));
    return {
      investor_id: id,
      holdings_count: rows.length,
      total_invested: invested.toNumber(),
      current_value: current.toNumber(),
      return_amount: current.minus(invested).toNumber(),
      return_percentage: invested.isZero()
        ? 0
        : current.minus(invested).times(100).dividedBy(invested).toDecimalPlaces(2, Prisma.Decimal.ROUND_HALF_UP).toNumber(),
      holdings: rows.map(({ _invested, _current, ...r }) => r),
    };
  }

  it('values each holding at the unit’s latest valuation, newest holding first, with totals', async () => {
    const res = await get(`/api/v1/investors/${investorId}/portfolio`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual([
      'investor_id',
      'holdings_count',
      'total_invested',
      'current_value',
      'return_amount',
      'return_percentage',
      'holdings',
    ]);
    expect(res.body.data).toEqual(await expectedPortfolio(investorId));
    expect(res.body.data.holdings.length).toBeGreaterThan(1);
  });

  it('falls back to the unit’s total value when it has no valuation', async () => {
    const holding = await t.db.prisma.holding.findFirstOrThrow({ where: { investorId: otherId, ownershipPercentage: { gt: 0 } }, include: { unit: true } });
    await t.db.prisma.unitValuation.deleteMany({ where: { unitId: holding.unitId } });
    const res = await get(`/api/v1/investors/${otherId}/portfolio`, adminToken);
    const row = res.body.data.holdings.find((h: { id: number }) => h.id === holding.id);
    expect(row.unit_value).toBe(holding.unit.totalValue.toNumber());
    expect(res.body.data).toEqual(await expectedPortfolio(otherId));
  });

  it('answers 404 for another investor’s portfolio and for a missing or non-numeric id', async () => {
    for (const id of [otherId, 99999999, 'x1']) {
      const res = await get(`/api/v1/investors/${id}/portfolio`);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Resource not found.');
    }
  });

  it('lets staff read any investor’s portfolio', async () => {
    const res = await get(`/api/v1/investors/${investorId}/portfolio`, analystToken);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(await expectedPortfolio(investorId));
  });

  it('requires a bearer token', async () => {
    expect((await t.http.get(`/api/v1/investors/${investorId}/portfolio`)).status).toBe(401);
  });
});

describe('GraphQL investors and portfolios', () => {
  it('serves investors, investor and investorPortfolio as REST does, with Decimal strings', async () => {
    const res = await t.gql<{
      investors: { items: Array<{ id: number; kycStatus: string; totalInvested: string }>; pageInfo: { total: number } };
      investor: { id: number };
      investorPortfolio: { totalInvested: string; holdings: Array<{ currentValue: string }> };
    }>(
      `query($id: Int!) {
        investors(perPage: 5, filter: { q: "demo" }) { items { id kycStatus totalInvested } pageInfo { total } }
        investor(id: $id) { id }
        investorPortfolio(investorId: $id) { totalInvested holdings { currentValue } }
      }`,
      { id: investorId },
      adminToken,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data!.investors.items.map((i) => i.id)).toContain(investorId);
    expect(res.data!.investors.items[0].kycStatus).toMatch(/^(APPROVED|PENDING|REJECTED|NOT_SUBMITTED)$/);
    expect(res.data!.investor.id).toBe(investorId);
    const expected = await expectedSummary(investorId);
    expect(res.data!.investorPortfolio.totalInvested).toBe(D(expected.total_invested).toFixed(2));
    expect(res.data!.investorPortfolio.holdings[0].currentValue).toMatch(/^-?\d+\.\d{2}$/);
  });

  it('gives an investor their own portfolio, and refuses it to staff, who have none', async () => {
    const mine = await t.gql<{ portfolio: { investorId: number; holdingsCount: number } }>(`{ portfolio { investorId holdingsCount } }`, {}, investorToken);
    expect(mine.data!.portfolio).toEqual({ investorId, holdingsCount: (await expectedSummary(investorId)).holdings_count });
    const staff = await t.gql(`{ portfolio { investorId } }`, {}, adminToken);
    expect(staff.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  it('answers NOT_FOUND, BAD_USER_INPUT and UNAUTHENTICATED', async () => {
    const other = await t.gql(`query($id: Int!) { investor(id: $id) { id } }`, { id: otherId }, investorToken);
    expect(other.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const otherPortfolio = await t.gql(`query($id: Int!) { investorPortfolio(investorId: $id) { investorId } }`, { id: otherId }, investorToken);
    expect(otherPortfolio.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const bad = await t.gql(`{ investors(perPage: 0) { items { id } } }`, {}, adminToken);
    expect(bad.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { perPage: [expect.any(String)] } });
    const anon = await t.gql(`{ investors { items { id } } }`);
    expect(anon.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });
});
