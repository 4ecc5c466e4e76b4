import { NotificationType, Role } from '../../src/generated/prisma/enums';
import { buildPlan } from '../../src/db/seed';
import { Ids, noRows, type PNotification, type Plan } from '../../src/db/seed/plan';
import { fakerStreams, type RandomStream } from '../../src/db/seed/random';
import { HORIZON, SHORT_TIMELINE } from '../../src/db/seed/time';
import {
  SeedWriter,
  categoryRow,
  estimatedNotifications,
  holdingRow,
  investorRow,
  notificationCap,
  notificationRows,
  plannedRowCount,
  unitRow,
  userRow,
  userSettingsRow,
  valuationRows,
} from '../../src/db/seed/write';
import { TEST_SEED } from '../support/template';

let random: RandomStream;
let plan: Plan;

beforeAll(async () => {
  random = await fakerStreams();
  plan = buildPlan(random, TEST_SEED.seed, TEST_SEED.investors, SHORT_TIMELINE, new Ids(noRows()));
});

describe('SeedWriter', () => {
  it('inserts in chunks of the batch size and reports the rows written so far, never past the total', async () => {
    const reports: [number, number, string][] = [];
    const out = new SeedWriter(8, (done, total, stage) => reports.push([done, total, stage]));
    const chunks: number[][] = [];
    const insert = async (chunk: number[]) => {
      chunks.push(chunk);
    };
    expect(await out.write('a', [1, 2, 3, 4, 5], insert, 2)).toBe(5);
    expect(await out.write('b', [6, 7, 8, 9], insert, 3)).toBe(4);
    expect(await out.write('c', [], insert)).toBe(0);
    out.report('d');
    out.finish();
    expect(chunks).toEqual([[1, 2], [3, 4], [5], [6, 7, 8], [9]]);
    expect(reports).toEqual([
      [2, 8, 'a'],
      [4, 8, 'a'],
      [5, 8, 'a'],
      [8, 8, 'b'],
      [8, 8, 'b'],
      [8, 8, 'd'],
      [8, 8, 'done'],
    ]);
  });
});

describe('what the plan writes', () => {
  it("plannedRowCount: each planned row, a user's settings too, three rows per distributed holder, notifications by their estimate", () => {
    const total = plannedRowCount(plan);
    expect(plannedRowCount({ ...plan, distributedCount: plan.distributedCount + 1 })).toBe(total + 3);
    expect(plannedRowCount({ ...plan, distributionCount: plan.distributionCount + 1 })).toBe(total + 1);
    expect(plannedRowCount({ ...plan, ledger: [...plan.ledger, plan.ledger[0]] })).toBe(total + 1);
    const known = plan.users.length * 2 + plan.investors.length + plan.holdings.length + plan.ledger.length + plan.declarations.length + plan.distributionCount;
    expect(total).toBeGreaterThan(known + estimatedNotifications(plan));
  });

  it('notificationCap: more for the demo investor, fewer for everybody in a large data set', () => {
    const other = plan.users.find((u) => u.id !== plan.demoUserId)!.id;
    expect(notificationCap(plan, plan.demoUserId)).toBe(24);
    expect(notificationCap(plan, other)).toBe(7);
    expect(notificationCap({ ...plan, users: Array.from({ length: 1001 }, () => plan.users[0]) }, other)).toBe(4);
  });

  it("notificationRows: each user's latest up to the cap, before HORIZON, read after they came, ids in creation order", () => {
    const lastPaid = new Map<number, PNotification[]>([
      [plan.demoUserId, [{ at: HORIZON + 1, type: NotificationType.DISTRIBUTION_DISTRIBUTED, title: 'later', body: '', data: {} }]],
    ]);
    const before = plan.ids.take('notifications');
    const rows = notificationRows(plan, lastPaid, random(1));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThanOrEqual(estimatedNotifications(plan));
    expect(rows.map((r) => r.id)).toEqual(rows.map((_, i) => before + 1 + i));
    const created = rows.map((r) => (r.createdAt as Date).getTime());
    expect(created).toEqual([...created].sort((a, b) => a - b));
    expect(rows.some((r) => r.title === 'later')).toBe(false);
    for (const u of plan.users) {
      const own = rows.filter((r) => r.userId === u.id);
      expect(own.length).toBeLessThanOrEqual(notificationCap(plan, u.id));
      const known = (plan.notes.get(u.id) ?? []).filter((n) => n.at < HORIZON);
      const oldestKept = Math.min(...own.map((r) => (r.createdAt as Date).getTime()));
      expect(known.filter((n) => n.at > oldestKept)).toHaveLength(own.filter((r) => (r.createdAt as Date).getTime() > oldestKept).length);
    }
    for (const r of rows.filter((x) => x.readAt)) {
      expect((r.readAt as Date).getTime()).toBeGreaterThan((r.createdAt as Date).getTime());
      expect((r.readAt as Date).getTime()).toBeLessThan(HORIZON);
    }
  });
});

