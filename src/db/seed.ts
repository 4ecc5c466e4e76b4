import { createHash } from 'node:crypto';
import type { Faker } from '@faker-js/faker';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import {
  DistributionStatus,
  DistributionType,
  InvestmentRequestStatus,
  KycDocumentStatus,
  KycDocumentType,
  LegalTextKind,
  MembershipStatus,
  NotificationType,
  PayoutSource,
  PayoutStatus,
  Role,
  TransactionType,
  UnitStatus,
  WithdrawalRequestStatus,
} from '../generated/prisma/enums';
import { Decimal, cents, sum } from '../domain/money';
import {
  availabilityAfterInvestment,
  availabilityAfterWithdrawal,
  fanOut,
  holdingAfterWithdrawal,
  investmentShare,
  isPayable,
  withdrawalInvestedAmount,
  withdrawalPayoutAmount,
} from '../domain/money-rules';
import { hashPassword, verifyPassword } from '../domain/password';
import { present } from '../platform/invariant';

/**
 * Demo-data generator.
 *
 * Deterministic: one seeded faker per stream draws names, e-mails, texts and every random choice,
 * and the clock is fixed. Consistent by construction: every amount, percentage, fan-out, payout and
 * availability comes from the services' own money rules (src/domain/money-rules.ts), applied in the
 * order the API would have applied them (test/seed-invariants.test.ts checks the result). Fast: the
 * data set is planned in memory with pre-assigned ids (continuing after any existing rows), then
 * written inside one transaction as JSON bulk inserts (see bulkInsert and bulkCreator), the fan-out
 * tables' indexes and foreign keys restored after a large load; finally the id sequences are moved
 * past the new ids.
 *
 * Conventions chosen here (documented for the API side):
 * - ownership / availability / expectedReturn / minWithdrawalPercentage are percentages (0–100);
 *   feeRate is a fraction (0.08 = 8 %).
 * - Unit.totalValue is the offering value and prices every share (investmentShare); amounts are
 *   picked so that most shares are exact. UnitValuation rows are the market value history (start at
 *   totalValue on the listing day); a withdrawal pays at the latest one (withdrawalPayoutAmount).
 * - An APPROVED withdrawal has already moved the ownership back to the unit (holding reduced, unit
 *   available increased, WITHDRAWAL transaction written, payout PENDING); COMPLETED = payout PAID
 *   with its PAYOUT transaction, as is every payout of a DISTRIBUTED declaration.
 * - Distributions use the holders of record when the declaration was created; the unsold share at
 *   that moment (100 − Σ holders) is the declaration's retainedAmount.
 * - Transactions carry positive amounts; the type gives the direction.
 */

export interface SeedOptions {
  /** Generated investors besides the demo investor (default 200). */
  investors?: number;
  /** Generate more investors / quarters until at least this many Distribution rows exist. */
  distributionsTarget?: number;
  /** Faker seed (default 42): the same seed (and faker version, pinned) gives the same data. */
  seed?: number;
  onProgress?: (done: number, total: number, stage: string) => void;
}

export interface SeedSummary {
  users: number;
  investors: number;
  userSettings: number;
  categories: number;
  units: number;
  unitValuations: number;
  holdings: number;
  investmentRequests: number;
  withdrawalRequests: number;
  distributionDeclarations: number;
  distributions: number;
  payouts: number;
  transactions: number;
  kycDocuments: number;
  categoryMemberships: number;
  notifications: number;
  legalTexts: number;
  appConfig: number;
}

export const DEMO_PASSWORD = 'Password123!';
export const DEMO_EMAILS = { investor: 'investor@demo.test', admin: 'admin@demo.test', analyst: 'analyst@demo.test' };

type Db = PrismaClient | Prisma.TransactionClient;

/** True when the demo admin exists (the seed writes everything in one transaction). */
export async function isSeeded(prisma: Db): Promise<boolean> {
  const admin = await prisma.user.findUnique({ where: { email: DEMO_EMAILS.admin }, select: { id: true } });
  return admin !== null;
}

/** The demo logins that still accept the public demo password (what production must not serve). */
export async function demoAccountsWithPublicPassword(prisma: Db): Promise<string[]> {
  const users = await prisma.user.findMany({
    where: { email: { in: Object.values(DEMO_EMAILS) }, deletedAt: null },
    select: { email: true, passwordHash: true },
  });
  const open = await Promise.all(users.map(async (u) => ((await verifyPassword(u.passwordHash, DEMO_PASSWORD)) ? u.email : null)));
  return open.filter((email): email is string => email !== null).sort();
}

// ---------------------------------------------------------------------------------------------
// Clock, randomness, helpers
// ---------------------------------------------------------------------------------------------

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The data set "ends" here; nothing is dated later. */
const HORIZON = Date.UTC(2026, 10, 1);
const LAST_PERIOD = { year: 2026, quarter: 3 };
const MAX_INVESTMENT = 1_000_000;
const STEP = 500;
/** Investors per set of 40 units: about where 40 units run out of capacity. */
const INVESTORS_PER_UNIT_SET = 3000;
const HUNDRED = new Decimal(100);
const ZERO = new Decimal(0);

interface Timeline {
  /** First units are listed from here. */
  start: number;
  firstYear: number;
}
const SHORT_TIMELINE: Timeline = { start: Date.UTC(2023, 8, 1), firstYear: 2024 };
const LONG_TIMELINE: Timeline = { start: Date.UTC(2014, 8, 1), firstYear: 2015 };

/** The seed's random draws, all from one seeded faker (which also writes the names and texts). */
class Random {
  constructor(readonly faker: Faker) {}
  /** [0, 1) */
  next(): number {
    return this.faker.number.float();
  }
  int(min: number, max: number): number {
    return this.faker.number.int({ min, max });
  }
  float(min: number, max: number): number {
    return this.faker.number.float({ min, max });
  }
  chance(p: number): boolean {
    return this.faker.datatype.boolean(p);
  }
  pick<T>(items: readonly T[]): T {
    return this.faker.helpers.arrayElement(items);
  }
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    return this.faker.helpers.weightedArrayElement(items.map((value, i) => ({ value, weight: weights[i] })));
  }
  shuffle<T>(items: T[]): T[] {
    return this.faker.helpers.shuffle(items, { inplace: true });
  }
  /** A millisecond timestamp in [from, to). */
  time(from: number, to: number): number {
    return to > from ? this.int(from, to - 1) : from;
  }
}
type RandomStream = (seed: number) => Random;

const d = (ms: number) => new Date(ms);
const money = (v: Decimal) => v.toFixed(2);
const pct6 = (v: Decimal) => v.toFixed(6);
const pad = (n: number, width = 6) => String(n).padStart(width, '0');
/** "2.5%" rather than "2.500000 %" for human-readable texts. */
const pctLabel = (v: Decimal) => `${v.toDecimalPlaces(4).toString()}%`;
const quarterEnd = (year: number, quarter: number) => Date.UTC(year, quarter * 3, 1);
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

// ---------------------------------------------------------------------------------------------
// Static reference data
// ---------------------------------------------------------------------------------------------

interface City {
  city: string;
  country: string;
  countryName: string;
  tz: string;
  currency: string;
  language: string;
  phone: string;
}
const CITIES: City[] = [
  ['Lisbon', 'PT', 'Portugal', 'Europe/Lisbon', 'EUR', 'pt', '351'],
  ['Porto', 'PT', 'Portugal', 'Europe/Lisbon', 'EUR', 'pt', '351'],
  ['Madrid', 'ES', 'Spain', 'Europe/Madrid', 'EUR', 'es', '34'],
  ['Barcelona', 'ES', 'Spain', 'Europe/Madrid', 'EUR', 'es', '34'],
  ['Valencia', 'ES', 'Spain', 'Europe/Madrid', 'EUR', 'es', '34'],
  ['London', 'GB', 'United Kingdom', 'Europe/London', 'GBP', 'en', '44'],
  ['Manchester', 'GB', 'United Kingdom', 'Europe/London', 'GBP', 'en', '44'],
  ['Edinburgh', 'GB', 'United Kingdom', 'Europe/London', 'GBP', 'en', '44'],
  ['Bristol', 'GB', 'United Kingdom', 'Europe/London', 'GBP', 'en', '44'],
  ['Dublin', 'IE', 'Ireland', 'Europe/Dublin', 'EUR', 'en', '353'],
  ['Paris', 'FR', 'France', 'Europe/Paris', 'EUR', 'fr', '33'],
  ['Lyon', 'FR', 'France', 'Europe/Paris', 'EUR', 'fr', '33'],
  ['Bordeaux', 'FR', 'France', 'Europe/Paris', 'EUR', 'fr', '33'],
  ['Berlin', 'DE', 'Germany', 'Europe/Berlin', 'EUR', 'de', '49'],
  ['Munich', 'DE', 'Germany', 'Europe/Berlin', 'EUR', 'de', '49'],
  ['Hamburg', 'DE', 'Germany', 'Europe/Berlin', 'EUR', 'de', '49'],
  ['Amsterdam', 'NL', 'Netherlands', 'Europe/Amsterdam', 'EUR', 'nl', '31'],
  ['Rotterdam', 'NL', 'Netherlands', 'Europe/Amsterdam', 'EUR', 'nl', '31'],
  ['Brussels', 'BE', 'Belgium', 'Europe/Brussels', 'EUR', 'fr', '32'],
  ['Vienna', 'AT', 'Austria', 'Europe/Vienna', 'EUR', 'de', '43'],
  ['Zurich', 'CH', 'Switzerland', 'Europe/Zurich', 'CHF', 'de', '41'],
  ['Milan', 'IT', 'Italy', 'Europe/Rome', 'EUR', 'it', '39'],
  ['Florence', 'IT', 'Italy', 'Europe/Rome', 'EUR', 'it', '39'],
  ['Stockholm', 'SE', 'Sweden', 'Europe/Stockholm', 'SEK', 'sv', '46'],
  ['Copenhagen', 'DK', 'Denmark', 'Europe/Copenhagen', 'DKK', 'da', '45'],
  ['Oslo', 'NO', 'Norway', 'Europe/Oslo', 'NOK', 'nb', '47'],
  ['Warsaw', 'PL', 'Poland', 'Europe/Warsaw', 'PLN', 'pl', '48'],
  ['Prague', 'CZ', 'Czechia', 'Europe/Prague', 'CZK', 'cs', '420'],
  ['New York', 'US', 'United States', 'America/New_York', 'USD', 'en', '1'],
  ['Boston', 'US', 'United States', 'America/New_York', 'USD', 'en', '1'],
  ['Chicago', 'US', 'United States', 'America/Chicago', 'USD', 'en', '1'],
  ['Austin', 'US', 'United States', 'America/Chicago', 'USD', 'en', '1'],
  ['Toronto', 'CA', 'Canada', 'America/Toronto', 'CAD', 'en', '1'],
  ['Dubai', 'AE', 'United Arab Emirates', 'Asia/Dubai', 'AED', 'en', '971'],
  ['Singapore', 'SG', 'Singapore', 'Asia/Singapore', 'SGD', 'en', '65'],
  ['Sydney', 'AU', 'Australia', 'Australia/Sydney', 'AUD', 'en', '61'],
].map(([city, country, countryName, tz, currency, language, phone]) => ({ city, country, countryName, tz, currency, language, phone }));

