import type { UnitStatus } from '../src/generated/prisma/enums';
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

const get = (url: string, token = investorToken) => t.http.get(url).set('authorization', `Bearer ${token}`).set('host', 'api.test');
const num = (d: { toString(): string }) => Number(d.toString());
const ids = (res: { body: { data: Array<{ id: number }> } }) => res.body.data.map((u) => u.id);

const FIELDS = [
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
  'my_holding',
];
const NEWEST = [{ listedAt: 'desc' as const }, { id: 'desc' as const }];

/** The latest valuation, or the total value when there is none. */
async function currentValue(unitId: number) {
  const unit = await t.db.prisma.unit.findUniqueOrThrow({ where: { id: unitId }, include: { valuations: { orderBy: { valuedAt: 'desc' }, take: 1 } } });
  return unit.valuations[0]?.value ?? unit.totalValue;
}

const UNIT = `id code name status totalValue availablePercentage minInvestment currentValue listedAt category { id name } myHolding { ownershipPercentage investedAmount }`;
const CREATE = `mutation($input: CreateUnitInput!) { createUnit(input: $input) { ${UNIT} } }`;
const UPDATE = `mutation($id: Int!, $input: UpdateUnitInput!) { updateUnit(id: $id, input: $input) { ${UNIT} } }`;
const VALUATION = `mutation($unitId: Int!, $value: Decimal!, $valuedAt: DateTime!) { recordUnitValuation(unitId: $unitId, value: $value, valuedAt: $valuedAt) { id unitId value valuedAt } }`;

let counter = 0;
async function unitInput(overrides: Record<string, unknown> = {}) {
  const category = await t.db.prisma.category.findFirstOrThrow({ where: { isActive: true }, orderBy: { id: 'asc' } });
  counter++;
  return {
    code: `TST-${counter}`,
    name: `Test Unit ${counter}`,
    description: 'A test unit.',
    location: 'Lisbon, Portugal',
    categoryId: category.id,
    totalValue: '500000',
    minInvestment: '500',
    expectedReturn: '5.5',
    ...overrides,
  };
}

/** A unit written straight to the database in the given status (no notifications). */
async function makeUnit(status: UnitStatus) {
  const input = await unitInput();
  return t.db.prisma.unit.create({ data: { ...input, status, availablePercentage: '100' } });
}