describe('row builders', () => {
  it("userRow and userSettingsRow: the given hash; staff in English and dollars, investors possibly in their city's", () => {
    const staff = plan.users.find((u) => u.role !== Role.INVESTOR)!;
    expect(userRow(staff, 'hash')).toEqual({
      id: staff.id,
      name: staff.name,
      email: staff.email,
      phone: staff.phone,
      passwordHash: 'hash',
      role: staff.role,
      createdAt: new Date(staff.createdAt),
      updatedAt: new Date(staff.updatedAt),
    });
    const rng = random(2);
    expect(userSettingsRow(staff, rng)).toMatchObject({ userId: staff.id, language: 'en', currency: 'USD', timezone: staff.city.tz });
    const settings = plan.users.filter((u) => u.role === Role.INVESTOR).map((u) => [u, userSettingsRow(u, rng)] as const);
    for (const [u, s] of settings)
      expect([
        ['en', 'USD'],
        [u.city.language, u.city.currency],
      ]).toContainEqual([s.language, s.currency]);
  });

  it('investorRow, categoryRow, unitRow, holdingRow: their plan entries, money to the cent and shares to six places', () => {
    const investor = plan.investors[0];
    expect(investorRow(investor)).toMatchObject({
      id: investor.id,
      userId: investor.user.id,
      country: investor.user.city.country,
      dateOfBirth: new Date(investor.dob),
    });
    const category = plan.categories[0];
    expect(categoryRow(category)).toMatchObject({ id: category.id, slug: category.def.slug, isActive: true, updatedAt: new Date(category.createdAt) });
    const unit = plan.units[0];
    expect(unitRow(unit)).toMatchObject({
      id: unit.id,
      categoryId: unit.category.id,
      totalValue: unit.totalValue.toFixed(2),
      availablePercentage: unit.available.toFixed(6),
      minInvestment: unit.minInvestment.toFixed(2),
    });
    const holding = plan.holdings[0];
    expect(holdingRow(holding)).toMatchObject({
      id: holding.id,
      investorId: holding.investor.id,
      unitId: holding.unit.id,
      ownershipPercentage: holding.pct.toFixed(6),
    });
  });

  it("valuationRows: every unit's valuations, ids following the table's", () => {
    const rows = valuationRows(plan.units, new Ids({ ...noRows(), unit_valuations: 10 }));
    expect(rows).toHaveLength(plan.units.reduce((n, u) => n + u.valuations.length, 0));
    expect(rows.map((r) => r.id)).toEqual(rows.map((_, i) => 11 + i));
    const first = plan.units[0];
    expect(rows.slice(0, first.valuations.length)).toEqual(
      first.valuations.map((v, i) => ({ id: 11 + i, unitId: first.id, value: v.value.toFixed(2), valuedAt: new Date(v.at) })),
    );
  });
});