type Suffix = (rng: Random) => string;
interface CategoryDef {
  name: string;
  slug: string;
  icon: string;
  color: string;
  featured: boolean;
  description: string;
  /** Unit names are a street (faker), one of these and a suffix. */
  kinds: string[];
  suffix: Suffix;
  values: number[];
  returns: [number, number];
  mainType: DistributionType;
}

// Values are 2^a·5^b multiples so that round amounts map to exact 6-decimal percentages.
const V = {
  s: [250_000, 320_000, 400_000, 500_000, 640_000, 800_000],
  m: [800_000, 1_000_000, 1_250_000, 1_600_000, 2_000_000],
  l: [2_000_000, 2_500_000, 3_200_000, 4_000_000, 5_000_000, 6_400_000],
};

const CATEGORIES: CategoryDef[] = [
  {
    name: 'Residential',
    slug: 'residential',
    icon: 'home',
    color: '#2E7D32',
    featured: true,
    description: 'Apartments and townhouses let on long-term tenancies in established neighbourhoods.',
    kinds: ['Apartment', 'Townhouse', 'Loft', 'Residence'],
    suffix: (r) => `${r.int(1, 24)}${r.pick(['A', 'B', 'C', 'D'])}`,
    values: [...V.s, ...V.m.slice(0, 3)],
    returns: [4.5, 6.5],
    mainType: DistributionType.RENTAL_INCOME,
  },
  {
    name: 'Commercial',
    slug: 'commercial',
    icon: 'building',
    color: '#1565C0',
    featured: true,
    description: 'Offices and retail space let to established businesses on multi-year leases.',
    kinds: ['Office Suite', 'Retail Unit', 'Business Centre Floor'],
    suffix: (r) => `${r.int(1, 9)}.0${r.int(1, 9)}`,
    values: [...V.m, ...V.l.slice(0, 4)],
    returns: [6, 8],
    mainType: DistributionType.RENTAL_INCOME,
  },
  {
    name: 'Hospitality',
    slug: 'hospitality',
    icon: 'hotel',
    color: '#AD1457',
    featured: false,
    description: 'Hotel rooms, serviced apartments and holiday lets run by professional operators.',
    kinds: ['Boutique Hotel Suite', 'Serviced Apartment', 'Resort Villa'],
    suffix: (r) => String(r.int(1, 40)),
    values: [...V.s.slice(3), ...V.m, ...V.l.slice(0, 3)],
    returns: [7, 10],
    mainType: DistributionType.RENTAL_INCOME,
  },
  {
    name: 'Logistics',
    slug: 'logistics',
    icon: 'truck',
    color: '#EF6C00',
    featured: false,
    description: 'Warehouses and last-mile distribution space near motorways and ports.',
    kinds: ['Distribution Bay', 'Warehouse Unit', 'Cold Storage Hall'],
    suffix: (r) => String(r.int(1, 18)),
    values: [...V.m.slice(2), ...V.l],
    returns: [5.5, 7.5],
    mainType: DistributionType.RENTAL_INCOME,
  },
  {
    name: 'Farmland',
    slug: 'farmland',
    icon: 'sprout',
    color: '#827717',
    featured: false,
    description: 'Productive agricultural land leased to experienced farmers.',
    kinds: ['Orchard Parcel', 'Vineyard Plot', 'Arable Field'],
    suffix: (r) => String(r.int(1, 12)),
    values: [...V.s, ...V.m.slice(0, 4)],
    returns: [3.5, 5.5],
    mainType: DistributionType.RENTAL_INCOME,
  },
  {
    name: 'Renewable Energy',
    slug: 'renewable-energy',
    icon: 'sun',
    color: '#F9A825',
    featured: true,
    description: 'Solar, wind and storage assets selling power under long-term contracts.',
    kinds: ['Solar Array Block', 'Wind Turbine', 'Battery Storage Unit'],
    suffix: (r) => r.pick(['A', 'B', 'C', 'D', 'E', 'F']),
    values: [...V.m.slice(1), ...V.l],
    returns: [7, 9.5],
    mainType: DistributionType.DIVIDEND,
  },
  {
    name: 'Student Housing',
    slug: 'student-housing',
    icon: 'graduation-cap',
    color: '#6A1B9A',
    featured: false,
    description: 'Purpose-built student accommodation close to universities.',
    kinds: ['Studio', 'Cluster Flat', 'En-suite Room Block'],
    suffix: (r) => String(r.int(101, 420)),
    values: [...V.s.slice(3), ...V.m],
    returns: [6, 8],
    mainType: DistributionType.RENTAL_INCOME,
  },
  {
    name: 'Healthcare',
    slug: 'healthcare',
    icon: 'heart-pulse',
    color: '#C62828',
    featured: false,
    description: 'Clinics, medical suites and care homes let to healthcare operators.',
    kinds: ['Medical Suite', 'Care Home Wing', 'Clinic Unit'],
    suffix: (r) => String(r.int(1, 16)),
    values: [...V.m, ...V.l.slice(0, 3)],
    returns: [5.5, 7],
    mainType: DistributionType.RENTAL_INCOME,
  },
];

const ICON_OPTIONS = ['home', 'building', 'hotel', 'truck', 'sprout', 'sun', 'graduation-cap', 'heart-pulse', 'wind', 'leaf', 'briefcase', 'star'];
const BADGE_OPTIONS = ['New', 'Featured', 'Hot', 'Limited', 'High Yield', 'Almost Funded', 'Fully Funded'];
const COLOR_OPTIONS = ['#2E7D32', '#1565C0', '#AD1457', '#EF6C00', '#827717', '#F9A825', '#6A1B9A', '#C62828', '#00838F', '#37474F'];

const LEGAL_TEXTS: { kind: LegalTextKind; title: string; paragraphs: string[] }[] = [
  {
    kind: LegalTextKind.PRIVACY_POLICY,
    title: 'Privacy Policy',
    paragraphs: [
      'This policy explains which personal data we collect when you use the platform, why we collect it and how long we keep it. We process your data as a controller under the General Data Protection Regulation and applicable national law.',
      'We collect the information you give us when you register and invest (name, contact details, date of birth, identity documents and bank details), and technical data about the devices you use to sign in. Identity documents are used only to meet our anti-money-laundering obligations.',
      'We keep account and transaction records for as long as the law requires, which is usually ten years after the end of the business relationship. Identity documents are deleted five years after your account is closed.',
      'You may ask for a copy of your data, its correction or its deletion, and you may object to processing at any time by writing to support@demo.test. You also have the right to lodge a complaint with your data protection authority.',
    ],
  },
  {
    kind: LegalTextKind.TERMS_OF_SERVICE,
    title: 'Terms of Service',
    paragraphs: [
      'These terms govern your use of the platform and form a contract between you and the operator. By creating an account you confirm that you are at least 18 years old and that the information you provide is accurate.',
      'Investments are made by submitting an investment request, which becomes binding once approved. Ownership percentages are recorded in the platform ledger, which is the authoritative record of your holdings.',
      'Distributions are declared per unit and period and are paid out net of the management fee stated in the declaration. Withdrawal requests are reviewed within five business days and paid at the recorded invested amount.',
      'We may suspend accounts that breach these terms or where required by law. These terms are governed by the laws of Portugal, and the courts of Lisbon have exclusive jurisdiction.',
    ],
  },
  {
    kind: LegalTextKind.INVESTMENT_DISCLAIMER,
    title: 'Investment Disclaimer',
    paragraphs: [
      'Investing in real assets involves risk, including the loss of the capital you invest. Past performance and projected returns are not a reliable indicator of future results.',
      'Units are illiquid: you may not be able to withdraw your investment when you wish, and withdrawals are subject to review and to the limits set for each unit.',
      'Nothing on the platform is investment, tax or legal advice. You should consider whether an investment is suitable for you and, if in doubt, consult an independent financial adviser.',
    ],
  },
];

// ---------------------------------------------------------------------------------------------
// Plan types
// ---------------------------------------------------------------------------------------------

const TABLES = [
  'users',
  'investors',
  'categories',
  'units',
  'unit_valuations',
  'holdings',
  'investment_requests',
  'withdrawal_requests',
  'distribution_declarations',
  'distributions',
  'payouts',
  'transactions',
  'kyc_documents',
  'category_memberships',
  'notifications',
  'legal_texts',
] as const;
type Table = (typeof TABLES)[number];

class Ids {
  private readonly last: Record<Table, number>;
  constructor(bases: Record<Table, number>) {
    this.last = { ...bases };
  }
  take(table: Table): number {
    return ++this.last[table];
  }
}

interface PUser {
  id: number;
  name: string;
  email: string;
  phone: string | null;
  role: Role;
  createdAt: number;
  updatedAt: number;
  city: City;
}
interface PInvestor {
  id: number;
  user: PUser;
  dob: number;
  isDemo: boolean;
  holdings: PHolding[];
  targetHoldings: number;
}
interface PCategory {
  id: number;
  def: CategoryDef;
  createdAt: number;
}
interface PValuation {
  at: number;
  value: Decimal;
}
interface PUnit {
  id: number;
  index: number;
  code: string;
  name: string;
  description: string;
  location: string;
  category: PCategory;
  status: UnitStatus;
  totalValue: Decimal;
  minInvestment: number;
  expectedReturn: Decimal;
  feeRate: Decimal;
  imageUrl: string | null;
  listedAt: number;
  createdAt: number;
  updatedAt: number;
  /** Holdings can be bought until this moment (CLOSED units close earlier). */
  openUntil: number;
  soldShare: number;
  capacity: number;
  popularity: number;
  valuations: PValuation[];
  holdings: PHolding[];
  available: Decimal;
  pendingInvestment: Decimal;
}
/** An approved purchase (+) or withdrawal (−) of a holding: its share and invested amount. */
interface PEvent {
  at: number;
  pct: Decimal;
  amount: Decimal;
}
interface PHolding {
  id: number;
  investor: PInvestor;
  unit: PUnit;
  createdAt: number;
  updatedAt: number;
  /** Purchases (+) and approved withdrawals (−), chronological. */
  events: PEvent[];
  pct: Decimal;
  invested: Decimal;
}
interface PDeclaration {
  id: number;
  unit: PUnit;
  period: string;
  type: DistributionType;
  gross: Decimal;
  status: DistributionStatus;
  createdAt: number;
  approvedAt: number | null;
  distributedAt: number | null;
  updatedAt: number;
  holders: { holding: PHolding; pct: Decimal }[];
  heldPct: Decimal;
}
interface PNotification {
  at: number;
  type: NotificationType;
  title: string;
  body: string;
  data: Record<string, string | number>;
}

