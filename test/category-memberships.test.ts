import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

let t: TestGateway;
let investorToken: string;
let adminToken: string;
let analystToken: string;
let demoInvestorId: number;

beforeAll(async () => {
  t = await startTestGateway();
  [investorToken, adminToken, analystToken] = await Promise.all([t.token(DEMO_EMAILS.investor), t.token(DEMO_EMAILS.admin), t.token(DEMO_EMAILS.analyst)]);
  demoInvestorId = (await t.db.prisma.investor.findFirstOrThrow({ where: { user: { email: DEMO_EMAILS.investor } } })).id;
});
afterAll(() => t.close());

const BASE = '/api/v1/category-memberships';
const get = (url: string, token = investorToken) => t.http.get(url).set('authorization', `Bearer ${token}`);
const post = (body: object, token = investorToken) => t.http.post(BASE).set('authorization', `Bearer ${token}`).send(body);
const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id);
const NEWEST = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

let counter = 0;
function makeCategory(isActive = true) {
  counter++;
  return t.db.prisma.category.create({
    data: { name: `Club ${counter}`, slug: `club-${counter}`, description: 'x', icon: 'star', color: '#00838F', isActive },
  });
}

const memberships = () => t.db.prisma.categoryMembership.findMany({ orderBy: { id: 'asc' } });

describe('GET /api/v1/category-memberships', () => {
  it('answers the investor’s own memberships, newest first, as a plain array', async () => {
    const res = await get(BASE);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['success', 'data']);
    const own = await t.db.prisma.categoryMembership.findMany({ where: { investorId: demoInvestorId }, orderBy: NEWEST, include: { category: true } });
    expect(own.length).toBeGreaterThan(0);
    expect(ids(res.body.data)).toEqual(ids(own));
    expect(Object.keys(res.body.data[0])).toEqual(['id', 'category', 'status', 'created_at']);
    expect(res.body.data[0]).toEqual({
      id: own[0].id,
      category: { id: own[0].category.id, name: own[0].category.name, slug: own[0].category.slug },
      status: own[0].status.toLowerCase(),
      created_at: own[0].createdAt.toISOString().slice(0, 19) + '+00:00',
    });
  });

  it('lets staff read everyone’s memberships, and filter them', async () => {
    const all = await get(BASE, analystToken);
    expect(ids(all.body.data)).toEqual(ids(await t.db.prisma.categoryMembership.findMany({ orderBy: NEWEST })));
    const other = await t.db.prisma.categoryMembership.findFirstOrThrow({ where: { investorId: { not: demoInvestorId } } });
    const filtered = await get(`${BASE}?investor_id=${other.investorId}&status=${other.status.toLowerCase()}`, adminToken);
    expect(ids(filtered.body.data)).toEqual(
      ids(await t.db.prisma.categoryMembership.findMany({ where: { investorId: other.investorId, status: other.status }, orderBy: NEWEST })),
    );
    // An investor's investor_id filter cannot widen the scope.
    const mine = await get(`${BASE}?investor_id=${other.investorId}`);
    expect(mine.body.data.every((m: { id: number }) => m.id !== other.id)).toBe(true);
  });

  it('answers 422 for a bad filter and 401 without a token', async () => {
    expect((await get(`${BASE}?status=paused`)).body.errors).toHaveProperty('status');
    for (const url of [BASE, `${BASE}/available-categories`, `${BASE}/1`]) {
      const res = await t.http.get(url);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, message: 'Unauthenticated.' });
    }
    expect((await t.http.post(BASE).send({ category_id: 1 })).status).toBe(401);
  });
});

describe('POST /api/v1/category-memberships', () => {
  it('joins an active category (201) and takes it off the available list', async () => {
    const category = await makeCategory();
    const res = await post({ category_id: category.id });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ category: { id: category.id, name: category.name, slug: category.slug }, status: 'active' });
    const row = await t.db.prisma.categoryMembership.findUniqueOrThrow({ where: { id: res.body.data.id } });
    expect(row).toMatchObject({ investorId: demoInvestorId, categoryId: category.id, status: 'ACTIVE' });
    const available = await get(`${BASE}/available-categories`);
    expect(ids(available.body.data)).not.toContain(category.id);
  });

  it('answers 409 when already an ACTIVE member, writing nothing', async () => {
    const category = await makeCategory();
    await post({ category_id: category.id });
    const before = await memberships();
    const res = await post({ category_id: category.id });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ success: false, message: 'You are already a member of this category.' });
    expect(await memberships()).toEqual(before);
  });

  it('reactivates a CANCELLED membership (same row)', async () => {
    const category = await makeCategory();
    const first = await post({ category_id: category.id });
    await t.db.prisma.categoryMembership.update({ where: { id: first.body.data.id }, data: { status: 'CANCELLED' } });
    expect(ids((await get(`${BASE}/available-categories`)).body.data)).toContain(category.id);
    const res = await post({ category_id: category.id });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ id: first.body.data.id, status: 'active' });
    expect(await t.db.prisma.categoryMembership.count({ where: { categoryId: category.id } })).toBe(1);
  });

  it('lets only one of two concurrent joins through', async () => {
    const category = await makeCategory();
    const results = await Promise.all([post({ category_id: category.id }), post({ category_id: category.id })]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await t.db.prisma.categoryMembership.count({ where: { categoryId: category.id } })).toBe(1);
  });

  it('answers 422 for a missing, malformed, unknown or inactive category, writing nothing', async () => {
    const inactive = await makeCategory(false);
    const before = await memberships();
    const missing = await post({});
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({
      success: false,
      message: 'The category id field is required.',
      errors: { category_id: ['The category id field is required.'] },
    });
    expect((await post({ category_id: 'abc' })).body.errors).toEqual({ category_id: ['The category id field must be an integer.'] });
    expect((await post({ category_id: 0 })).body.errors).toHaveProperty('category_id');
    for (const id of [inactive.id, 99999999]) {
      const res = await post({ category_id: id });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ category_id: ['The selected category id is invalid.'] });
    }
    expect(await memberships()).toEqual(before);
  });

  it('is for investors only: staff get 403', async () => {
    const category = await makeCategory();
    for (const token of [adminToken, analystToken]) {
      const res = await post({ category_id: category.id }, token);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ success: false, message: 'This action is unauthorized.' });
    }
    expect(await t.db.prisma.categoryMembership.count({ where: { categoryId: category.id } })).toBe(0);
  });
});

