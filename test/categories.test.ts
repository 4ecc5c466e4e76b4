import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

let t: TestGateway;
let investorToken: string;
let adminToken: string;
let analystToken: string;

beforeAll(async () => {
  t = await startTestGateway();
  [investorToken, adminToken, analystToken] = await Promise.all([t.token(DEMO_EMAILS.investor), t.token(DEMO_EMAILS.admin), t.token(DEMO_EMAILS.analyst)]);
});
afterAll(() => t.close());

const get = (url: string, token = investorToken) => t.http.get(url).set('authorization', `Bearer ${token}`);

const FIELDS = ['id', 'name', 'slug', 'description', 'icon', 'color', 'is_featured', 'units_count', 'created_at', 'updated_at'];
const CATEGORY = `id name slug description icon color isFeatured isActive unitsCount createdAt updatedAt`;
const CREATE = `mutation($input: CreateCategoryInput!) { createCategory(input: $input) { ${CATEGORY} } }`;
const UPDATE = `mutation($id: Int!, $input: UpdateCategoryInput!) { updateCategory(id: $id, input: $input) { ${CATEGORY} } }`;

let counter = 0;
/** A category written straight to the database (e.g. an inactive one). */
function makeCategory(data: { isActive?: boolean; isFeatured?: boolean } = {}) {
  const n = ++counter;
  return t.db.prisma.category.create({
    data: { name: `Test Category ${n}`, slug: `test-category-${n}`, description: 'For tests.', icon: 'star', color: '#00838F', ...data },
  });
}

const availableUnits = (categoryId: number) => t.db.prisma.unit.count({ where: { categoryId, status: 'AVAILABLE' } });

describe('GET /api/v1/categories', () => {
  it('answers the active categories, alphabetical, as a plain array with units_count of AVAILABLE units', async () => {
    const inactive = await makeCategory({ isActive: false });
    const res = await get('/api/v1/categories');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['success', 'data']);
    const expected = await t.db.prisma.category.findMany({ where: { isActive: true }, orderBy: [{ name: 'asc' }, { id: 'asc' }] });
    expect(res.body.data.map((c: { id: number }) => c.id)).toEqual(expected.map((c) => c.id));
    expect(res.body.data.map((c: { id: number }) => c.id)).not.toContain(inactive.id);
    for (const c of res.body.data) {
      expect(Object.keys(c)).toEqual(FIELDS);
      expect(c.units_count).toBe(await availableUnits(c.id));
    }
    const first = expected[0];
    expect(res.body.data[0]).toMatchObject({
      name: first.name,
      slug: first.slug,
      is_featured: first.isFeatured,
      created_at: first.createdAt.toISOString().slice(0, 19) + '+00:00',
    });
    // Not every unit counts: the seed has FUNDED, CLOSED and DRAFT units too.
    const counted = res.body.data.reduce((n: number, c: { units_count: number }) => n + c.units_count, 0);
    expect(counted).toBeLessThan(await t.db.prisma.unit.count());
  });

  it('requires a bearer token', async () => {
    for (const url of ['/api/v1/categories', '/api/v1/categories/1']) {
      const res = await t.http.get(url);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, message: 'Unauthenticated.' });
    }
  });
});

describe('GET /api/v1/categories/{id}', () => {
  it('answers one active category', async () => {
    const category = await t.db.prisma.category.findFirstOrThrow({ where: { isActive: true }, orderBy: { id: 'asc' } });
    const res = await get(`/api/v1/categories/${category.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(FIELDS);
    expect(res.body.data).toMatchObject({ id: category.id, name: category.name, units_count: await availableUnits(category.id) });
  });

  it('answers 404 for an inactive category (investors), a missing id and a non-numeric id', async () => {
    const inactive = await makeCategory({ isActive: false });
    for (const id of [inactive.id, 99999999, 'abc']) {
      const res = await get(`/api/v1/categories/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, message: 'Resource not found.' });
    }
  });

  it('lets staff read an inactive category', async () => {
    const inactive = await makeCategory({ isActive: false });
    const res = await get(`/api/v1/categories/${inactive.id}`, analystToken);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(inactive.id);
  });
});