interface Plan {
  users: PUser[];
  investors: PInvestor[];
  categories: PCategory[];
  units: PUnit[];
  holdings: PHolding[];
  investmentRequests: Prisma.InvestmentRequestCreateManyInput[];
  withdrawalRequests: Prisma.WithdrawalRequestCreateManyInput[];
  withdrawalPayouts: Prisma.PayoutCreateManyInput[];
  ledger: Prisma.TransactionCreateManyInput[];
  kycDocuments: Prisma.KycDocumentCreateManyInput[];
  memberships: Prisma.CategoryMembershipCreateManyInput[];
  declarations: PDeclaration[];
  distributionCount: number;
  distributedCount: number;
  /** Notifications known before the distributions are written, per user id. */
  notes: Map<number, PNotification[]>;
  adminId: number;
  demoUserId: number;
  /** Id allocator after planning: distributions, their payouts and ledger rows continue from here. */
  ids: Ids;
}

// ---------------------------------------------------------------------------------------------
// Planning
// ---------------------------------------------------------------------------------------------

function pctAt(h: PHolding, at: number): Decimal {
  if (h.events.length === 1) return h.events[0].at <= at ? h.events[0].pct : ZERO;
  let p = ZERO;
  for (const e of h.events) if (e.at <= at) p = p.plus(e.pct);
  return p;
}

/** A holding's share and invested amount at a moment (after the events up to it). */
function holdingAt(h: PHolding, at: number): { percentage: Decimal; invested: Decimal } {
  const upTo = h.events.filter((e) => e.at <= at);
  return { percentage: sum(upTo.map((e) => e.pct)), invested: sum(upTo.map((e) => e.amount)) };
}

/**
 * An amount near `amount` (multiples of STEP, ≥ min) and the share it buys (investmentShare); amounts
 * whose share is exact come first, so that amount = share × value / 100 holds to the cent.
 */
function priceShare(amount: number, unit: PUnit, min: number, preferDown = false): { amount: Decimal; pct: Decimal } {
  const base = Math.max(min, Math.round(amount / STEP) * STEP);
  for (let k = 0; k < 24; k++) {
    const offset = (k % 2 === 0 ? 1 : -1) * Math.ceil(k / 2) * STEP * (preferDown ? -1 : 1);
    const a = base + offset;
    if (a < min) continue;
    const pct = investmentShare(a, unit.totalValue);
    if (pct.times(unit.totalValue).dividedBy(100).equals(a)) return { amount: new Decimal(a), pct };
  }
  return { amount: new Decimal(base), pct: investmentShare(base, unit.totalValue) };
}

/** What a share of the unit cost at its offering value (for sizing requests only). */
const valueOf = (pct: Decimal, unit: PUnit) => pct.times(unit.totalValue).dividedBy(100).toNumber();

function valueAt(unit: PUnit, at: number): Decimal {
  let v = unit.totalValue;
  for (const val of unit.valuations) if (val.at <= at) v = val.value;
  return v;
}

/** faker's e-mail at a reserved example domain, drawn again until no other user has it. */
function uniqueEmail(fake: Faker, firstName: string, lastName: string, taken: Set<string>): string {
  for (;;) {
    const email = fake.internet.exampleEmail({ firstName, lastName }).toLowerCase();
    if (!taken.has(email)) {
      taken.add(email);
      return email;
    }
  }
}

function addNote(notes: Map<number, PNotification[]>, userId: number, note: PNotification): void {
  const list = notes.get(userId);
  if (list) list.push(note);
  else notes.set(userId, [note]);
}

