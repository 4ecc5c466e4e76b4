import fc from 'fast-check';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';
import { DISTRIBUTION_KEYS } from './support/seed-decoders';

let t: TestGateway;
let investorToken: string;
let demoInvestorId: number;

beforeAll(async () => {
  t = await startTestGateway();
  investorToken = await t.token(DEMO_EMAILS.investor);
  demoInvestorId = (await t.db.prisma.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.investor }, include: { investor: true } })).investor!.id;
});
afterAll(() => t.close());

const get = (url: string, token = investorToken) => t.http.get(url).set('authorization', `Bearer ${token}`).set('host', 'api.test');

describe('GET /api/v1/distributions', () => {
  it('answers the contract envelope with the investor’s own distributions, newest first', async () => {
    const res = await get('/api/v1/distributions');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['success', 'data', 'links', 'meta']);
    expect(res.body.success).toBe(true);
    const expected = await t.db.prisma.distribution.findMany({
      where: { investorId: demoInvestorId },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: 15,
      include: { unit: true },
    });
    expect(res.body.data.map((d: { id: number }) => d.id)).toEqual(expected.map((d) => d.id));
    const first = res.body.data[0];
    // The seed's field table, in its order (test/support/seed-decoders.ts).
    expect(Object.keys(first)).toEqual(DISTRIBUTION_KEYS);
    expect(first.unit_name).toBe(expected[0].unit.name);
    expect(first.gross_amount).toBe(Number(expected[0].grossAmount.toString()));
    expect(first.status).toBe(expected[0].status.toLowerCase());
    expect(first.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect(res.body.meta.total).toBe(await t.db.prisma.distribution.count({ where: { investorId: demoInvestorId } }));
  });

  it('writes money as JSON numbers taken digit for digit from the decimal', async () => {
    const res = await get('/api/v1/distributions?per_page=100');
    for (const row of res.body.data) {
      const db = await t.db.prisma.distribution.findUniqueOrThrow({ where: { id: row.id } });
      expect(row.net_amount).toBe(Number(db.netAmount.toFixed(2)));
      expect(db.grossAmount.minus(db.fees).equals(db.netAmount)).toBe(true);
    }
    expect(res.text).not.toMatch(/"gross_amount":"/);
  });

  it('builds links and meta from the request host and keeps filters in page URLs', async () => {
    const res = await get('/api/v1/distributions?status=distributed&per_page=5&page=2');
    const path = 'http://api.test/api/v1/distributions';
    expect(res.body.meta.path).toBe(path);
    expect(res.body.meta.per_page).toBe(5);
    expect(res.body.meta.current_page).toBe(2);
    expect(res.body.meta.from).toBe(6);
    expect(res.body.links.first).toBe(`${path}?status=distributed&per_page=5&page=1`);
    expect(res.body.links.prev).toBe(`${path}?status=distributed&per_page=5&page=1`);
    expect(res.body.data.every((d: { status: string }) => d.status === 'distributed')).toBe(true);
  });

  it('filters by status, type (the cadence), unit, period and distributed date range together', async () => {
    const sample = await t.db.prisma.distribution.findFirstOrThrow({ where: { investorId: demoInvestorId, status: 'DISTRIBUTED' } });
    const day = sample.distributedAt!.toISOString().slice(0, 10);
    const res = await get(
      `/api/v1/distributions?status=distributed&type=${sample.cadence.toLowerCase()}&unit_id=${sample.unitId}&period=${sample.period}&from=${day}&to=${day}`,
    );
    expect(res.status).toBe(200);
    const ids = res.body.data.map((d: { id: number }) => d.id);
    expect(ids).toContain(sample.id);
    expect(res.body.data.every((d: { type: string }) => d.type === sample.cadence.toLowerCase())).toBe(true);
    const dayStart = new Date(`${day}T00:00:00Z`);
    const expected = await t.db.prisma.distribution.count({
      where: {
        investorId: demoInvestorId,
        status: 'DISTRIBUTED',
        cadence: sample.cadence,
        unitId: sample.unitId,
        period: sample.period,
        distributedAt: { gte: dayStart, lt: new Date(dayStart.getTime() + 86_400_000) },
      },
    });
    expect(res.body.meta.total).toBe(expected);
  });

  it.each(['0', '-1', 'abc', '1.5', ''])('treats page=%p as page 1', async (page) => {
    const res = await get(`/api/v1/distributions?page=${page}`);
    expect(res.status).toBe(200);
    expect(res.body.meta.current_page).toBe(1);
  });

  it('counts an investor’s list in the page’s own statement: the same totals as a count, on every page and filter, empty ones included', async () => {
    const sample = await t.db.prisma.distribution.findFirstOrThrow({ where: { investorId: demoInvestorId, status: 'DISTRIBUTED' } });
    const cases: [string, Record<string, unknown>][] = [
      ['', {}],
      ['status=distributed', { status: 'DISTRIBUTED' }],
      [`unit_id=${sample.unitId}`, { unitId: sample.unitId }],
      [`period=${sample.period}`, { period: sample.period }],
      ['from=2000-01-01&to=2000-01-31', { distributedAt: { gte: new Date('2000-01-01T00:00:00Z'), lt: new Date('2000-02-01T00:00:00Z') } }],
    ];
    for (const [query, where] of cases) {
      const expected = await t.db.prisma.distribution.count({ where: { investorId: demoInvestorId, ...where } });
      // The first page, the last one, and one past the end (which reads no row to carry the total).
      for (const page of [1, Math.max(Math.ceil(expected / 15), 1), Math.ceil(expected / 15) + 2]) {
        const res = await get(`/api/v1/distributions?${query}${query ? '&' : ''}page=${page}`);
        expect(res.status).toBe(200);
        expect({ query, page, total: res.body.meta.total }).toEqual({ query, page, total: expected });
      }
    }
  });

  it('any page (a GraphQL Int) of any status filter, however far past the end, answers the same total as a count (fast-check)', async () => {
    const statuses = ['PENDING', 'APPROVED', 'DISTRIBUTED', 'CANCELLED'] as const;
    const totals = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.option(fc.constantFrom(...statuses), { nil: undefined }),
        fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 2 ** 31 - 1 })),
        async (status, page) => {
          const key = status ?? '';
          if (!totals.has(key)) totals.set(key, await t.db.prisma.distribution.count({ where: { investorId: demoInvestorId, ...(status && { status }) } }));
          const res = await get(`/api/v1/distributions?${status ? `status=${status.toLowerCase()}&` : ''}page=${page}`);
          expect(res.status).toBe(200);
          expect(res.body.meta.total).toBe(totals.get(key));
          expect(res.body.data).toHaveLength(Math.max(Math.min(15, (totals.get(key) ?? 0) - (page - 1) * 15), 0));
        },
      ),
      { numRuns: 40, interruptAfterTimeLimit: 20_000, markInterruptAsFailure: false },
    );
  });

  it('answers a page past the end with empty data and the real last page', async () => {
    const res = await get('/api/v1/distributions?page=9999');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta.from).toBeNull();
    expect(res.body.meta.to).toBeNull();
    expect(res.body.meta.last_page).toBe(Math.ceil(res.body.meta.total / 15));
    expect(res.body.meta.current_page).toBe(9999);
  });

  it.each(['0', '101', 'abc', '2.5'])('rejects per_page=%p with 422 and errors.per_page', async (perPage) => {
    const res = await get(`/api/v1/distributions?per_page=${perPage}`);
    expect(res.status).toBe(422);
    expect(res.body.success).toBe(false);
    expect(res.body.errors).toHaveProperty('per_page');
    expect(res.body.message).toBe(res.body.errors.per_page[0]);
  });

  it('rejects bad filters with one 422 naming each field', async () => {
    const res = await get('/api/v1/distributions?status=paid&period=2026-Q5&from=yesterday');
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['from', 'status']);
    expect(res.body.message).toMatch(/\(and 1 more error\)$/);
    const period = await get('/api/v1/distributions?period=2026-Q5');
    expect(period.status).toBe(422);
    expect(period.body.errors).toHaveProperty('period');
  });

  it('shows the Laravel link window when there are 14 or more pages', async () => {
    const res = await get('/api/v1/distributions?per_page=1&page=8');
    expect(res.body.meta.last_page).toBeGreaterThanOrEqual(14);
    const labels = res.body.meta.links.map((l: { label: string }) => l.label);
    expect(labels.filter((l: string) => l === '...')).toHaveLength(2);
    expect(res.body.meta.links.find((l: { active: boolean }) => l.active).label).toBe('8');
  });

  it('requires a bearer token', async () => {
    const res = await t.http.get('/api/v1/distributions');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, message: 'Unauthenticated.' });
  });
});