describe('GET /api/v1/units', () => {
  it('lists AVAILABLE units by default, newest listed first, with the paginated envelope', async () => {
    const res = await get('/api/v1/units');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['success', 'data', 'links', 'meta']);
    const expected = await t.db.prisma.unit.findMany({ where: { status: 'AVAILABLE' }, orderBy: NEWEST, take: 15 });
    expect(ids(res)).toEqual(expected.map((u) => u.id));
    expect(res.body.meta.total).toBe(await t.db.prisma.unit.count({ where: { status: 'AVAILABLE' } }));
    expect(res.body.meta.path).toBe('http://api.test/api/v1/units');
    const first = res.body.data[0];
    expect(Object.keys(first)).toEqual(FIELDS);
    expect(Object.keys(first.category)).toEqual(['id', 'name']);
    expect(first).toMatchObject({
      code: expected[0].code,
      status: 'available',
      total_value: num(expected[0].totalValue),
      min_investment: num(expected[0].minInvestment),
    });
    expect(first.listed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
  });

  it('gives current_value from the latest valuation and my_holding from the investor’s own holding', async () => {
    const res = await get('/api/v1/units?per_page=100');
    const held = await t.db.prisma.holding.findMany({ where: { investorId: demoInvestorId, ownershipPercentage: { gt: 0 } } });
    const byUnit = new Map(held.map((h) => [h.unitId, h]));
    let seen = 0;
    for (const u of res.body.data) {
      expect(u.current_value).toBe(num(await currentValue(u.id)));
      const h = byUnit.get(u.id);
      if (h) seen++;
      expect(u.my_holding).toEqual(h ? { ownership_percentage: num(h.ownershipPercentage), invested_amount: num(h.investedAmount) } : null);
    }
    expect(seen).toBeGreaterThan(0);
    // Staff hold nothing: my_holding is null everywhere.
    const staff = await get('/api/v1/units?per_page=100', analystToken);
    expect(staff.body.data.every((u: { my_holding: unknown }) => u.my_holding === null)).toBe(true);
  });

  it('reads holdings with one query per page, however long the page (no N+1)', async () => {
    const count = async (perPage: number) => {
      const before = t.db.queryCount();
      await get(`/api/v1/units?per_page=${perPage}`);
      return t.db.queryCount() - before;
    };
    const small = await count(2);
    expect(await count(30)).toBe(small);
  });

  it('filters by category, status, min investment range and a search on name, code and location', async () => {
    const sample = await t.db.prisma.unit.findFirstOrThrow({ where: { status: 'AVAILABLE' }, orderBy: { id: 'asc' } });
    const byCategory = await get(`/api/v1/units?category_id=${sample.categoryId}&per_page=100`);
    expect(ids(byCategory)).toEqual(
      (await t.db.prisma.unit.findMany({ where: { status: 'AVAILABLE', categoryId: sample.categoryId }, orderBy: NEWEST })).map((u) => u.id),
    );

    const funded = await get('/api/v1/units?status=FUNDED&per_page=100');
    expect(funded.body.meta.total).toBe(await t.db.prisma.unit.count({ where: { status: 'FUNDED' } }));
    expect(funded.body.meta.total).toBeGreaterThan(0);
    expect(funded.body.data.every((u: { status: string }) => u.status === 'funded')).toBe(true);

    const range = await get('/api/v1/units?min_investment_from=1000&min_investment_to=1000&per_page=100');
    expect(range.body.meta.total).toBe(await t.db.prisma.unit.count({ where: { status: 'AVAILABLE', minInvestment: 1000 } }));
    expect(range.body.data.every((u: { min_investment: number }) => u.min_investment === 1000)).toBe(true);

    const city = sample.location.split(',')[0].toUpperCase();
    const search = await get(`/api/v1/units?q=${encodeURIComponent(city)}&per_page=100`);
    const matching = await t.db.prisma.unit.count({
      where: { status: 'AVAILABLE', OR: ['name', 'code', 'location'].map((f) => ({ [f]: { contains: city, mode: 'insensitive' as const } })) },
    });
    expect(search.body.meta.total).toBe(matching);
    expect(ids(search)).toContain(sample.id);
    expect(ids(await get(`/api/v1/units?q=${sample.code.toLowerCase()}`))).toEqual([sample.id]);
    expect(search.body.links.first).toBe(`http://api.test/api/v1/units?q=${encodeURIComponent(city)}&per_page=100&page=1`);
  });

  it('shows DRAFT units to staff only', async () => {
    const drafts = await t.db.prisma.unit.count({ where: { status: 'DRAFT' } });
    expect(drafts).toBeGreaterThan(0);
    expect((await get('/api/v1/units?status=draft')).body.meta.total).toBe(0);
    expect((await get('/api/v1/units?status=draft', analystToken)).body.meta.total).toBe(drafts);
  });

  it('answers 422 for bad filters and per_page, naming each field', async () => {
    const res = await get('/api/v1/units?status=sold&category_id=abc&min_investment_from=cheap');
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['category_id', 'min_investment_from', 'status']);
    const range = await get('/api/v1/units?min_investment_from=2000&min_investment_to=1000');
    expect(range.status).toBe(422);
    expect(range.body.errors).toEqual({ min_investment_to: ['The min investment to field must be greater than or equal to min investment from.'] });
    expect((await get(`/api/v1/units?q=${'x'.repeat(101)}`)).body.errors).toHaveProperty('q');
    expect((await get('/api/v1/units?per_page=101')).body.errors).toHaveProperty('per_page');
  });

  it('requires a bearer token', async () => {
    for (const url of ['/api/v1/units', '/api/v1/units/1']) {
      const res = await t.http.get(url);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, message: 'Unauthenticated.' });
    }
  });
});