function buildPlan(random: RandomStream, seed: number, investorCount: number, tl: Timeline, ids: Ids): Plan {
  const rng = random(seed);
  const fake = rng.faker;
  const span = HORIZON - tl.start;
  const notes = new Map<number, PNotification[]>();

  // -- categories ------------------------------------------------------------------------------
  const categories: PCategory[] = CATEGORIES.map((def, i) => ({ id: ids.take('categories'), def, createdAt: tl.start - 120 * DAY + i * HOUR }));

  // -- units: 40 (five per category) per set, ids/codes in listing order -----------------------
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

  // -- users ---------------------------------------------------------------------------------
  const staffCity = CITIES[0];
  const admin: PUser = {
    id: ids.take('users'),
    name: 'Demo Admin',
    email: DEMO_EMAILS.admin,
    phone: '+351 210 000 001',
    role: Role.ADMIN,
    createdAt: tl.start - 90 * DAY,
    updatedAt: tl.start - 90 * DAY,
    city: staffCity,
  };
  const analyst: PUser = {
    id: ids.take('users'),
    name: 'Demo Analyst',
    email: DEMO_EMAILS.analyst,
    phone: '+351 210 000 002',
    role: Role.ANALYST,
    createdAt: tl.start - 60 * DAY,
    updatedAt: tl.start - 30 * DAY,
    city: staffCity,
  };
  const demoCreated = tl.start + 45 * DAY + 10 * HOUR + 17 * MINUTE;
  const demoUser: PUser = {
    id: ids.take('users'),
    name: 'Demo Investor',
    email: DEMO_EMAILS.investor,
    phone: '+351 912 345 678',
    role: Role.INVESTOR,
    createdAt: demoCreated,
    updatedAt: demoCreated + 3 * DAY,
    city: CITIES[0],
  };
  const generated = Array.from({ length: investorCount }, () => {
    // Early adopters are over-represented: a power of a uniform skews towards the start.
    const createdAt = demoCreated + DAY + Math.floor((HORIZON - 30 * DAY - demoCreated) * rng.next() ** 2.4);
    return { createdAt, first: fake.person.firstName(), last: fake.person.lastName(), city: rng.pick(CITIES) };
  }).sort((a, b) => a.createdAt - b.createdAt);
  const users: PUser[] = [admin, analyst, demoUser];
  const investors: PInvestor[] = [{ id: ids.take('investors'), user: demoUser, dob: Date.UTC(1986, 4, 14), isDemo: true, holdings: [], targetHoldings: 5 }];
  const emails = new Set<string>();
  generated.forEach((g) => {
    const user: PUser = {
      id: ids.take('users'),
      name: `${g.first} ${g.last}`,
      email: uniqueEmail(fake, g.first, g.last, emails),
      phone: rng.chance(0.85) ? `+${g.city.phone} ${rng.int(200, 999)} ${rng.int(100, 999)} ${rng.int(100, 999)}` : null,
      role: Role.INVESTOR,
      createdAt: g.createdAt,
      updatedAt: rng.chance(0.3) ? rng.time(g.createdAt, HORIZON - DAY) : g.createdAt,
      city: g.city,
    };
    users.push(user);
    investors.push({
      id: ids.take('investors'),
      user,
      dob: Date.UTC(rng.int(1955, 2003), rng.int(0, 11), rng.int(1, 28)),
      isDemo: false,
      holdings: [],
      targetHoldings: rng.weighted([1, 2, 3, 4, 5], [0.12, 0.22, 0.28, 0.2, 0.18]),
    });
  });
  const demo = investors[0];

  // -- holdings ------------------------------------------------------------------------------
  const holdings: PHolding[] = [];
  const window = (inv: PInvestor, unit: PUnit): [number, number] => [Math.max(inv.user.createdAt, unit.listedAt) + DAY, unit.openUntil];
  const addHolding = (inv: PInvestor, unit: PUnit, createdAt: number) => {
    const h: PHolding = { id: 0, investor: inv, unit, createdAt, updatedAt: createdAt, events: [], pct: ZERO, invested: ZERO };
    inv.holdings.push(h);
    unit.holdings.push(h);
    holdings.push(h);
  };
  // Demo investor: four of the oldest available units early on (≥ 40 distributions), one later.
  const demoUnits = units
    .slice(0, 10)
    .filter((u) => u.status === UnitStatus.AVAILABLE)
    .slice(0, 5);
  demoUnits.forEach((u, j) => {
    const [lo] = window(demo, u);
    addHolding(demo, u, j < 4 ? lo + j * 18 * DAY + rng.int(1, 10) * HOUR : Math.max(lo, HORIZON - 540 * DAY) + 11 * HOUR);
  });
  const openUnits = units.filter((u) => u.status !== UnitStatus.DRAFT);
  for (const inv of investors.slice(1)) {
    const chosen = new Set<PUnit>();
    for (let k = 0; k < inv.targetHoldings; k++) {
      const eligible = openUnits.filter((u) => !chosen.has(u) && u.holdings.length < u.capacity && window(inv, u)[0] < window(inv, u)[1] - 2 * DAY);
      if (eligible.length === 0) break;
      const unit = rng.weighted(
        eligible,
        eligible.map((u) => u.popularity),
      );
      chosen.add(unit);
      const [lo, hi] = window(inv, unit);
      addHolding(inv, unit, lo + Math.floor((hi - lo) * rng.next() ** 3));
    }
  }
  // Every unit on sale has a handful of holders (funded ones more).
  for (const unit of openUnits) {
    const wanted = unit.status === UnitStatus.FUNDED ? 8 : 3;
    for (const inv of rng.shuffle(investors.slice(1))) {
      if (unit.holdings.length >= wanted) break;
      const [lo, hi] = window(inv, unit);
      if (inv.holdings.length >= 5 || inv.holdings.some((h) => h.unit === unit) || lo >= hi - 2 * DAY) continue;
      addHolding(inv, unit, lo + Math.floor((hi - lo) * rng.next() ** 3));
    }
  }
  holdings.sort((a, b) => a.createdAt - b.createdAt);
  for (const h of holdings) h.id = ids.take('holdings');
  for (const u of units) u.holdings.sort((a, b) => a.id - b.id);

  // -- amounts: approved purchases, priced by investmentShare ----------------------------------
  const purchases: { holding: PHolding; at: number; amount: Decimal; pct: Decimal }[] = [];
  for (const unit of openUnits) {
    const hs = [...unit.holdings].sort((a, b) => a.createdAt - b.createdAt);
    if (hs.length === 0) continue;
    const V = unit.totalValue.toNumber();
    const mins = hs.map((h) => (h.investor.isDemo ? Math.max(15_000, unit.minInvestment) : unit.minInvestment));
    const weights = hs.map((h) => 0.25 - Math.log(1 - rng.next()) * (h.investor.isDemo ? 3 : 1));
    const wsum = weights.reduce((a, b) => a + b, 0);
    const funded = unit.status === UnitStatus.FUNDED;
    const cap = funded ? V - mins[mins.length - 1] * 4 : Math.min(unit.soldShare, 0.97) * V;
    let amounts = weights.map((w, i) => Math.min(MAX_INVESTMENT, Math.max(mins[i], Math.floor((unit.soldShare * V * w) / wsum / STEP) * STEP)));
    let total = amounts.reduce((a, b) => a + b, 0);
    if (total > cap) {
      const factor = cap / total;
      amounts = amounts.map((a, i) => Math.max(mins[i], Math.floor((a * factor) / STEP) * STEP));
      total = amounts.reduce((a, b) => a + b, 0);
      for (let guard = 0; total > cap && guard < 100_000; guard++) {
        let best = -1;
        for (let i = 0; i < amounts.length; i++) if (amounts[i] - STEP >= mins[i] && (best < 0 || amounts[i] > amounts[best])) best = i;
        if (best < 0) break;
        amounts[best] -= STEP;
        total -= STEP;
      }
    }
    const priced = amounts.map((a, i) => priceShare(a, unit, mins[i], true));
    if (funded) {
      // The last buyer takes what is left (exact when the others' shares are; else the unit stays AVAILABLE).
      const lastPct = HUNDRED.minus(sum(priced.slice(0, -1).map((p) => p.pct)));
      const amount = lastPct.times(unit.totalValue).dividedBy(100).toDecimalPlaces(2, Decimal.ROUND_DOWN);
      priced[priced.length - 1] = { amount, pct: investmentShare(amount, unit.totalValue) };
    }
    hs.forEach((h, i) => {
      const { amount, pct } = priced[i];
      // Some holdings were bought in two steps (initial purchase, later top-up).
      const topUpWindow = Math.min(unit.openUntil, HORIZON - 10 * DAY) - (h.createdAt + 45 * DAY);
      const split = (h.investor.isDemo && unit === demoUnits[0]) || rng.chance(0.1);
      const first =
        split && topUpWindow > 10 * DAY && amount.greaterThanOrEqualTo(2 * mins[i] + STEP)
          ? priceShare(amount.toNumber() * rng.float(0.4, 0.7), unit, mins[i], true)
          : null;
      if (first && first.pct.lessThan(pct)) {
        const at = h.createdAt + 45 * DAY + Math.floor(topUpWindow * rng.next());
        const rest = amount.minus(first.amount);
        const steps = [
          { at: h.createdAt, amount: first.amount, pct: first.pct },
          { at, amount: rest, pct: investmentShare(rest, unit.totalValue) },
        ];
        for (const step of steps) purchases.push({ holding: h, ...step });
        h.events.push(...steps);
      } else {
        purchases.push({ holding: h, at: h.createdAt, amount, pct });
        h.events.push({ at: h.createdAt, pct, amount });
      }
    });
  }

  // -- approved investment requests + INVESTMENT transactions --------------------------------
  const investmentRequests: Prisma.InvestmentRequestCreateManyInput[] = [];
  const ledger: Prisma.TransactionCreateManyInput[] = [];
  purchases.sort((a, b) => a.at - b.at);
  let provisional = 0; // final request ids are given once all requests are known (creation order)
  for (const p of purchases) {
    const { holding: h } = p;
    const createdAt = p.at - rng.int(2 * 60, 20 * 60) * MINUTE;
    const requestId = --provisional;
    investmentRequests.push({
      id: requestId,
      investorId: h.investor.id,
      unitId: h.unit.id,
      amount: money(p.amount),
      ownershipPercentage: pct6(p.pct),
      status: InvestmentRequestStatus.APPROVED,
      reviewedById: admin.id,
      reviewedAt: d(p.at),
      createdAt: d(createdAt),
      updatedAt: d(p.at),
    });
    ledger.push({
      id: 0,
      investorId: h.investor.id,
      unitId: h.unit.id,
      type: TransactionType.INVESTMENT,
      amount: money(p.amount),
      description: `Investment in ${h.unit.name} (${pctLabel(p.pct)})`,
      investmentRequestId: requestId,
      occurredAt: d(p.at),
      createdAt: d(p.at),
    });
    addNote(notes, h.investor.user.id, {
      at: p.at + rng.int(1, 30) * 1000,
      type: NotificationType.INVESTMENT_REQUEST_REVIEWED,
      title: 'Investment approved',
      body: `Your investment of ${money(p.amount)} in ${h.unit.name} has been approved.`,
      data: { investmentRequestId: requestId, unitId: h.unit.id, status: 'APPROVED' },
    });
  }

  // -- withdrawal requests -------------------------------------------------------------------
  type WStatus = WithdrawalRequestStatus;
  const W = WithdrawalRequestStatus;
  const wantWithdrawals = new Map<PHolding, WStatus[]>();
  const demoStatuses: WStatus[] = [W.COMPLETED, W.PENDING, W.APPROVED, W.REJECTED, W.CANCELLED, W.COMPLETED, W.PENDING, W.APPROVED, W.REJECTED, W.CANCELLED];
  demo.holdings.forEach((h, i) => wantWithdrawals.set(h, [demoStatuses[2 * i], demoStatuses[2 * i + 1]]));
  for (const h of holdings) {
    if (h.investor.isDemo || !rng.chance(0.13)) continue;
    const count = rng.chance(0.2) ? 2 : 1;
    const list: WStatus[] = [];
    for (let k = 0; k < count; k++) {
      let s = rng.weighted([W.COMPLETED, W.PENDING, W.APPROVED, W.REJECTED, W.CANCELLED], [0.35, 0.2, 0.12, 0.16, 0.17]);
      if (h.unit.status === UnitStatus.FUNDED && (s === W.APPROVED || s === W.COMPLETED)) s = rng.pick([W.PENDING, W.REJECTED, W.CANCELLED]);
      list.push(s);
    }
    wantWithdrawals.set(h, list);
  }
  interface WPlan {
    holding: PHolding;
    status: WStatus;
    createdAt: number;
    reviewedAt: number | null;
    completedAt: number | null;
    cancelledAt: number | null;
  }
  const wplans: WPlan[] = [];
  for (const [h, statuses] of wantWithdrawals) {
    const lo = h.createdAt + 30 * DAY;
    for (const status of statuses) {
      const [from, to] =
        status === W.PENDING
          ? [Math.max(lo, HORIZON - 25 * DAY), HORIZON - HOUR]
          : status === W.APPROVED
            ? [Math.max(lo, HORIZON - 30 * DAY), HORIZON - 6 * DAY]
            : status === W.COMPLETED
              ? [lo, HORIZON - 20 * DAY]
              : status === W.REJECTED
                ? [lo, HORIZON - 4 * DAY]
                : [lo, HORIZON - 3 * DAY];
      if (from >= to) continue; // holding too recent for this kind of request
      const createdAt = rng.time(from, to);
      const reviewedAt = status === W.PENDING || status === W.CANCELLED ? null : createdAt + rng.int(20, 72) * HOUR;
      const completedAt = status === W.COMPLETED && reviewedAt ? reviewedAt + rng.int(2, 6) * DAY + rng.int(0, 8) * HOUR : null;
      const cancelledAt = status === W.CANCELLED ? createdAt + rng.int(1, 48) * HOUR : null;
      wplans.push({ holding: h, status, createdAt, reviewedAt, completedAt, cancelledAt });
    }
  }
  wplans.sort((a, b) => a.createdAt - b.createdAt);
  // Settled ones first (they change the holding), pending ones last against the final holding.
  const withdrawalRequests: Prisma.WithdrawalRequestCreateManyInput[] = [];
  const withdrawalPayouts: Prisma.PayoutCreateManyInput[] = [];
  const pendingByHolding = new Map<PHolding, Decimal>();
  const wRows: { plan: WPlan; row: Prisma.WithdrawalRequestCreateManyInput; payout: Decimal | null }[] = [];
  for (const pass of ['settled', 'pending'] as const) {
    for (const w of wplans) {
      if ((w.status === W.PENDING) !== (pass === 'pending')) continue;
      const h = w.holding;
      const unit = h.unit;
      // The holding when the request is made; a pending one must also fit the final holding.
      const held = holdingAt(h, w.createdAt);
      const base = pass === 'pending' ? Decimal.min(held.percentage, holdingAt(h, HORIZON).percentage).minus(pendingByHolding.get(h) ?? ZERO) : held.percentage;
      const baseAmount = valueOf(base, unit);
      const min = Math.max(STEP, unit.minInvestment);
      if (baseAmount < 2 * min) continue;
      const { pct } = priceShare(Math.min(baseAmount * rng.float(0.1, 0.35), baseAmount - min), unit, STEP, true);
      if (pct.greaterThanOrEqualTo(base) || pct.lessThan('0.01')) continue;
      const invested = withdrawalInvestedAmount(held.invested, held.percentage, pct);
      let payout: Decimal | null = null;
      if ((w.status === W.APPROVED || w.status === W.COMPLETED) && w.reviewedAt) {
        // The approval's own check: the holding then still covers the share and the invested amount.
        const rest = holdingAfterWithdrawal(holdingAt(h, w.reviewedAt), { percentage: pct, invested });
        if (rest.percentage.isNegative() || rest.invested.isNegative()) continue;
        h.events.push({ at: w.reviewedAt, pct: pct.negated(), amount: invested.negated() });
        h.events.sort((a, b) => a.at - b.at);
        payout = withdrawalPayoutAmount(pct, valueAt(unit, w.reviewedAt));
      }
      if (pass === 'pending') pendingByHolding.set(h, (pendingByHolding.get(h) ?? ZERO).plus(pct));
      const updatedAt = w.completedAt ?? w.reviewedAt ?? w.cancelledAt ?? w.createdAt;
      wRows.push({
        plan: w,
        row: {
          id: 0,
          investorId: h.investor.id,
          unitId: unit.id,
          ownershipPercentage: pct6(pct),
          investedAmount: money(invested),
          reason: fake.lorem.sentence(),
          status: w.status,
          rejectionReason: w.status === W.REJECTED ? fake.lorem.sentence() : null,
          reviewedById: w.reviewedAt ? admin.id : null,
          reviewedAt: w.reviewedAt ? d(w.reviewedAt) : null,
          completedAt: w.completedAt ? d(w.completedAt) : null,
          createdAt: d(w.createdAt),
          updatedAt: d(updatedAt),
        },
        payout,
      });
    }
  }
  wRows.sort((a, b) => a.plan.createdAt - b.plan.createdAt);
  for (const { plan: w, row, payout } of wRows) {
    row.id = ids.take('withdrawal_requests');
    withdrawalRequests.push(row);
    const h = w.holding;
    const userId = h.investor.user.id;
    if (w.reviewedAt) {
      const label = w.status === W.REJECTED ? 'rejected' : 'approved';
      addNote(notes, userId, {
        at: w.reviewedAt + 5000,
        type: NotificationType.WITHDRAWAL_REQUEST_REVIEWED,
        title: `Withdrawal ${label}`,
        body: `Your request to withdraw ${pctLabel(new Decimal(row.ownershipPercentage as string))} of ${h.unit.name} was ${label}.`,
        data: { withdrawalRequestId: row.id as number, unitId: h.unit.id, status: w.status },
      });
    }
    if (payout && w.reviewedAt) {
      const payoutId = ids.take('payouts');
      const amount = money(payout);
      const reference = `PO-W-${row.id}`;
      withdrawalPayouts.push({
        id: payoutId,
        investorId: h.investor.id,
        unitId: h.unit.id,
        source: PayoutSource.WITHDRAWAL,
        withdrawalRequestId: row.id,
        amount,
        status: w.completedAt ? PayoutStatus.PAID : PayoutStatus.PENDING,
        reference,
        paidAt: w.completedAt ? d(w.completedAt) : null,
        createdAt: d(w.reviewedAt),
        updatedAt: d(w.completedAt ?? w.reviewedAt),
      });
      ledger.push({
        id: 0,
        investorId: h.investor.id,
        unitId: h.unit.id,
        type: TransactionType.WITHDRAWAL,
        amount,
        description: `Withdrawal of ${pctLabel(new Decimal(row.ownershipPercentage as string))} of ${h.unit.name}`,
        withdrawalRequestId: row.id,
        payoutId,
        occurredAt: d(w.reviewedAt),
        createdAt: d(w.reviewedAt),
      });
      if (w.completedAt) {
        // Paying it (payPayout) writes the PAYOUT ledger row.
        ledger.push({
          id: 0,
          investorId: h.investor.id,
          unitId: h.unit.id,
          type: TransactionType.PAYOUT,
          amount,
          description: `Payout ${reference} · ${h.unit.name}`,
          withdrawalRequestId: row.id,
          payoutId,
          occurredAt: d(w.completedAt),
          createdAt: d(w.completedAt),
        });
        addNote(notes, userId, {
          at: w.completedAt,
          type: NotificationType.WITHDRAWAL_COMPLETED,
          title: 'Withdrawal paid',
          body: `${amount} from your withdrawal in ${h.unit.name} has been sent to your bank account.`,
          data: { withdrawalRequestId: row.id as number, payoutId },
        });
      }
    }
  }

  // -- final holding state and unit availability ---------------------------------------------
  for (const h of holdings) {
    ({ percentage: h.pct, invested: h.invested } = holdingAt(h, HORIZON));
    h.updatedAt = h.events[h.events.length - 1]?.at ?? h.createdAt;
  }
  for (const u of units) {
    // Availability moves as the approvals did, in time order; a unit planned FUNDED is one that sold out.
    let soldOut = false;
    u.available = HUNDRED;
    for (const e of u.holdings.flatMap((h) => h.events).sort((a, b) => a.at - b.at)) {
      if (e.pct.isNegative()) [u.available, soldOut] = [availabilityAfterWithdrawal(u.available, e.pct.negated()), false];
      else ({ available: u.available, soldOut } = availabilityAfterInvestment(u.available, e.pct));
      if (u.available.isNegative()) throw new Error(`seed: ${u.code} is oversold`);
    }
    if (u.status === UnitStatus.FUNDED && !soldOut) u.status = UnitStatus.AVAILABLE;
    const last = Math.max(u.listedAt, ...u.holdings.map((h) => h.updatedAt));
    u.updatedAt = u.status === UnitStatus.CLOSED ? Math.max(last, u.openUntil) : last;
  }

  // -- other investment requests: PENDING, REJECTED, CANCELLED --------------------------------
  const availableUnits = units.filter((u) => u.status === UnitStatus.AVAILABLE);
  const extraRequests: { inv: PInvestor; status: InvestmentRequestStatus }[] = [];
  const R = InvestmentRequestStatus;
  for (const s of [R.PENDING, R.PENDING, R.REJECTED, R.REJECTED, R.CANCELLED, R.CANCELLED]) extraRequests.push({ inv: demo, status: s });
  for (const inv of investors.slice(1)) {
    if (rng.chance(0.12)) extraRequests.push({ inv, status: R.PENDING });
    if (rng.chance(0.08)) extraRequests.push({ inv, status: R.REJECTED });
    if (rng.chance(0.08)) extraRequests.push({ inv, status: R.CANCELLED });
  }
  const extraRows: Prisma.InvestmentRequestCreateManyInput[] = [];
  for (const { inv, status } of extraRequests) {
    const candidates = availableUnits.filter(
      (u) => Math.max(inv.user.createdAt, u.listedAt) + DAY < (status === R.PENDING ? HORIZON - 20 * DAY : HORIZON - 5 * DAY),
    );
    if (candidates.length === 0) continue;
    const unit = rng.pick(candidates);
    const lo = Math.max(inv.user.createdAt, unit.listedAt) + DAY;
    const createdAt = status === R.PENDING ? rng.time(Math.max(lo, HORIZON - 20 * DAY), HORIZON - HOUR) : rng.time(lo, HORIZON - 4 * DAY);
    const room = unit.available.minus(unit.pendingInvestment);
    const want = Math.exp(rng.float(Math.log(1000), Math.log(60_000)));
    let { amount, pct } = priceShare(want, unit, unit.minInvestment, true);
    if (pct.greaterThan(room)) {
      if (status === R.PENDING) continue;
      ({ amount, pct } = priceShare(unit.minInvestment, unit, unit.minInvestment));
      if (pct.greaterThan(unit.available)) continue;
    }
    if (status === R.PENDING) unit.pendingInvestment = unit.pendingInvestment.plus(pct);
    const reviewedAt = status === R.REJECTED ? createdAt + rng.int(6, 60) * HOUR : null;
    const updatedAt = reviewedAt ?? (status === R.CANCELLED ? createdAt + rng.int(1, 40) * HOUR : createdAt);
    extraRows.push({
      id: 0,
      investorId: inv.id,
      unitId: unit.id,
      amount: money(amount),
      ownershipPercentage: pct6(pct),
      status,
      rejectionReason: status === R.REJECTED ? fake.lorem.sentence() : null,
      reviewedById: reviewedAt ? admin.id : null,
      reviewedAt: reviewedAt ? d(reviewedAt) : null,
      createdAt: d(createdAt),
      updatedAt: d(updatedAt),
    });
    if (reviewedAt) {
      addNote(notes, inv.user.id, {
        at: reviewedAt + 4000,
        type: NotificationType.INVESTMENT_REQUEST_REVIEWED,
        title: 'Investment request rejected',
        body: `Your request to invest ${money(amount)} in ${unit.name} was not approved.`,
        data: { unitId: unit.id, status: 'REJECTED' },
      });
    }
  }
  // Ids in creation order (so "newest first" by created_at and by id agree).
  const allRequests = [...investmentRequests, ...extraRows].sort((a, b) => (a.createdAt as Date).getTime() - (b.createdAt as Date).getTime());
  const remap = new Map<number, number>();
  for (const r of allRequests) {
    const newId = ids.take('investment_requests');
    if (r.id) remap.set(r.id, newId);
    r.id = newId;
  }
  for (const t of ledger) if (t.investmentRequestId) t.investmentRequestId = remap.get(t.investmentRequestId);
  ledger.sort((a, b) => (a.occurredAt as Date).getTime() - (b.occurredAt as Date).getTime());
  for (const t of ledger) t.id = ids.take('transactions');
  for (const list of notes.values())
    for (const n of list)
      if (n.data.investmentRequestId) n.data.investmentRequestId = remap.get(n.data.investmentRequestId as number) ?? n.data.investmentRequestId;

  // -- KYC documents --------------------------------------------------------------------------
  const kycDocuments: Prisma.KycDocumentCreateManyInput[] = [];
  const keys = new Set<string>();
  // Money moves only for a verified identity: whoever has a request was approved before the first one.
  const firstRequestAt = new Map<number, number>();
  for (const r of [...allRequests, ...withdrawalRequests]) {
    const at = (r.createdAt as Date).getTime();
    firstRequestAt.set(r.investorId, Math.min(at, firstRequestAt.get(r.investorId) ?? at));
  }
  const addKyc = (inv: PInvestor, type: KycDocumentType, status: KycDocumentStatus, createdAt: number, reviewBy = HORIZON - HOUR) => {
    const kind = rng.weighted(['pdf', 'jpg', 'png'], [0.5, 0.35, 0.15]);
    const mimeType = kind === 'pdf' ? 'application/pdf' : kind === 'jpg' ? 'image/jpeg' : 'image/png';
    let storageKey: string;
    do storageKey = `kyc/${fake.string.hexadecimal({ length: 32, casing: 'lower', prefix: '' })}`;
    while (keys.has(storageKey));
    keys.add(storageKey);
    const sizeBytes = kind === 'pdf' ? rng.int(120_000, 2_500_000) : rng.int(300_000, 4_500_000);
    const reviewedAt = status === KycDocumentStatus.PENDING ? null : Math.min(createdAt + rng.int(3, 72) * HOUR, reviewBy);
    kycDocuments.push({
      id: 0,
      investorId: inv.id,
      documentType: type,
      storageKey,
      mimeType,
      sizeBytes,
      checksum: sha256(`${storageKey}:${sizeBytes}`),
      status,
      rejectionReason: status === KycDocumentStatus.REJECTED ? fake.lorem.sentence() : null,
      reviewedById: reviewedAt ? admin.id : null,
      reviewedAt: reviewedAt ? d(reviewedAt) : null,
      createdAt: d(createdAt),
      updatedAt: d(reviewedAt ?? createdAt),
    });
    if (reviewedAt) {
      const ok = status === KycDocumentStatus.APPROVED;
      addNote(notes, inv.user.id, {
        at: reviewedAt + 3000,
        type: NotificationType.KYC_REVIEWED,
        title: ok ? 'Document verified' : 'Document rejected',
        body: ok ? 'Your identity document has been verified.' : 'We could not accept your document; please upload a new one.',
        data: { storageKey, status },
      });
    }
  };
  addKyc(
    demo,
    KycDocumentType.PASSPORT,
    KycDocumentStatus.APPROVED,
    demoCreated + 2 * HOUR,
    present(firstRequestAt.get(demo.id), "the demo investor's first request") - HOUR,
  );
  addKyc(demo, KycDocumentType.PROOF_OF_ADDRESS, KycDocumentStatus.REJECTED, demoCreated + 3 * HOUR);
  addKyc(demo, KycDocumentType.PROOF_OF_ADDRESS, KycDocumentStatus.APPROVED, demoCreated + 4 * DAY);
  addKyc(demo, KycDocumentType.BANK_STATEMENT, KycDocumentStatus.PENDING, HORIZON - 6 * DAY - 5 * HOUR);
  for (const inv of investors.slice(1)) {
    const verifiedBy = firstRequestAt.get(inv.id);
    if (!rng.chance(0.65) && verifiedBy === undefined) continue;
    const idType = rng.pick([KycDocumentType.PASSPORT, KycDocumentType.NATIONAL_ID, KycDocumentType.DRIVING_LICENSE]);
    // First requests come at least 4 h after sign-up, so this leaves an hour for the review.
    const t0 = Math.min(inv.user.createdAt + rng.int(1, 72) * HOUR, (verifiedBy ?? HORIZON) - 2 * HOUR);
    const recent = t0 > HORIZON - 30 * DAY;
    const drawn = recent ? KycDocumentStatus.PENDING : rng.weighted([KycDocumentStatus.APPROVED, KycDocumentStatus.REJECTED], [0.85, 0.15]);
    const s = verifiedBy === undefined ? drawn : KycDocumentStatus.APPROVED;
    addKyc(inv, idType, s, t0, verifiedBy === undefined ? undefined : verifiedBy - HOUR);
    if (s === KycDocumentStatus.REJECTED) addKyc(inv, idType, KycDocumentStatus.APPROVED, t0 + rng.int(3, 10) * DAY);
    if (rng.chance(0.07))
      addKyc(inv, KycDocumentType.PROOF_OF_ADDRESS, KycDocumentStatus.PENDING, rng.time(Math.max(t0 + DAY, HORIZON - 20 * DAY), HORIZON - HOUR));
    else if (rng.chance(0.5)) {
      const t1 = t0 + rng.int(1, 120) * DAY;
      if (t1 < HORIZON - DAY)
        addKyc(
          inv,
          rng.pick([KycDocumentType.PROOF_OF_ADDRESS, KycDocumentType.BANK_STATEMENT, KycDocumentType.OTHER]),
          t1 > HORIZON - 20 * DAY ? KycDocumentStatus.PENDING : KycDocumentStatus.APPROVED,
          t1,
        );
    }
  }
  kycDocuments.sort((a, b) => (a.createdAt as Date).getTime() - (b.createdAt as Date).getTime());
  for (const k of kycDocuments) k.id = ids.take('kyc_documents');

  // -- category memberships -------------------------------------------------------------------
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

  // -- distribution declarations ----------------------------------------------------------------
  const declarations: PDeclaration[] = [];
  const distributedAtOf = (year: number, quarter: number) => Date.UTC(year, quarter * 3, 15, 10);
  let distributionCount = 0;
  let distributedCount = 0;
  for (let year = tl.firstYear; year <= LAST_PERIOD.year; year++) {
    for (let quarter = 1; quarter <= 4; quarter++) {
      if (year === LAST_PERIOD.year && quarter > LAST_PERIOD.quarter) break;
      const end = quarterEnd(year, quarter);
      const latest = year === LAST_PERIOD.year && quarter === LAST_PERIOD.quarter;
      for (const unit of openUnits) {
        if (unit.listedAt >= end) continue;
        const created0 = end + 3 * DAY + 8 * HOUR + unit.index * 37 * MINUTE + rng.int(0, 30) * MINUTE;
        const types: DistributionType[] = [unit.category.def.mainType];
        if (rng.chance(0.04)) types.push(DistributionType.INTEREST);
        if (rng.chance(0.03)) types.push(DistributionType.CAPITAL_GAIN);
        types.forEach((type, ti) => {
          const createdAt = created0 + ti * 2 * HOUR + ti * 7 * MINUTE;
          const holders: PDeclaration['holders'] = [];
          for (const h of unit.holdings) {
            const pct = pctAt(h, createdAt);
            if (pct.greaterThan(ZERO)) holders.push({ holding: h, pct });
          }
          if (holders.length === 0) return;
          const value = valueAt(unit, createdAt);
          let factor: number;
          if (type === DistributionType.INTEREST) factor = rng.float(0.0008, 0.002);
          else if (type === DistributionType.CAPITAL_GAIN) factor = rng.float(0.01, 0.03);
          else {
            const seasonal =
              unit.category.def.name === 'Hospitality'
                ? [0.8, 1.05, 1.35, 0.85][quarter - 1]
                : unit.category.def.name === 'Renewable Energy'
                  ? [0.75, 1.2, 1.25, 0.8][quarter - 1]
                  : 1;
            factor = (unit.expectedReturn.toNumber() / 100 / 4) * rng.float(0.85, 1.1) * seasonal;
          }
          const gross = cents(value.times(factor.toFixed(8)));
          let status: DistributionStatus;
          if (latest) status = rng.weighted([DistributionStatus.PENDING, DistributionStatus.APPROVED, DistributionStatus.CANCELLED], [0.47, 0.48, 0.05]);
          else status = rng.chance(0.03) ? DistributionStatus.CANCELLED : DistributionStatus.DISTRIBUTED;
          const approvedAt = status === DistributionStatus.APPROVED || status === DistributionStatus.DISTRIBUTED ? createdAt + rng.int(40, 100) * HOUR : null;
          const distributedAt = status === DistributionStatus.DISTRIBUTED ? distributedAtOf(year, quarter) : null;
          const updatedAt = distributedAt ?? approvedAt ?? (status === DistributionStatus.CANCELLED ? createdAt + rng.int(20, 70) * HOUR : createdAt);
          declarations.push({
            id: 0,
            unit,
            period: `${year}-Q${quarter}`,
            type,
            gross,
            status,
            createdAt,
            approvedAt,
            distributedAt,
            updatedAt,
            holders,
            heldPct: sum(holders.map((x) => x.pct)),
          });
          distributionCount += holders.length;
          if (status === DistributionStatus.DISTRIBUTED) distributedCount += holders.length;
        });
      }
    }
  }
  declarations.sort((a, b) => a.createdAt - b.createdAt);
  // Distribution i of a declaration is created at declaration.createdAt + i ms: keep those ranges
  // disjoint so that every distribution has its own timestamp (a shift of a few ms at most).
  let nextFree = 0;
  for (const dcl of declarations) {
    dcl.createdAt = Math.max(dcl.createdAt, nextFree);
    nextFree = dcl.createdAt + dcl.holders.length + 1;
    dcl.id = ids.take('distribution_declarations');
  }

  // -- prospects: signed up recently, no request yet, identity not (yet) verified ---------------
  // Every investor above holds units, so KYC-approved; these show the other KYC states. Their own
  // random stream leaves the data above unchanged.
  const prng = random(seed ^ 0x9e3779b9);
  const prospectKyc = [undefined, KycDocumentStatus.PENDING, KycDocumentStatus.REJECTED] as const;
  const prospectDocs = kycDocuments.length;
  const prospectTimes = Array.from(
    { length: Math.max(3, Math.round(investorCount * 0.05)) },
    () => HORIZON - prng.int(2, 28) * DAY - prng.int(0, 23) * HOUR,
  ).sort((a, b) => a - b);
  prospectTimes.forEach((createdAt, k) => {
    const first = prng.faker.person.firstName();
    const last = prng.faker.person.lastName();
    const city = prng.pick(CITIES);
    const user: PUser = {
      id: ids.take('users'),
      name: `${first} ${last}`,
      email: uniqueEmail(prng.faker, first, last, emails),
      phone: null,
      role: Role.INVESTOR,
      createdAt,
      updatedAt: createdAt,
      city,
    };
    users.push(user);
    const inv: PInvestor = {
      id: ids.take('investors'),
      user,
      dob: Date.UTC(prng.int(1960, 2003), prng.int(0, 11), prng.int(1, 28)),
      isDemo: false,
      holdings: [],
      targetHoldings: 0,
    };
    investors.push(inv);
    const status = prospectKyc[k % prospectKyc.length];
    if (status) addKyc(inv, prng.pick([KycDocumentType.PASSPORT, KycDocumentType.NATIONAL_ID]), status, createdAt + prng.int(1, 24) * HOUR);
  });
  // Document ids stay in creation order.
  const kycIds = [...kycDocuments.slice(0, prospectDocs).map((k) => k.id as number), ...kycDocuments.slice(prospectDocs).map(() => ids.take('kyc_documents'))];
  kycDocuments.sort((a, b) => (a.createdAt as Date).getTime() - (b.createdAt as Date).getTime());
  kycDocuments.forEach((k, i) => (k.id = kycIds[i]));

  // Staff notifications.
  const latestPeriod = `${LAST_PERIOD.year}-Q${LAST_PERIOD.quarter}`;
  const pendingDecls = declarations.filter((x) => x.status === DistributionStatus.PENDING).length;
  addNote(notes, admin.id, {
    at: HORIZON - 26 * DAY,
    type: NotificationType.SYSTEM,
    title: `${latestPeriod} declarations ready`,
    body: `${pendingDecls} distribution declarations for ${latestPeriod} are waiting for approval.`,
    data: { period: latestPeriod },
  });
  addNote(notes, admin.id, {
    at: HORIZON - 3 * DAY,
    type: NotificationType.SYSTEM,
    title: 'Withdrawal queue',
    body: `${withdrawalRequests.filter((w) => w.status === W.PENDING).length} withdrawal requests are pending review.`,
    data: {},
  });
  addNote(notes, admin.id, {
    at: HORIZON - 60 * DAY,
    type: NotificationType.SYSTEM,
    title: 'Maintenance completed',
    body: 'The scheduled database maintenance finished without incident.',
    data: {},
  });
  addNote(notes, analyst.id, {
    at: HORIZON - 20 * DAY,
    type: NotificationType.SYSTEM,
    title: 'Quarterly valuations published',
    body: 'New valuations are available for the units reviewed this quarter.',
    data: {},
  });
  addNote(notes, analyst.id, {
    at: HORIZON - 90 * DAY,
    type: NotificationType.SYSTEM,
    title: 'Report schedule',
    body: 'The monthly performance report is now generated on the first business day of each month.',
    data: {},
  });
  for (const inv of investors) {
    addNote(notes, inv.user.id, {
      at: inv.user.createdAt + MINUTE,
      type: NotificationType.SYSTEM,
      title: 'Welcome aboard',
      body: 'Your account is ready. Complete your verification to start investing.',
      data: {},
    });
  }

  return {
    users,
    investors,
    categories,
    units,
    holdings,
    investmentRequests: allRequests,
    withdrawalRequests,
    withdrawalPayouts,
    ledger,
    kycDocuments,
    memberships,
    declarations,
    distributionCount,
    distributedCount,
    notes,
    adminId: admin.id,
    demoUserId: demoUser.id,
    ids,
  };
}

