import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

let t: TestGateway;

beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t.close());

const guest = (url: string) => t.http.get(url).set('host', 'api.test');
const ids = (res: { body: { data: Array<{ id: number }> } }) => res.body.data.map((u) => u.id);

const UNIT_FIELDS = [
  'id',
  'code',
  'name',
  'description',
  'location',
  'category',
  'status',
  'total_value',
  'available_percentage',
  'min_investment',
  'expected_return',
  'current_value',
  'image_url',
  'listed_at',
  'created_at',
  'updated_at',
];
const CATEGORY_FIELDS = ['id', 'name', 'slug', 'description', 'icon', 'color', 'is_featured', 'units_count', 'created_at', 'updated_at'];
const PUBLIC = { status: { in: ['AVAILABLE' as const, 'FUNDED' as const] } };
const NEWEST = [{ listedAt: 'desc' as const }, { id: 'desc' as const }];

describe('GET /api/v1/public/units', () => {
  it('lists AVAILABLE and FUNDED units to guests, newest listed first, public fields only', async () => {
    const res = await guest('/api/v1/public/units?per_page=100');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['success', 'data', 'links', 'meta']);
    const expected = await t.db.prisma.unit.findMany({ where: PUBLIC, orderBy: NEWEST });
    expect(ids(res)).toEqual(expected.map((u) => u.id));
    expect(new Set(res.body.data.map((u: { status: string }) => u.status))).toEqual(new Set(['available', 'funded']));
    for (const u of res.body.data) {
      expect(Object.keys(u)).toEqual(UNIT_FIELDS);
      expect(Object.keys(u.category)).toEqual(['id', 'name']);
    }
    expect(res.body.meta.path).toBe('http://api.test/api/v1/public/units');
    expect(res.text).not.toMatch(/holding|investor/i);
  });

  it('exposes nothing private to an investor calling it with a token', async () => {
    const token = await t.token(DEMO_EMAILS.investor);
    const res = await guest('/api/v1/public/units?per_page=100').set('authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.body.data.every((u: object) => !('my_holding' in u))).toBe(true);
    // A bad token does not turn a public route into a 401.
    expect((await guest('/api/v1/public/units').set('authorization', 'Bearer nonsense')).status).toBe(200);
  });

  it('filters like /units but never shows DRAFT or CLOSED units', async () => {
    const sample = await t.db.prisma.unit.findFirstOrThrow({ where: { status: 'FUNDED' } });
    const funded = await guest(`/api/v1/public/units?status=funded&category_id=${sample.categoryId}`);
    expect(ids(funded)).toEqual(
      (await t.db.prisma.unit.findMany({ where: { status: 'FUNDED', categoryId: sample.categoryId }, orderBy: NEWEST })).map((u) => u.id),
    );
    for (const status of ['draft', 'closed']) {
      const res = await guest(`/api/v1/public/units?status=${status}`);
      expect(res.status).toBe(200);
      expect(res.body.meta.total).toBe(0);
    }
    const search = await guest(`/api/v1/public/units?q=${sample.code}`);
    expect(ids(search)).toEqual([sample.id]);
  });

  it('answers 422 for a bad per_page or filter', async () => {
    const res = await guest('/api/v1/public/units?per_page=0&status=sold');
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['status']);
    expect((await guest('/api/v1/public/units?per_page=500')).body.errors).toHaveProperty('per_page');
  });
});

describe('GET /api/v1/public/units/{id}', () => {
  it('answers any unit but a DRAFT, public fields only', async () => {
    for (const status of ['AVAILABLE', 'FUNDED', 'CLOSED'] as const) {
      const unit = await t.db.prisma.unit.findFirstOrThrow({ where: { status } });
      const res = await guest(`/api/v1/public/units/${unit.id}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.data)).toEqual(UNIT_FIELDS);
      expect(res.body.data).toMatchObject({ id: unit.id, code: unit.code, status: status.toLowerCase() });
    }
  });

  it('answers 404 for a DRAFT, a missing and a non-numeric id', async () => {
    const draft = await t.db.prisma.unit.findFirstOrThrow({ where: { status: 'DRAFT' } });
    for (const id of [draft.id, 99999999, 'abc']) {
      const res = await guest(`/api/v1/public/units/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, message: 'Resource not found.' });
    }
  });
});