describe('GET /api/v1/distributions/{id}', () => {
  it('answers one distribution', async () => {
    const own = await t.db.prisma.distribution.findFirstOrThrow({ where: { investorId: demoInvestorId } });
    const res = await get(`/api/v1/distributions/${own.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['success', 'data']);
    expect(res.body.data.id).toBe(own.id);
  });

  it('answers 404 for another investor’s distribution and for a missing id', async () => {
    const other = await t.db.prisma.distribution.findFirstOrThrow({ where: { investorId: { not: demoInvestorId } } });
    for (const id of [other.id, 99999999, 'abc']) {
      const res = await get(`/api/v1/distributions/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, message: 'Resource not found.' });
    }
  });

  it('lets staff read any investor’s distribution', async () => {
    const other = await t.db.prisma.distribution.findFirstOrThrow({ where: { investorId: { not: demoInvestorId } } });
    const res = await get(`/api/v1/distributions/${other.id}`, await t.token(DEMO_EMAILS.analyst));
    expect(res.status).toBe(200);
  });
});

describe('GraphQL distributions', () => {
  const QUERY = `query($page: Int, $perPage: Int, $filter: DistributionFilter) {
    distributions(page: $page, perPage: $perPage, filter: $filter) {
      items { id unitId unitName period type grossAmount netAmount fees status distributedAt createdAt }
      pageInfo { currentPage perPage total lastPage from to hasNextPage hasPreviousPage }
    }
  }`;

  it('serves the same page as REST, with Decimal strings', async () => {
    const [rest, gql] = await Promise.all([get('/api/v1/distributions?per_page=5&page=2'), t.gql(QUERY, { page: 2, perPage: 5 }, investorToken)]);
    const page = (gql.data as { distributions: { items: Array<{ id: number; grossAmount: string }>; pageInfo: Record<string, unknown> } }).distributions;
    expect(page.items.map((i) => i.id)).toEqual(rest.body.data.map((d: { id: number }) => d.id));
    expect(page.items[0].grossAmount).toMatch(/^\d+\.\d{2}$/);
    expect(page.pageInfo).toEqual({
      currentPage: 2,
      perPage: 5,
      total: rest.body.meta.total,
      lastPage: rest.body.meta.last_page,
      from: 6,
      to: 10,
      hasNextPage: true,
      hasPreviousPage: true,
    });
  });

  it('answers BAD_USER_INPUT with per-field details for perPage out of range', async () => {
    const res = await t.gql(QUERY, { perPage: 500 }, investorToken);
    expect(res.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { perPage: [expect.any(String)] } });
  });

  it('answers NOT_FOUND for another investor’s distribution and UNAUTHENTICATED without a token', async () => {
    const other = await t.db.prisma.distribution.findFirstOrThrow({ where: { investorId: { not: demoInvestorId } } });
    const res = await t.gql(`query($id: Int!) { distribution(id: $id) { id } }`, { id: other.id }, investorToken);
    expect(res.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const anon = await t.gql(`{ distributions { items { id } } }`);
    expect(anon.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });
});