// ---------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------

const DIST_TYPE_LABEL: Record<DistributionType, string> = {
  RENTAL_INCOME: 'Rental income',
  CAPITAL_GAIN: 'Capital gain',
  DIVIDEND: 'Dividend',
  INTEREST: 'Interest',
};

type Row = Record<string, string | number | null>;
type Columns = readonly (readonly [name: string, sqlType: string])[];
const BULK_BATCH = 5000;
const DISTRIBUTION_COLUMNS: Columns = [
  ['id', 'int'],
  ['declaration_id', 'int'],
  ['investor_id', 'int'],
  ['unit_id', 'int'],
  ['period', 'text'],
  ['type', '"DistributionType"'],
  ['ownership_percentage', 'numeric'],
  ['gross_amount', 'numeric'],
  ['fees', 'numeric'],
  ['net_amount', 'numeric'],
  ['status', '"DistributionStatus"'],
  ['distributed_at', 'timestamptz'],
  ['created_at', 'timestamptz'],
  ['updated_at', 'timestamptz'],
];
const PAYOUT_COLUMNS: Columns = [
  ['id', 'int'],
  ['investor_id', 'int'],
  ['unit_id', 'int'],
  ['source', '"PayoutSource"'],
  ['distribution_id', 'int'],
  ['withdrawal_request_id', 'int'],
  ['amount', 'numeric'],
  ['status', '"PayoutStatus"'],
  ['reference', 'text'],
  ['paid_at', 'timestamptz'],
  ['created_at', 'timestamptz'],
  ['updated_at', 'timestamptz'],
];
const TRANSACTION_COLUMNS: Columns = [
  ['id', 'int'],
  ['investor_id', 'int'],
  ['unit_id', 'int'],
  ['type', '"TransactionType"'],
  ['amount', 'numeric'],
  ['description', 'text'],
  ['investment_request_id', 'int'],
  ['withdrawal_request_id', 'int'],
  ['distribution_id', 'int'],
  ['payout_id', 'int'],
  ['occurred_at', 'timestamptz'],
  ['created_at', 'timestamptz'],
];
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Multi-row insert with a single JSON parameter (`json_to_recordset`). Prisma 7's createMany spends
 * ~0.3 ms of client CPU per row (query compiler + parameter mapping), which dominated a 100k-row
 * seed; this path costs the client almost nothing and works the same on PostgreSQL and PGlite.
 * `json`, not `jsonb`: the text is read once, so converting it to jsonb first only costs (25–45 %
 * of the parsing, measured on 100k ledger rows). Rows use column names; every listed column must be
 * present (null where empty).
 */