describe('GET /api/v1/category-memberships/available-categories', () => {
  it('lists the active categories the investor is not an active member of', async () => {
    const inactive = await makeCategory(false);
    const res = await get(`${BASE}/available-categories`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['success', 'data']);
    const expected = await t.db.prisma.category.findMany({
      where: { isActive: true, memberships: { none: { investorId: demoInvestorId, status: 'ACTIVE' } } },
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
    });
    expect(ids(res.body.data)).toEqual(ids(expected));
    expect(ids(res.body.data)).not.toContain(inactive.id);
    expect(Object.keys(res.body.data[0])).toEqual([
      'id',
      'name',
      'slug',
      'description',
      'icon',
      'color',
      'is_featured',
      'units_count',
      'created_at',
      'updated_at',
    ]);
  });

  it('is for investors only', async () => {
    expect((await get(`${BASE}/available-categories`, analystToken)).status).toBe(403);
  });
});

describe('GET /api/v1/category-memberships/{id}', () => {
  it('answers the investor’s own membership', async () => {
    const own = await t.db.prisma.categoryMembership.findFirstOrThrow({ where: { investorId: demoInvestorId } });
    const res = await get(`${BASE}/${own.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(own.id);
  });

  it('answers 404 for another investor’s membership, a missing and a non-numeric id', async () => {
    const other = await t.db.prisma.categoryMembership.findFirstOrThrow({ where: { investorId: { not: demoInvestorId } } });
    for (const id of [other.id, 99999999, 'abc']) {
      const res = await get(`${BASE}/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, message: 'Resource not found.' });
    }
    expect((await get(`${BASE}/${other.id}`, analystToken)).status).toBe(200);
  });
});

describe('GraphQL category memberships', () => {
  it('joins through createCategoryMembership and reads through the queries', async () => {
    const category = await makeCategory();
    const created = await t.gql<{ createCategoryMembership: { id: number; status: string } }>(
      `mutation($c: Int!) { createCategoryMembership(categoryId: $c) { id status investorId category { id } } }`,
      { c: category.id },
      investorToken,
    );
    expect(created.errors).toBeUndefined();
    expect(created.data!.createCategoryMembership).toMatchObject({ status: 'ACTIVE', investorId: demoInvestorId, category: { id: category.id } });
    const id = created.data!.createCategoryMembership.id;
    const read = await t.gql<{ categoryMemberships: Array<{ id: number }>; categoryMembership: { id: number }; availableCategories: Array<{ id: number }> }>(
      `query($id: Int!) { categoryMemberships { id } categoryMembership(id: $id) { id } availableCategories { id } }`,
      { id },
      investorToken,
    );
    expect(read.data!.categoryMemberships[0].id).toBe(id);
    expect(read.data!.categoryMembership.id).toBe(id);
    expect(ids(read.data!.availableCategories)).not.toContain(category.id);
  });

  it('answers CONFLICT, BAD_USER_INPUT, FORBIDDEN and NOT_FOUND codes', async () => {
    const category = await makeCategory();
    const join = `mutation($c: Int!) { createCategoryMembership(categoryId: $c) { id } }`;
    await t.gql(join, { c: category.id }, investorToken);
    expect((await t.gql(join, { c: category.id }, investorToken)).errors?.[0].extensions?.code).toBe('CONFLICT');
    expect((await t.gql(join, { c: 0 }, investorToken)).errors?.[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      fields: { categoryId: [expect.any(String)] },
    });
    expect((await t.gql(join, { c: category.id }, adminToken)).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const other = await t.db.prisma.categoryMembership.findFirstOrThrow({ where: { investorId: { not: demoInvestorId } } });
    expect((await t.gql(`query($id: Int!) { categoryMembership(id: $id) { id } }`, { id: other.id }, investorToken)).errors?.[0].extensions?.code).toBe(
      'NOT_FOUND',
    );
  });
});