describe('GET /api/v1/units/{id}', () => {
  it('answers a unit in any status but DRAFT', async () => {
    for (const status of ['AVAILABLE', 'FUNDED', 'CLOSED'] as const) {
      const unit = await t.db.prisma.unit.findFirstOrThrow({ where: { status } });
      const res = await get(`/api/v1/units/${unit.id}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.data)).toEqual(FIELDS);
      expect(res.body.data).toMatchObject({ id: unit.id, status: status.toLowerCase(), current_value: num(await currentValue(unit.id)) });
    }
  });

  it('answers 404 for a DRAFT unit (investors), a missing and a non-numeric id; staff see the draft', async () => {
    const draft = await t.db.prisma.unit.findFirstOrThrow({ where: { status: 'DRAFT' } });
    for (const id of [draft.id, 99999999, 'abc', '0']) {
      const res = await get(`/api/v1/units/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, message: 'Resource not found.' });
    }
    const staff = await get(`/api/v1/units/${draft.id}`, adminToken);
    expect(staff.status).toBe(200);
    expect(staff.body.data.status).toBe('draft');
  });
});

describe('GraphQL units', () => {
  it('serves the same page as REST, with Decimal strings and myHolding', async () => {
    const query = `query($page: Int, $perPage: Int, $filter: UnitFilter) { units(page: $page, perPage: $perPage, filter: $filter) { items { ${UNIT} } pageInfo { total currentPage } } }`;
    const [rest, gql] = await Promise.all([
      get('/api/v1/units?per_page=5&page=2'),
      t.gql<{ units: { items: Array<{ id: number; totalValue: string }>; pageInfo: { total: number } } }>(query, { page: 2, perPage: 5 }, investorToken),
    ]);
    expect(gql.data!.units.items.map((u) => u.id)).toEqual(ids(rest));
    expect(gql.data!.units.items[0].totalValue).toMatch(/^\d+\.\d{2}$/);
    expect(gql.data!.units.pageInfo.total).toBe(rest.body.meta.total);
    const one = await t.gql<{ unit: { id: number } }>(`query($id: Int!) { unit(id: $id) { ${UNIT} } }`, { id: ids(rest)[0] }, investorToken);
    expect(one.data!.unit.id).toBe(ids(rest)[0]);
  });

  it('answers NOT_FOUND for a draft and UNAUTHENTICATED without a token', async () => {
    const draft = await t.db.prisma.unit.findFirstOrThrow({ where: { status: 'DRAFT' } });
    const res = await t.gql(`query($id: Int!) { unit(id: $id) { id } }`, { id: draft.id }, investorToken);
    expect(res.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await t.gql(`{ units { items { id } } }`)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });
});

/** Active members of a category, and everyone else who has a membership row there. */
async function membersOf(categoryId: number) {
  const rows = await t.db.prisma.categoryMembership.findMany({ where: { categoryId }, include: { investor: true } });
  return {
    active: rows.filter((m) => m.status === 'ACTIVE').map((m) => m.investor.userId),
    cancelled: rows.filter((m) => m.status === 'CANCELLED').map((m) => m.investor.userId),
  };
}

/** A category with one ACTIVE and one CANCELLED member, so "members only" is observable. */
async function categoryWithMembers() {
  counter++;
  const category = await t.db.prisma.category.create({
    data: { name: `Members ${counter}`, slug: `members-${counter}`, description: 'x', icon: 'star', color: '#00838F' },
  });
  const investors = await t.db.prisma.investor.findMany({ orderBy: { id: 'asc' }, take: 3 });
  await t.db.prisma.categoryMembership.createMany({
    data: [
      { investorId: investors[0].id, categoryId: category.id, status: 'ACTIVE' },
      { investorId: investors[1].id, categoryId: category.id, status: 'CANCELLED' },
    ],
  });
  return category;
}

const newUnitNotes = (unitId: number) =>
  t.db.prisma.notification.findMany({
    where: { type: 'NEW_UNIT_IN_CATEGORY', data: { path: ['unitId'], equals: unitId } },
    select: { userId: true, title: true, body: true },
  });

describe('createUnit (admin)', () => {
  it('creates a DRAFT by default, announcing nothing', async () => {
    const category = await categoryWithMembers();
    const res = await t.gql<{ createUnit: { id: number; status: string; availablePercentage: string; currentValue: string; myHolding: null } }>(
      CREATE,
      { input: await unitInput({ categoryId: category.id }) },
      adminToken,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data!.createUnit).toMatchObject({
      status: 'DRAFT',
      availablePercentage: '100.00',
      currentValue: '500000.00',
      totalValue: '500000.00',
      myHolding: null,
    });
    expect(await newUnitNotes(res.data!.createUnit.id)).toEqual([]);
  });

  it('created AVAILABLE, notifies every ACTIVE member of the category and nobody else', async () => {
    const category = await categoryWithMembers();
    const { active, cancelled } = await membersOf(category.id);
    const notesBefore = await t.db.prisma.notification.count();
    const res = await t.gql<{ createUnit: { id: number; name: string; status: string } }>(
      CREATE,
      { input: await unitInput({ categoryId: category.id, status: 'AVAILABLE' }) },
      adminToken,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data!.createUnit.status).toBe('AVAILABLE');
    const notes = await newUnitNotes(res.data!.createUnit.id);
    expect(notes.map((n) => n.userId).sort()).toEqual([...active].sort());
    expect(notes.map((n) => n.userId)).not.toContain(cancelled[0]);
    expect(notes[0]).toMatchObject({ title: `New in ${category.name}`, body: `${res.data!.createUnit.name} is now open for investment.` });
    expect(await t.db.prisma.notification.count()).toBe(notesBefore + active.length);
    // Listed, it shows in the investors' list at the top (newest listed first).
    expect(ids(await get('/api/v1/units'))[0]).toBe(res.data!.createUnit.id);
  });

  it('answers 422 for every bad field, a taken code and an unknown or inactive category, writing nothing', async () => {
    const before = await t.db.prisma.unit.count();
    const taken = await t.db.prisma.unit.findFirstOrThrow();
    const bad = await t.gql(
      CREATE,
      { input: await unitInput({ code: 'bad code', name: '', totalValue: '0', minInvestment: '0.001', expectedReturn: '101', imageUrl: 'not a url' }) },
      adminToken,
    );
    expect(bad.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(Object.keys(bad.errors?.[0].extensions?.fields as object).sort()).toEqual([
      'code',
      'expectedReturn',
      'imageUrl',
      'minInvestment',
      'name',
      'totalValue',
    ]);
    // The input rules first; once they pass, the service's checks, together (docs/api.md "Validation").
    const rules = await t.gql(
      CREATE,
      { input: await unitInput({ totalValue: '0', minInvestment: '0.001', expectedReturn: '101', status: 'FUNDED' }) },
      adminToken,
    );
    expect(Object.keys(rules.errors?.[0].extensions?.fields as object).sort()).toEqual(['expectedReturn', 'minInvestment', 'totalValue']);
    const service = await t.gql(CREATE, { input: await unitInput({ code: taken.code, categoryId: 99999999, status: 'FUNDED' }) }, adminToken);
    expect(Object.keys(service.errors?.[0].extensions?.fields as object).sort()).toEqual(['categoryId', 'code', 'status']);
    const tooHigh = await t.gql(CREATE, { input: await unitInput({ totalValue: '1000', minInvestment: '1500' }) }, adminToken);
    expect(tooHigh.errors?.[0].extensions?.fields).toEqual({ minInvestment: ['The min investment field must not be greater than the total value.'] });
    const inactive = await t.db.prisma.category.create({
      data: { name: 'Closed Category', slug: 'closed-category', description: 'x', icon: 'star', color: '#00838F', isActive: false },
    });
    for (const categoryId of [inactive.id, 99999999]) {
      const res = await t.gql(CREATE, { input: await unitInput({ categoryId }) }, adminToken);
      expect(res.errors?.[0].extensions?.fields).toEqual({ categoryId: ['The selected category id is invalid.'] });
    }
    const dup = await t.gql(CREATE, { input: await unitInput({ code: taken.code }) }, adminToken);
    expect(dup.errors?.[0].extensions?.fields).toEqual({ code: ['The code has already been taken.'] });
    expect(await t.db.prisma.unit.count()).toBe(before);
  });

  it('is refused to investors and analysts', async () => {
    const before = await t.db.prisma.unit.count();
    for (const token of [investorToken, analystToken]) {
      expect((await t.gql(CREATE, { input: await unitInput() }, token)).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    }
    expect(await t.db.prisma.unit.count()).toBe(before);
  });
});

describe('updateUnit (admin)', () => {
  it('lists a DRAFT (listedAt stamped) and announces it once: later returns to AVAILABLE announce nothing', async () => {
    const category = await categoryWithMembers();
    const { active } = await membersOf(category.id);
    const created = await t.gql<{ createUnit: { id: number; listedAt: string } }>(CREATE, { input: await unitInput({ categoryId: category.id }) }, adminToken);
    const id = created.data!.createUnit.id;
    const listed = await t.gql<{ updateUnit: { status: string; listedAt: string } }>(UPDATE, { id, input: { status: 'AVAILABLE' } }, adminToken);
    expect(listed.errors).toBeUndefined();
    expect(listed.data!.updateUnit.status).toBe('AVAILABLE');
    expect(new Date(listed.data!.updateUnit.listedAt).getTime()).toBeGreaterThan(new Date(created.data!.createUnit.listedAt).getTime());
    expect((await newUnitNotes(id)).map((n) => n.userId).sort()).toEqual([...active].sort());

    for (const status of ['FUNDED', 'AVAILABLE', 'CLOSED']) {
      const res = await t.gql<{ updateUnit: { status: string } }>(UPDATE, { id, input: { status } }, adminToken);
      expect(res.errors).toBeUndefined();
      expect(res.data!.updateUnit.status).toBe(status);
    }
    expect(await newUnitNotes(id)).toHaveLength(active.length);
  });

  it('announces a unit once when two listings race (the guarded write lets one through)', async () => {
    const category = await categoryWithMembers();
    const { active } = await membersOf(category.id);
    const unit = await t.db.prisma.unit.create({ data: { ...(await unitInput({ categoryId: category.id })), status: 'DRAFT', availablePercentage: '100' } });
    const results = await Promise.all([1, 2].map(() => t.gql(UPDATE, { id: unit.id, input: { status: 'AVAILABLE' } }, adminToken)));
    expect(results.filter((r) => !r.errors).length).toBeGreaterThanOrEqual(1);
    for (const r of results.filter((x) => x.errors)) expect(r.errors?.[0].extensions?.code).toBe('CONFLICT');
    expect(await newUnitNotes(unit.id)).toHaveLength(active.length);
  });

  it.each([
    ['DRAFT', 'FUNDED'],
    ['DRAFT', 'CLOSED'],
    ['AVAILABLE', 'DRAFT'],
    ['FUNDED', 'DRAFT'],
    ['CLOSED', 'AVAILABLE'],
    ['CLOSED', 'DRAFT'],
  ] as const)('refuses %s → %s with 409, changing nothing', async (from, to) => {
    const unit = await makeUnit(from);
    const res = await t.gql(UPDATE, { id: unit.id, input: { status: to, name: 'Renamed' } }, adminToken);
    expect(res.errors?.[0].extensions?.code).toBe('CONFLICT');
    expect(res.errors?.[0].message).toBe(`This unit is ${from.toLowerCase()} and cannot be ${to.toLowerCase()}.`);
    const after = await t.db.prisma.unit.findUniqueOrThrow({ where: { id: unit.id } });
    expect(after).toEqual(unit);
  });

  it('changes fields; totalValue only while DRAFT (409 after listing), minInvestment never above it (422)', async () => {
    const draft = await makeUnit('DRAFT');
    const edited = await t.gql<{ updateUnit: { name: string; totalValue: string } }>(
      UPDATE,
      { id: draft.id, input: { name: 'Edited', totalValue: '640000' } },
      adminToken,
    );
    expect(edited.data!.updateUnit).toMatchObject({ name: 'Edited', totalValue: '640000.00' });

    const listed = await t.db.prisma.unit.findFirstOrThrow({ where: { status: 'AVAILABLE' } });
    const conflict = await t.gql(UPDATE, { id: listed.id, input: { totalValue: '1.00', name: 'x' } }, adminToken);
    expect(conflict.errors?.[0]).toMatchObject({
      message: 'The total value of a listed unit cannot change; record a valuation instead.',
      extensions: { code: 'CONFLICT' },
    });
    const tooHigh = await t.gql(UPDATE, { id: listed.id, input: { minInvestment: listed.totalValue.plus(1).toFixed(2) } }, adminToken);
    expect(tooHigh.errors?.[0].extensions?.fields).toEqual({ minInvestment: ['The min investment field must not be greater than the total value.'] });
    expect(await t.db.prisma.unit.findUniqueOrThrow({ where: { id: listed.id } })).toEqual(listed);
  });

  it('does not accept availablePercentage, and answers NOT_FOUND for a missing unit', async () => {
    const unit = await t.db.prisma.unit.findFirstOrThrow({ where: { status: 'AVAILABLE' } });
    const res = await t.gql(UPDATE, { id: unit.id, input: { availablePercentage: '1' } }, adminToken);
    expect(res.errors?.length).toBeGreaterThan(0);
    expect((await t.db.prisma.unit.findUniqueOrThrow({ where: { id: unit.id } })).availablePercentage).toEqual(unit.availablePercentage);
    expect((await t.gql(UPDATE, { id: 99999999, input: { name: 'x' } }, adminToken)).errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it('is refused to investors and analysts', async () => {
    const unit = await makeUnit('DRAFT');
    for (const token of [investorToken, analystToken]) {
      expect((await t.gql(UPDATE, { id: unit.id, input: { status: 'AVAILABLE' } }, token)).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    }
    expect((await t.db.prisma.unit.findUniqueOrThrow({ where: { id: unit.id } })).status).toBe('DRAFT');
  });
});

describe('recordUnitValuation (admin)', () => {
  it('adds a valuation that becomes the current value', async () => {
    const unit = await t.db.prisma.unit.findFirstOrThrow({ where: { status: 'AVAILABLE' }, orderBy: { id: 'desc' } });
    const valuedAt = new Date(Date.now() - 60_000).toISOString();
    const res = await t.gql<{ recordUnitValuation: { unitId: number; value: string } }>(
      VALUATION,
      { unitId: unit.id, value: '1234567.89', valuedAt },
      adminToken,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data!.recordUnitValuation).toMatchObject({ unitId: unit.id, value: '1234567.89' });
    expect((await get(`/api/v1/units/${unit.id}`)).body.data.current_value).toBe(1234567.89);

    const again = await t.gql(VALUATION, { unitId: unit.id, value: '1.00', valuedAt }, adminToken);
    expect(again.errors?.[0].extensions?.code).toBe('CONFLICT');
  });

  it('answers 422 for a non-positive value, a future date and an unknown unit, writing nothing', async () => {
    const before = await t.db.prisma.unitValuation.count();
    const future = new Date(Date.now() + 86_400_000).toISOString();
    // The input rules first; once they pass, the service's checks, together (docs/api.md "Validation").
    const res = await t.gql(VALUATION, { unitId: 99999999, value: '0', valuedAt: future }, adminToken);
    expect(res.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(res.errors?.[0].extensions?.fields).toEqual({ value: ['The value field must be greater than 0, with at most 2 decimal places.'] });
    const stored = await t.gql(VALUATION, { unitId: 99999999, value: '1.00', valuedAt: future }, adminToken);
    expect(stored.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(Object.keys(stored.errors?.[0].extensions?.fields as object).sort()).toEqual(['unitId', 'valuedAt']);
    expect(await t.db.prisma.unitValuation.count()).toBe(before);
  });

  it('is refused to investors and analysts', async () => {
    const unit = await t.db.prisma.unit.findFirstOrThrow({ where: { status: 'AVAILABLE' } });
    for (const token of [investorToken, analystToken]) {
      const res = await t.gql(VALUATION, { unitId: unit.id, value: '1.00', valuedAt: new Date().toISOString() }, token);
      expect(res.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    }
  });
});
