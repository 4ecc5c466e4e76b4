import type { Prisma } from '../../generated/prisma/client';
import { MembershipStatus, NotificationType, UnitStatus } from '../../generated/prisma/enums';
import { Decimal, cents } from '../../domain/money';
import { HUNDRED, ZERO } from './holdings';
import { addNote, type PCategory, type PInvestor, type Planner, type PUnit } from './plan';
import { DAY, HORIZON, HOUR, d } from './time';
import { CATEGORIES, CITIES } from './words';

/** Investors per set of 40 units: about where 40 units run out of capacity. */
const INVESTORS_PER_UNIT_SET = 3000;
const pad = (n: number, width = 6) => String(n).padStart(width, '0');

/** The catalogue: the categories, and 40 units (five per category) per set with their valuations. */
export function planUnits(p: Planner, investorCount: number): { categories: PCategory[]; units: PUnit[] } {
  const { rng, fake, ids, tl } = p;
  const span = HORIZON - tl.start;
  // Categories.
  const categories: PCategory[] = CATEGORIES.map((def, i) => ({ id: ids.take('categories'), def, createdAt: tl.start - 120 * DAY + i * HOUR }));

  // Units, ids and codes in listing order.
  // A unit holds only so many holders (its capacity), so a large investor base needs more units:
  // one more set of 40 per INVESTORS_PER_UNIT_SET investors. The default data set has one set.
  const sets = Math.max(1, Math.ceil(investorCount / INVESTORS_PER_UNIT_SET));
  const unitCount = 40 * sets;
  const unitDrafts: { category: PCategory; listedAt: number }[] = [];
  const cats = rng.shuffle(Array.from({ length: 5 * sets }, () => categories).flat());
  cats.forEach((category, i) => {
    let listedAt: number;
    if (i < 10 * sets) listedAt = rng.time(tl.start, tl.start + 40 * DAY);
    else if (i < 30 * sets) listedAt = rng.time(tl.start + 40 * DAY, tl.start + Math.floor(span * 0.55));
    else if (i < unitCount - 1) listedAt = rng.time(tl.start + Math.floor(span * 0.55), HORIZON - 25 * DAY);
    else listedAt = HORIZON - 9 * DAY - 7 * HOUR; // the draft
    unitDrafts.push({ category, listedAt });
  });
  // The first ten stay in place (oldest, demo investor's candidates); the rest sort by listing date.
  const ordered = [...unitDrafts.slice(0, 10).sort((a, b) => a.listedAt - b.listedAt), ...unitDrafts.slice(10).sort((a, b) => a.listedAt - b.listedAt)];
  const names = new Set<string>();
  const units: PUnit[] = ordered.map(({ category, listedAt }, index) => {
    const def = category.def;
    const newName = () => `${fake.location.street()} ${rng.pick(def.kinds)} ${def.suffix(rng)}`;
    let name = newName();
    while (names.has(name)) name = newName();
    names.add(name);
    const place = rng.pick(CITIES);
    const [lo, hi] = def.returns;
    const totalValue = new Decimal(rng.pick(def.values));
    const minInvestment = totalValue.lessThan(1_000_000) ? rng.pick([500, 1000]) : rng.pick([1000, 2500]);
    return {
      id: ids.take('units'),
      index,
      code: '',
      name,
      description: `${name.replace(/ \S+$/, '')} in ${place.city}, ${place.countryName}. ${fake.lorem.sentences(2)}`,
      location: `${place.city}, ${place.countryName}`,
      category,
      status: index === unitCount - 1 ? UnitStatus.DRAFT : UnitStatus.AVAILABLE,
      totalValue,
      minInvestment,
      expectedReturn: new Decimal(rng.float(lo, hi).toFixed(2)),
      feeRate: new Decimal(rng.pick(['0.05', '0.06', '0.075', '0.08', '0.1', '0.12'])),
      imageUrl: rng.chance(0.9) ? `https://images.demo.test/units/${def.slug}-${index + 1}.jpg` : null,
      listedAt,
      createdAt: listedAt - rng.int(7, 30) * DAY,
      updatedAt: listedAt,
      openUntil: HORIZON - 7 * DAY,
      soldShare: rng.float(0.45, 0.9),
      capacity: 0,
      popularity: 1 + (def.featured ? 0.6 : 0) + rng.next(),
      valuations: [],
      holdings: [],
      available: HUNDRED,
      pendingInvestment: ZERO,
    };
  });
  units.forEach((u, i) => (u.code = `UNT-${pad(i + 1, 4)}`));
  // A few FUNDED (cheaper units, so one investor never needs more than the maximum) and CLOSED.
  const middle = units.slice(10, 30);
  for (const u of rng.shuffle(middle.filter((x) => x.totalValue.lessThanOrEqualTo(2_000_000))).slice(0, 3)) {
    u.status = UnitStatus.FUNDED;
    u.soldShare = 1;
  }
  for (const u of rng.shuffle(middle.filter((x) => x.status === UnitStatus.AVAILABLE)).slice(0, 2)) {
    u.status = UnitStatus.CLOSED;
    u.soldShare = rng.float(0.8, 0.95);
    u.openUntil = rng.time(Math.max(u.listedAt + 200 * DAY, HORIZON - 500 * DAY), HORIZON - 120 * DAY);
  }
  for (const u of units) {
    u.capacity = u.status === UnitStatus.DRAFT ? 0 : Math.max(3, Math.floor((u.soldShare * u.totalValue.toNumber()) / (2.5 * u.minInvestment)));
    // Valuations: the listing price, then roughly every six months within the last two years.
    u.valuations.push({ at: u.listedAt, value: u.totalValue });
    if (u.status !== UnitStatus.DRAFT) {
      const drift = rng.float(-0.02, 0.06);
      let value = u.totalValue;
      for (let at = Math.max(u.listedAt + 120 * DAY, HORIZON - 730 * DAY) + rng.int(0, 30) * DAY; at < HORIZON - 10 * DAY; at += rng.int(150, 200) * DAY) {
        value = cents(value.times(1 + drift + rng.float(-0.025, 0.025)));
        u.valuations.push({ at: Math.floor(at / DAY) * DAY + 9 * HOUR, value });
      }
    }
  }
  return { categories, units };
}