describe('GET /api/v1/public/categories and /{id}', () => {
  it('lists the active categories to guests, without is_active', async () => {
    const inactive = await t.db.prisma.category.create({
      data: { name: 'Hidden', slug: 'hidden', description: 'x', icon: 'star', color: '#00838F', isActive: false },
    });
    const res = await guest('/api/v1/public/categories');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['success', 'data']);
    const expected = await t.db.prisma.category.findMany({ where: { isActive: true }, orderBy: [{ name: 'asc' }, { id: 'asc' }] });
    expect(ids(res)).toEqual(expected.map((c) => c.id));
    for (const c of res.body.data) {
      expect(Object.keys(c)).toEqual(CATEGORY_FIELDS);
      expect(c.units_count).toBe(await t.db.prisma.unit.count({ where: { categoryId: c.id, status: 'AVAILABLE' } }));
    }
    expect((await guest(`/api/v1/public/categories/${inactive.id}`)).status).toBe(404);
  });

  it('answers one active category; 404 for a missing or non-numeric id', async () => {
    const category = await t.db.prisma.category.findFirstOrThrow({ where: { isActive: true } });
    const res = await guest(`/api/v1/public/categories/${category.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(CATEGORY_FIELDS);
    expect(res.body.data.slug).toBe(category.slug);
    for (const id of [99999999, 'abc']) expect((await guest(`/api/v1/public/categories/${id}`)).status).toBe(404);
  });
});

describe('GraphQL public fields', () => {
  it('serves publicUnits, publicUnit, publicCategories and publicCategory without a token', async () => {
    const res = await t.gql<{ publicUnits: { items: Array<{ id: number }>; pageInfo: { total: number } }; publicCategories: Array<{ id: number }> }>(
      `{ publicUnits(perPage: 100) { items { id status currentValue } pageInfo { total } } publicCategories { id unitsCount } }`,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data!.publicUnits.pageInfo.total).toBe(await t.db.prisma.unit.count({ where: PUBLIC }));
    expect(res.data!.publicCategories).toHaveLength(await t.db.prisma.category.count({ where: { isActive: true } }));
    const [unit, category] = [res.data!.publicUnits.items[0], res.data!.publicCategories[0]];
    const one = await t.gql<{ publicUnit: { id: number }; publicCategory: { id: number } }>(
      `query($u: Int!, $c: Int!) { publicUnit(id: $u) { id } publicCategory(id: $c) { id } }`,
      { u: unit.id, c: category.id },
    );
    expect(one.data).toEqual({ publicUnit: { id: unit.id }, publicCategory: { id: category.id } });
    const draft = await t.db.prisma.unit.findFirstOrThrow({ where: { status: 'DRAFT' } });
    expect((await t.gql(`query($id: Int!) { publicUnit(id: $id) { id } }`, { id: draft.id })).errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it('has public types with no private field to reach', async () => {
    const res = await t.gql<{ unit: { fields: Array<{ name: string }> }; category: { fields: Array<{ name: string }> } }>(
      `{ unit: __type(name: "PublicUnit") { fields { name } } category: __type(name: "PublicCategory") { fields { name } } }`,
    );
    const unitFields = res.data!.unit.fields.map((f) => f.name);
    expect(unitFields).not.toContain('myHolding');
    expect(unitFields.filter((f) => /investor|holding/i.test(f))).toEqual([]);
    expect(res.data!.category.fields.map((f) => f.name)).not.toContain('isActive');
    const asking = await t.gql(`{ publicUnits { items { id myHolding { investedAmount } } } }`);
    expect(asking.errors?.[0].message).toMatch(/Cannot query field "myHolding" on type "PublicUnit"/);
  });
});