async function bulkInsert(tx: Prisma.TransactionClient, table: string, columns: Columns, rows: Row[]): Promise<void> {
  const names = columns.map(([n]) => `"${n}"`).join(', ');
  const types = columns.map(([n, t]) => `"${n}" ${t}`).join(', ');
  await tx.$executeRawUnsafe(`INSERT INTO "${table}" (${names}) SELECT ${names} FROM json_to_recordset($1::json) AS r(${types})`, JSON.stringify(rows));
}

const snakeCase = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * createMany's semantics through bulkInsert, for any table: fields named as in the Prisma model
 * (camelCase; every column here is their snake_case), an absent field takes the column's default.
 * Rows are grouped by the fields they set, and each group is one statement per chunk.
 */
function bulkCreator(tx: Prisma.TransactionClient): (table: string, rows: object[]) => Promise<void> {
  const types = new Map<string, Map<string, string>>();
  const columnTypes = async (table: string) => {
    let map = types.get(table);
    if (!map) {
      const rows = await tx.$queryRawUnsafe<{ name: string; type: string }[]>(
        `SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped`,
        `"${table}"`,
      );
      map = new Map(rows.map((r) => [r.name, r.type]));
      types.set(table, map);
    }
    return map;
  };
  return async (table, rows) => {
    const known = await columnTypes(table);
    const groups = new Map<string, Row[]>();
    for (const row of rows) {
      const out: Row = {};
      for (const [field, value] of Object.entries(row)) if (value !== undefined) out[snakeCase(field)] = value as Row[string];
      const key = Object.keys(out).join();
      const group = groups.get(key);
      if (group) group.push(out);
      else groups.set(key, [out]);
    }
    for (const [key, group] of groups) {
      const columns = key.split(',').map((name): readonly [string, string] => {
        const type = known.get(name);
        if (!type) throw new Error(`seed: ${table} has no column ${name}`);
        return [name, type];
      });
      await bulkInsert(tx, table, columns, group);
    }
  };
}