/** Investors following categories (a new unit there is announced to them). */
export function planMemberships(
  p: Planner,
  demo: PInvestor,
  demoCreated: number,
  investors: PInvestor[],
  categories: PCategory[],
  units: PUnit[],
): Prisma.CategoryMembershipCreateManyInput[] {
  const { rng, ids, notes } = p;
  const memberships: Prisma.CategoryMembershipCreateManyInput[] = [];
  const addMembership = (inv: PInvestor, category: PCategory, status: MembershipStatus, createdAt: number) => {
    memberships.push({
      id: 0,
      investorId: inv.id,
      categoryId: category.id,
      status,
      createdAt: d(createdAt),
      updatedAt: d(status === MembershipStatus.CANCELLED ? Math.min(createdAt + rng.int(10, 200) * DAY, HORIZON - HOUR) : createdAt),
    });
    if (status === MembershipStatus.ACTIVE) {
      const newest = units.filter((u) => u.category === category && u.status !== UnitStatus.DRAFT && u.listedAt > createdAt).pop();
      if (newest) {
        addNote(notes, inv.user.id, {
          at: newest.listedAt + 2 * HOUR,
          type: NotificationType.NEW_UNIT_IN_CATEGORY,
          title: `New in ${category.def.name}`,
          body: `${newest.name} is now open for investment.`,
          data: { unitId: newest.id, categoryId: category.id },
        });
      }
    }
  };
  const demoCats = [...new Set(demo.holdings.map((h) => h.unit.category))];
  for (const c of categories.filter((c) => !demoCats.includes(c))) demoCats.push(c);
  demoCats.slice(0, 3).forEach((c, i) => addMembership(demo, c, MembershipStatus.ACTIVE, demoCreated + (i + 1) * DAY));
  for (const inv of investors.slice(1)) {
    if (!rng.chance(0.35)) continue;
    const picks = rng.shuffle([...categories]).slice(0, rng.int(1, 2));
    picks.forEach((c, i) => {
      const at = Math.min(inv.user.createdAt + rng.int(1, 200) * DAY + i * HOUR, HORIZON - 2 * DAY);
      addMembership(inv, c, rng.chance(0.85) ? MembershipStatus.ACTIVE : MembershipStatus.CANCELLED, at);
    });
  }
  memberships.sort((a, b) => (a.createdAt as Date).getTime() - (b.createdAt as Date).getTime());
  for (const m of memberships) m.id = ids.take('category_memberships');

  return memberships;
}