describe('GraphQL categories', () => {
  it('serves the same list as REST; includeInactive works for staff only', async () => {
    const inactive = await makeCategory({ isActive: false });
    const query = `query($all: Boolean) { categories(includeInactive: $all) { id isActive unitsCount } }`;
    const [rest, mine, staff] = await Promise.all([
      get('/api/v1/categories'),
      t.gql<{ categories: Array<{ id: number; isActive: boolean }> }>(query, { all: true }, investorToken),
      t.gql<{ categories: Array<{ id: number }> }>(query, { all: true }, adminToken),
    ]);
    expect(mine.data!.categories.map((c) => c.id)).toEqual(rest.body.data.map((c: { id: number }) => c.id));
    expect(mine.data!.categories.every((c) => c.isActive)).toBe(true);
    expect(staff.data!.categories.map((c) => c.id)).toContain(inactive.id);
    expect(staff.data!.categories).toHaveLength(await t.db.prisma.category.count());
  });

  it('answers NOT_FOUND and UNAUTHENTICATED codes', async () => {
    const res = await t.gql(`{ category(id: 99999999) { id } }`, {}, investorToken);
    expect(res.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const anon = await t.gql(`{ categories { id } }`);
    expect(anon.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('createCategory (admin)', () => {
  const input = (n: string) => ({
    name: `Infrastructure ${n}`,
    slug: `infrastructure-${n}`,
    description: 'Toll roads and bridges.',
    icon: 'briefcase',
    color: '#37474f',
    isFeatured: true,
  });

  it('creates an active category with no units', async () => {
    const res = await t.gql<{ createCategory: Record<string, unknown> }>(CREATE, { input: input('a') }, adminToken);
    expect(res.errors).toBeUndefined();
    expect(res.data!.createCategory).toMatchObject({
      name: 'Infrastructure a',
      slug: 'infrastructure-a',
      color: '#37474F',
      isFeatured: true,
      isActive: true,
      unitsCount: 0,
    });
    const list = await get('/api/v1/categories');
    expect(list.body.data.map((c: { slug: string }) => c.slug)).toContain('infrastructure-a');
  });

  it('answers 422 for a taken name and slug, and for bad fields, writing nothing', async () => {
    const existing = await t.db.prisma.category.findFirstOrThrow();
    const before = await t.db.prisma.category.count();
    const taken = await t.gql(CREATE, { input: { ...input('b'), name: existing.name, slug: existing.slug } }, adminToken);
    expect(taken.errors?.[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      fields: { name: ['The name has already been taken.'], slug: ['The slug has already been taken.'] },
    });
    const bad = await t.gql(CREATE, { input: { ...input('c'), name: '', slug: 'Not A Slug', color: 'green', icon: '' } }, adminToken);
    expect(bad.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(Object.keys(bad.errors?.[0].extensions?.fields as object).sort()).toEqual(['color', 'icon', 'name', 'slug']);
    const blank = await t.gql(CREATE, { input: { ...input('d'), name: '   ' } }, adminToken);
    expect(blank.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { name: ['The name field is required.'] } });
    expect(await t.db.prisma.category.count()).toBe(before);
  });

  it('is refused to investors and analysts (FORBIDDEN), and to guests (UNAUTHENTICATED)', async () => {
    const before = await t.db.prisma.category.count();
    for (const token of [investorToken, analystToken]) {
      const res = await t.gql(CREATE, { input: input('e') }, token);
      expect(res.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    }
    expect((await t.gql(CREATE, { input: input('e') })).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect(await t.db.prisma.category.count()).toBe(before);
  });
});

describe('updateCategory (admin)', () => {
  it('changes only the fields given', async () => {
    const category = await makeCategory();
    const res = await t.gql<{ updateCategory: Record<string, unknown> }>(
      UPDATE,
      { id: category.id, input: { description: 'Updated.', isFeatured: true } },
      adminToken,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data!.updateCategory).toMatchObject({
      id: category.id,
      name: category.name,
      slug: category.slug,
      description: 'Updated.',
      isFeatured: true,
      isActive: true,
    });
  });

  it('deactivates a category: hidden from investors, kept for staff', async () => {
    const category = await makeCategory();
    const res = await t.gql(UPDATE, { id: category.id, input: { isActive: false } }, adminToken);
    expect(res.errors).toBeUndefined();
    expect((await get(`/api/v1/categories/${category.id}`)).status).toBe(404);
    expect((await get('/api/v1/categories')).body.data.map((c: { id: number }) => c.id)).not.toContain(category.id);
    expect((await get(`/api/v1/categories/${category.id}`, adminToken)).status).toBe(200);
    const back = await t.gql<{ updateCategory: { isActive: boolean } }>(UPDATE, { id: category.id, input: { isActive: true } }, adminToken);
    expect(back.data!.updateCategory.isActive).toBe(true);
  });

  it('answers 422 for a slug taken by another category (its own is fine), NOT_FOUND for a missing id', async () => {
    const [a, b] = [await makeCategory(), await makeCategory()];
    const taken = await t.gql(UPDATE, { id: a.id, input: { slug: b.slug } }, adminToken);
    expect(taken.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { slug: ['The slug has already been taken.'] } });
    expect((await t.db.prisma.category.findUniqueOrThrow({ where: { id: a.id } })).slug).toBe(a.slug);
    const same = await t.gql(UPDATE, { id: a.id, input: { slug: a.slug, name: a.name } }, adminToken);
    expect(same.errors).toBeUndefined();
    const missing = await t.gql(UPDATE, { id: 99999999, input: { name: 'Nope' } }, adminToken);
    expect(missing.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it('is refused to investors and analysts, changing nothing', async () => {
    const category = await makeCategory();
    for (const token of [investorToken, analystToken]) {
      const res = await t.gql(UPDATE, { id: category.id, input: { name: 'Hijacked' } }, token);
      expect(res.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    }
    expect((await t.db.prisma.category.findUniqueOrThrow({ where: { id: category.id } })).name).toBe(category.name);
  });
});