/** From this many distributions on, the fan-out tables' indexes and foreign keys are restored after the load. */
const REBUILD_INDEXES_FROM = 100_000;

/**
 * Drops the tables' indexes that back no constraint, and their foreign keys, and returns the
 * statements that restore them: building an index once over a million loaded rows is several times
 * faster than maintaining it row by row, and adding a foreign key back checks every row in one join
 * instead of one lookup per row and key (four per ledger row). Inside the seed's transaction, so
 * nobody sees the tables without them, and the data is checked all the same.
 */
async function dropForBulkLoad(tx: Prisma.TransactionClient, tables: string[]): Promise<string[]> {
  const indexes = await tx.$queryRawUnsafe<{ name: string; definition: string }[]>(
    `SELECT indexname AS name, indexdef AS definition FROM pg_indexes i
     WHERE schemaname = current_schema() AND tablename = ANY($1::text[]) AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
    tables,
  );
  const keys = await tx.$queryRawUnsafe<{ tbl: string; name: string; definition: string }[]>(
    `SELECT conrelid::regclass::text AS tbl, conname AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint
     WHERE contype = 'f' AND connamespace = current_schema()::regnamespace AND conrelid::regclass::text = ANY($1::text[])`,
    tables,
  );
  for (const { tbl, name } of keys) await tx.$executeRawUnsafe(`ALTER TABLE ${tbl} DROP CONSTRAINT "${name}"`);
  for (const { name } of indexes) await tx.$executeRawUnsafe(`DROP INDEX "${name}"`);
  return [...indexes.map((i) => i.definition), ...keys.map((k) => `ALTER TABLE ${k.tbl} ADD CONSTRAINT "${k.name}" ${k.definition}`)];
}

async function tableBases(db: Db): Promise<Record<Table, number>> {
  const sql = TABLES.map((t) => `SELECT '${t}' AS t, COALESCE(MAX(id), 0)::int AS m FROM "${t}"`).join(' UNION ALL ');
  const rows = await db.$queryRawUnsafe<{ t: Table; m: number }[]>(sql);
  const bases = Object.fromEntries(TABLES.map((t) => [t, 0])) as Record<Table, number>;
  for (const r of rows) bases[r.t] = Number(r.m);
  return bases;
}

export async function seedDemoData(prisma: PrismaClient, options: SeedOptions = {}): Promise<SeedSummary> {
  const investorCount = Math.max(0, Math.floor(options.investors ?? 200));
  const seed = options.seed ?? 42;
  const target = options.distributionsTarget ?? 0;
  if (await isSeeded(prisma)) throw new Error('seedDemoData: the database already holds the demo data');
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  // Loaded here, not with the module: the gateway imports this file at every start, seeding is rare.
  const { Faker, base, en } = await import('@faker-js/faker');
  const random: RandomStream = (n) => new Random(new Faker({ locale: [en, base], seed: n }));

  return prisma.$transaction(
    async (tx) => {
      const bases = await tableBases(tx);
      // Plan; when a distribution target is set, grow the history, then the investor base.
      let count = investorCount;
      let timeline = SHORT_TIMELINE;
      let plan = buildPlan(random, seed, count, timeline, new Ids(bases));
      for (let attempt = 0; target > 0 && plan.distributionCount < target && attempt < 8; attempt++) {
        if (timeline === SHORT_TIMELINE) timeline = LONG_TIMELINE;
        else count = Math.ceil((count + 1) * (target / Math.max(1, plan.distributionCount)) * 1.04);
        const before = plan.distributionCount;
        plan = buildPlan(random, seed, count, timeline, new Ids(bases));
        if (plan.distributionCount <= before && timeline === LONG_TIMELINE && attempt > 1) break;
      }
      return writePlan(tx, plan, random, passwordHash, options.onProgress);
    },
    { timeout: 30 * 60_000, maxWait: 60_000 },
  );
}

async function writePlan(
  tx: Prisma.TransactionClient,
  plan: Plan,
  random: RandomStream,
  passwordHash: string,
  onProgress?: SeedOptions['onProgress'],
): Promise<SeedSummary> {
  const ids = plan.ids;
  const notificationCap = (userId: number) => (userId === plan.demoUserId ? 24 : plan.users.length > 1000 ? 4 : 7);
  const estimatedNotes = plan.users.reduce((n, u) => n + Math.min(notificationCap(u.id), (plan.notes.get(u.id)?.length ?? 0) + 2), 0);
  const valuations = plan.units.reduce((n, u) => n + u.valuations.length, 0);
  const total =
    plan.users.length * 2 +
    plan.investors.length +
    plan.categories.length +
    plan.units.length +
    valuations +
    plan.holdings.length +
    plan.investmentRequests.length +
    plan.withdrawalRequests.length +
    plan.withdrawalPayouts.length +
    plan.ledger.length +
    plan.kycDocuments.length +
    plan.memberships.length +
    plan.declarations.length +
    plan.distributionCount +
    plan.distributedCount * 3 +
    estimatedNotes +
    LEGAL_TEXTS.length +
    1;
  let done = 0;
  const progress = (n: number, stage: string) => {
    done += n;
    onProgress?.(Math.min(done, total), total, stage);
  };
  async function write<T>(stage: string, rows: T[], insert: (chunk: T[]) => Promise<unknown>, batch = 2000): Promise<number> {
    for (let i = 0; i < rows.length; i += batch) {
      const chunk = rows.slice(i, i + batch);
      await insert(chunk);
      progress(chunk.length, stage);
    }
    return rows.length;
  }
  const rng = random(0x5eed ^ plan.users.length);
  const create = bulkCreator(tx);

  const users = await write('users', plan.users, (c) =>
    create(
      'users',
      c.map((u) => ({
        id: u.id,
        name: u.name,
        email: u.email,
        phone: u.phone,
        passwordHash,
        role: u.role,
        createdAt: d(u.createdAt),
        updatedAt: d(u.updatedAt),
      })),
    ),
  );
  const userSettings = await write('user settings', plan.users, (c) =>
    create(
      'user_settings',
      c.map((u) => {
        const local = u.role === Role.INVESTOR && rng.chance(0.3);
        return {
          userId: u.id,
          language: local ? u.city.language : 'en',
          currency: local ? u.city.currency : 'USD',
          timezone: u.city.tz,
          pushEnabled: rng.chance(0.85),
          emailEnabled: rng.chance(0.9),
          notifyInvestments: true,
          notifyWithdrawals: true,
          notifyDistributions: rng.chance(0.9),
          notifyPayouts: true,
          notifyKyc: true,
          notifyNewUnits: rng.chance(0.7),
          updatedAt: d(u.updatedAt),
        };
      }),
    ),
  );
  const investors = await write('investors', plan.investors, (c) =>
    create(
      'investors',
      c.map((i) => ({
        id: i.id,
        userId: i.user.id,
        country: i.user.city.country,
        city: i.user.city.city,
        dateOfBirth: d(i.dob),
        createdAt: d(i.user.createdAt),
        updatedAt: d(i.user.updatedAt),
      })),
    ),
  );
  const categories = await write('categories', plan.categories, (c) =>
    create(
      'categories',
      c.map((x) => ({
        id: x.id,
        name: x.def.name,
        slug: x.def.slug,
        description: x.def.description,
        icon: x.def.icon,
        color: x.def.color,
        isFeatured: x.def.featured,
        isActive: true,
        createdAt: d(x.createdAt),
        updatedAt: d(x.createdAt),
      })),
    ),
  );
  const units = await write('units', plan.units, (c) =>
    create(
      'units',
      c.map((u) => ({
        id: u.id,
        code: u.code,
        name: u.name,
        description: u.description,
        location: u.location,
        categoryId: u.category.id,
        status: u.status,
        totalValue: money(u.totalValue),
        availablePercentage: pct6(u.available),
        minInvestment: money(new Decimal(u.minInvestment)),
        expectedReturn: pct6(u.expectedReturn),
        imageUrl: u.imageUrl,
        listedAt: d(u.listedAt),
        createdAt: d(u.createdAt),
        updatedAt: d(u.updatedAt),
      })),
    ),
  );
  const valuationRows = plan.units.flatMap((u) =>
    u.valuations.map((v) => ({ id: ids.take('unit_valuations'), unitId: u.id, value: money(v.value), valuedAt: d(v.at) })),
  );
  const unitValuations = await write('unit valuations', valuationRows, (c) => create('unit_valuations', c));
  const holdings = await write('holdings', plan.holdings, (c) =>
    create(
      'holdings',
      c.map((h) => ({
        id: h.id,
        investorId: h.investor.id,
        unitId: h.unit.id,
        ownershipPercentage: pct6(h.pct),
        investedAmount: money(h.invested),
        createdAt: d(h.createdAt),
        updatedAt: d(h.updatedAt),
      })),
    ),
  );
  const investmentRequests = await write('investment requests', plan.investmentRequests, (c) => create('investment_requests', c));
  const withdrawalRequests = await write('withdrawal requests', plan.withdrawalRequests, (c) => create('withdrawal_requests', c));
  let payouts = await write('payouts', plan.withdrawalPayouts, (c) => create('payouts', c));
  let transactions = await write('transactions', plan.ledger, (c) => create('transactions', c));
  const kycDocuments = await write('kyc documents', plan.kycDocuments, (c) => create('kyc_documents', c));
  const categoryMemberships = await write('category memberships', plan.memberships, (c) => create('category_memberships', c));

  // Declarations fan out into distributions (+ payout + ledger row when distributed), streamed in chunks.
  const restore = plan.distributionCount >= REBUILD_INDEXES_FROM ? await dropForBulkLoad(tx, ['distributions', 'payouts', 'transactions']) : [];
  const lastPaid = new Map<number, PNotification[]>();
  let declRows: Prisma.DistributionDeclarationCreateManyInput[] = [];
  let distRows: Row[] = [];
  let payoutRows: Row[] = [];
  let txRows: Row[] = [];
  let distributions = 0;
  const flush = async () => {
    if (declRows.length) {
      await create('distribution_declarations', declRows);
      progress(declRows.length, 'distribution declarations');
    }
    // The hot path bypasses createMany (its per-row client work is ~10× slower; see bulkInsert).
    await write('distributions', distRows, (c) => bulkInsert(tx, 'distributions', DISTRIBUTION_COLUMNS, c), BULK_BATCH);
    await write('distribution payouts', payoutRows, (c) => bulkInsert(tx, 'payouts', PAYOUT_COLUMNS, c), BULK_BATCH);
    await write('distribution transactions', txRows, (c) => bulkInsert(tx, 'transactions', TRANSACTION_COLUMNS, c), BULK_BATCH);
    distributions += distRows.length;
    payouts += payoutRows.length;
    transactions += txRows.length;
    declRows = [];
    distRows = [];
    payoutRows = [];
    txRows = [];
  };
  for (const dcl of plan.declarations) {
    const unit = dcl.unit;
    const feeRate = unit.feeRate;
    // The unit's availability when declared is what its holders then did not hold.
    const split = fanOut(
      dcl.gross,
      feeRate,
      dcl.holders.map((x) => x.pct),
      HUNDRED.minus(dcl.heldPct),
    );
    const label = `${DIST_TYPE_LABEL[dcl.type]} ${dcl.period}`;
    const distributedAt = dcl.distributedAt ? iso(dcl.distributedAt) : null;
    dcl.holders.forEach(({ holding, pct }, i) => {
      const { gross, fee, net: netI } = split.shares[i];
      const id = ids.take('distributions');
      const investorId = holding.investor.id;
      distRows.push({
        id,
        declaration_id: dcl.id,
        investor_id: investorId,
        unit_id: unit.id,
        period: dcl.period,
        type: dcl.type,
        ownership_percentage: pct6(pct),
        gross_amount: money(gross),
        fees: money(fee),
        net_amount: money(netI),
        status: dcl.status,
        distributed_at: distributedAt,
        created_at: iso(dcl.createdAt + i),
        updated_at: iso(Math.max(dcl.updatedAt, dcl.createdAt + i)),
      });
      if (dcl.status === DistributionStatus.DISTRIBUTED && dcl.distributedAt && isPayable(netI)) {
        const payoutId = ids.take('payouts');
        const reference = `PO-D-${id}`;
        payoutRows.push({
          id: payoutId,
          investor_id: investorId,
          unit_id: unit.id,
          source: PayoutSource.DISTRIBUTION,
          distribution_id: id,
          withdrawal_request_id: null,
          amount: money(netI),
          status: PayoutStatus.PAID,
          reference,
          paid_at: distributedAt,
          created_at: distributedAt,
          updated_at: distributedAt,
        });
        // The distribution's ledger row, then (paid at once, as payPayout writes it) the PAYOUT row.
        for (const [type, description] of [
          [TransactionType.DISTRIBUTION, `${label} · ${unit.name}`],
          [TransactionType.PAYOUT, `Payout ${reference} · ${unit.name}`],
        ] as const) {
          txRows.push({
            id: ids.take('transactions'),
            investor_id: investorId,
            unit_id: unit.id,
            type,
            amount: money(netI),
            description,
            investment_request_id: null,
            withdrawal_request_id: null,
            distribution_id: id,
            payout_id: payoutId,
            occurred_at: distributedAt,
            created_at: distributedAt,
          });
        }
        const userId = holding.investor.user.id;
        const list = lastPaid.get(userId) ?? [];
        list.push({
          at: dcl.distributedAt + 30 * MINUTE + (id % 600) * 1000,
          type: NotificationType.DISTRIBUTION_DISTRIBUTED,
          title: `${DIST_TYPE_LABEL[dcl.type]} paid`,
          body: `${money(netI)} from ${unit.name} for ${dcl.period} has been paid out.`,
          data: { distributionId: id, payoutId, unitId: unit.id, period: dcl.period },
        });
        if (list.length > 2) list.shift();
        lastPaid.set(userId, list);
      }
    });
    declRows.push({
      id: dcl.id,
      unitId: unit.id,
      period: dcl.period,
      type: dcl.type,
      grossAmount: money(dcl.gross),
      feeRate: pct6(feeRate),
      fees: money(split.fees),
      netAmount: money(split.net),
      retainedAmount: money(split.retained),
      status: dcl.status,
      declaredById: plan.adminId,
      approvedAt: dcl.approvedAt ? d(dcl.approvedAt) : null,
      distributedAt: dcl.distributedAt ? d(dcl.distributedAt) : null,
      createdAt: d(dcl.createdAt),
      updatedAt: d(dcl.updatedAt),
    });
    if (distRows.length >= BULK_BATCH) await flush();
  }
  await flush();
  if (restore.length) {
    onProgress?.(Math.min(done, total), total, 'rebuilding indexes and foreign keys');
    await tx.$executeRawUnsafe(`SET LOCAL maintenance_work_mem = '256MB'`);
    for (const statement of restore) await tx.$executeRawUnsafe(statement);
  }

  // Notifications: the most recent few events per user; older ones are mostly read.
  const noteRows: Prisma.NotificationCreateManyInput[] = [];
  for (const u of plan.users) {
    const list = [...(plan.notes.get(u.id) ?? []), ...(lastPaid.get(u.id) ?? [])].filter((n) => n.at < HORIZON).sort((a, b) => a.at - b.at);
    const keep = list.slice(-notificationCap(u.id));
    for (const n of keep) {
      const old = n.at < HORIZON - 14 * DAY;
      const read = old ? rng.chance(0.85) : rng.chance(0.3);
      noteRows.push({
        id: 0,
        userId: u.id,
        type: n.type,
        title: n.title,
        body: n.body,
        data: n.data,
        readAt: read ? d(Math.min(n.at + rng.int(10, 60 * 48) * MINUTE, HORIZON - MINUTE)) : null,
        createdAt: d(n.at),
      });
    }
  }
  noteRows.sort((a, b) => (a.createdAt as Date).getTime() - (b.createdAt as Date).getTime());
  for (const n of noteRows) n.id = ids.take('notifications');
  const notifications = await write('notifications', noteRows, (c) => create('notifications', c));

  // Legal texts and the app configuration singleton (upserts: the app may have created them).
  const published = d(SHORT_TIMELINE.start - 100 * DAY);
  for (const text of LEGAL_TEXTS) {
    const content = text.paragraphs.join('\n\n');
    await tx.legalText.upsert({
      where: { kind: text.kind },
      create: { kind: text.kind, title: text.title, content, version: '1.0', publishedAt: published, updatedAt: published },
      update: { title: text.title, content, version: '1.0', publishedAt: published },
    });
  }
  progress(LEGAL_TEXTS.length, 'legal texts');
  const config = {
    minInvestment: '500.00',
    maxInvestment: '1000000.00',
    minWithdrawalPercentage: '0.01',
    supportEmail: 'support@demo.test',
    iconOptions: ICON_OPTIONS,
    badgeOptions: BADGE_OPTIONS,
    colorOptions: COLOR_OPTIONS,
    minAppVersion: '2.0.0',
    maintenanceMode: false,
    updatedAt: published,
  };
  await tx.appConfig.upsert({ where: { id: 1 }, create: { id: 1, ...config }, update: config });
  progress(1, 'app config');

  // Sequences continue after the pre-assigned ids.
  for (const t of TABLES) {
    await tx.$executeRawUnsafe(`SELECT setval(pg_get_serial_sequence('"${t}"', 'id'), COALESCE((SELECT MAX(id) FROM "${t}"), 0) + 1, false)`);
  }
  onProgress?.(total, total, 'done');

  return {
    users,
    investors,
    userSettings,
    categories,
    units,
    unitValuations,
    holdings,
    investmentRequests,
    withdrawalRequests,
    distributionDeclarations: plan.declarations.length,
    distributions,
    payouts,
    transactions,
    kycDocuments,
    categoryMemberships,
    notifications,
    legalTexts: LEGAL_TEXTS.length,
    appConfig: 1,
  };
}
