import type { Prisma, PrismaClient } from '../../generated/prisma/client';
import { Role } from '../../generated/prisma/enums';
import { Decimal } from '../../domain/money';
import { BULK_BATCH, bulkCreator, bulkInsert } from './bulk';
import { DISTRIBUTION_COLUMNS, PAYOUT_COLUMNS, TRANSACTION_COLUMNS, fanOutDeclaration, type FanOutRows } from './distributions';
import { money, pct6 } from './holdings';
import {
  TABLES,
  noRows,
  type Ids,
  type PCategory,
  type PHolding,
  type PInvestor,
  type PNotification,
  type Plan,
  type PUnit,
  type PUser,
  type Table,
} from './plan';
import type { Random, RandomStream } from './random';
import { DAY, HORIZON, MINUTE, SHORT_TIMELINE, d } from './time';
import { BADGE_OPTIONS, COLOR_OPTIONS, ICON_OPTIONS, LEGAL_TEXTS } from './words';

export type Db = PrismaClient | Prisma.TransactionClient;

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

/** Rows written so far of all, and the stage writing. */
export type Progress = (done: number, total: number, stage: string) => void;

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

export async function tableBases(db: Db): Promise<Record<Table, number>> {
  const sql = TABLES.map((t) => `SELECT '${t}' AS t, COALESCE(MAX(id), 0)::int AS m FROM "${t}"`).join(' UNION ALL ');
  const rows = await db.$queryRawUnsafe<{ t: Table; m: number }[]>(sql);
  const bases = noRows();
  for (const r of rows) bases[r.t] = Number(r.m);
  return bases;
}

/** Rows written so far against the plan's total (plannedRowCount), reported to onProgress as they are written. */
export class SeedWriter {
  private done = 0;
  constructor(
    readonly total: number,
    private readonly onProgress?: Progress,
  ) {}

  /** Counts `n` more rows written by `stage`, and reports them. */
  add(n: number, stage: string): void {
    this.done += n;
    this.report(stage);
  }

  /** Reports the rows written so far (never more than the total, which counts notifications by an estimate). */
  report(stage: string): void {
    this.onProgress?.(Math.min(this.done, this.total), this.total, stage);
  }

  /** Reports everything written. */
  finish(): void {
    this.onProgress?.(this.total, this.total, 'done');
  }

  /** Writes `rows` through `insert`, `batch` at a time, counting each chunk; returns how many there were. */
  async write<T>(stage: string, rows: T[], insert: (chunk: T[]) => Promise<unknown>, batch = 2000): Promise<number> {
    for (let i = 0; i < rows.length; i += batch) {
      const chunk = rows.slice(i, i + batch);
      await insert(chunk);
      this.add(chunk.length, stage);
    }
    return rows.length;
  }
}

/** How many notifications a user keeps: the demo investor more, everybody fewer in a large data set. */
export function notificationCap(plan: Plan, userId: number): number {
  return userId === plan.demoUserId ? 24 : plan.users.length > 1000 ? 4 : 7;
}

/** At most the notifications written: each user's known ones and two "paid" ones, up to the user's cap. */
export function estimatedNotifications(plan: Plan): number {
  return plan.users.reduce((n, u) => n + Math.min(notificationCap(plan, u.id), (plan.notes.get(u.id)?.length ?? 0) + 2), 0);
}

/** The rows writePlan writes (notifications by their estimate): each user's settings too, each distributed holder's payout and two ledger rows. */
export function plannedRowCount(plan: Plan): number {
  return (
    plan.users.length * 2 +
    plan.investors.length +
    plan.categories.length +
    plan.units.length +
    plan.units.reduce((n, u) => n + u.valuations.length, 0) +
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
    estimatedNotifications(plan) +
    LEGAL_TEXTS.length +
    1
  );
}

/**
 * Writes the plan inside the seed's transaction: every table through bulk inserts, the declarations
 * fanned out in batches, the latest notifications per user, legal texts and the app configuration;
 * then moves the id sequences past the new ids.
 */
export async function writePlan(
  tx: Prisma.TransactionClient,
  plan: Plan,
  random: RandomStream,
  passwordHash: string,
  onProgress?: Progress,
): Promise<SeedSummary> {
  const out = new SeedWriter(plannedRowCount(plan), onProgress);
  const rng = random(0x5eed ^ plan.users.length);
  const create = bulkCreator(tx);
  const written = await writePlannedRows(out, create, plan, rng, passwordHash);
  const fannedOut = await writeDeclarations(tx, out, create, plan);
  const notifications = await out.write('notifications', notificationRows(plan, fannedOut.lastPaid, rng), (c) => create('notifications', c));
  await writeLegalTextsAndConfig(tx, out);
  await moveSequencesPastIds(tx);
  out.finish();
  // In SeedSummary's order: `npm run seed` prints it as it is.
  return {
    users: written.users,
    investors: written.investors,
    userSettings: written.userSettings,
    categories: written.categories,
    units: written.units,
    unitValuations: written.unitValuations,
    holdings: written.holdings,
    investmentRequests: written.investmentRequests,
    withdrawalRequests: written.withdrawalRequests,
    distributionDeclarations: plan.declarations.length,
    distributions: fannedOut.distributions,
    payouts: written.payouts + fannedOut.payouts,
    transactions: written.transactions + fannedOut.transactions,
    kycDocuments: written.kycDocuments,
    categoryMemberships: written.categoryMemberships,
    notifications,
    legalTexts: LEGAL_TEXTS.length,
    appConfig: 1,
  };
}

type Create = ReturnType<typeof bulkCreator>;

/** The plan's rows up to the declarations, table by table (the withdrawal payouts and the ledger so far included). */
async function writePlannedRows(out: SeedWriter, create: Create, plan: Plan, rng: Random, passwordHash: string) {
  const ids = plan.ids;
  return {
    users: await out.write('users', plan.users, (c) =>
      create(
        'users',
        c.map((u) => userRow(u, passwordHash)),
      ),
    ),
    userSettings: await out.write('user settings', plan.users, (c) =>
      create(
        'user_settings',
        c.map((u) => userSettingsRow(u, rng)),
      ),
    ),
    investors: await out.write('investors', plan.investors, (c) => create('investors', c.map(investorRow))),
    categories: await out.write('categories', plan.categories, (c) => create('categories', c.map(categoryRow))),
    units: await out.write('units', plan.units, (c) => create('units', c.map(unitRow))),
    unitValuations: await out.write('unit valuations', valuationRows(plan.units, ids), (c) => create('unit_valuations', c)),
    holdings: await out.write('holdings', plan.holdings, (c) => create('holdings', c.map(holdingRow))),
    investmentRequests: await out.write('investment requests', plan.investmentRequests, (c) => create('investment_requests', c)),
    withdrawalRequests: await out.write('withdrawal requests', plan.withdrawalRequests, (c) => create('withdrawal_requests', c)),
    payouts: await out.write('payouts', plan.withdrawalPayouts, (c) => create('payouts', c)),
    transactions: await out.write('transactions', plan.ledger, (c) => create('transactions', c)),
    kycDocuments: await out.write('kyc documents', plan.kycDocuments, (c) => create('kyc_documents', c)),
    categoryMemberships: await out.write('category memberships', plan.memberships, (c) => create('category_memberships', c)),
  };
}

export function userRow(u: PUser, passwordHash: string): Prisma.UserCreateManyInput {
  return { id: u.id, name: u.name, email: u.email, phone: u.phone, passwordHash, role: u.role, createdAt: d(u.createdAt), updatedAt: d(u.updatedAt) };
}

/** A user's settings: some investors in their city's language and currency, the switches drawn from `rng`. */
export function userSettingsRow(u: PUser, rng: Random): Prisma.UserSettingsCreateManyInput {
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
}

export function investorRow(i: PInvestor): Prisma.InvestorCreateManyInput {
  return {
    id: i.id,
    userId: i.user.id,
    country: i.user.city.country,
    city: i.user.city.city,
    dateOfBirth: d(i.dob),
    createdAt: d(i.user.createdAt),
    updatedAt: d(i.user.updatedAt),
  };
}

export function categoryRow(x: PCategory): Prisma.CategoryCreateManyInput {
  return {
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
  };
}

export function unitRow(u: PUnit): Prisma.UnitCreateManyInput {
  return {
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
  };
}

/** Every unit's valuation history, ids given unit by unit. */
export function valuationRows(units: PUnit[], ids: Ids): Prisma.UnitValuationCreateManyInput[] {
  return units.flatMap((u) => u.valuations.map((v) => ({ id: ids.take('unit_valuations'), unitId: u.id, value: money(v.value), valuedAt: d(v.at) })));
}

export function holdingRow(h: PHolding): Prisma.HoldingCreateManyInput {
  return {
    id: h.id,
    investorId: h.investor.id,
    unitId: h.unit.id,
    ownershipPercentage: pct6(h.pct),
    investedAmount: money(h.invested),
    createdAt: d(h.createdAt),
    updatedAt: d(h.updatedAt),
  };
}

/**
 * The declarations fanned out into distributions (+ payout and ledger rows when distributed), written
 * BULK_BATCH distributions at a time; a large load without the tables' indexes and foreign keys, which
 * are restored after it (dropForBulkLoad). Returns the rows written and each user's last "paid" notifications.
 */
async function writeDeclarations(
  tx: Prisma.TransactionClient,
  out: SeedWriter,
  create: Create,
  plan: Plan,
): Promise<{ distributions: number; payouts: number; transactions: number; lastPaid: Map<number, PNotification[]> }> {
  const restore = plan.distributionCount >= REBUILD_INDEXES_FROM ? await dropForBulkLoad(tx, ['distributions', 'payouts', 'transactions']) : [];
  const lastPaid = new Map<number, PNotification[]>();
  const written = { distributions: 0, payouts: 0, transactions: 0, lastPaid };
  let rows: FanOutRows = { declarations: [], distributions: [], payouts: [], transactions: [] };
  const flush = async () => {
    if (rows.declarations.length) {
      await create('distribution_declarations', rows.declarations);
      out.add(rows.declarations.length, 'distribution declarations');
    }
    // The hot path bypasses createMany (its per-row client work is ~10× slower; see bulkInsert).
    written.distributions += await out.write('distributions', rows.distributions, (c) => bulkInsert(tx, 'distributions', DISTRIBUTION_COLUMNS, c), BULK_BATCH);
    written.payouts += await out.write('distribution payouts', rows.payouts, (c) => bulkInsert(tx, 'payouts', PAYOUT_COLUMNS, c), BULK_BATCH);
    written.transactions += await out.write(
      'distribution transactions',
      rows.transactions,
      (c) => bulkInsert(tx, 'transactions', TRANSACTION_COLUMNS, c),
      BULK_BATCH,
    );
    rows = { declarations: [], distributions: [], payouts: [], transactions: [] };
  };
  for (const dcl of plan.declarations) {
    fanOutDeclaration(dcl, plan.ids, plan.adminId, rows, lastPaid);
    if (rows.distributions.length >= BULK_BATCH) await flush();
  }
  await flush();
  if (restore.length) {
    out.report('rebuilding indexes and foreign keys');
    await tx.$executeRawUnsafe(`SET LOCAL maintenance_work_mem = '256MB'`);
    for (const statement of restore) await tx.$executeRawUnsafe(statement);
  }
  return written;
}

/**
 * Notifications: each user's most recent few events up to HORIZON (notificationCap), of which older
 * ones are mostly read; ids in creation order.
 */
export function notificationRows(plan: Plan, lastPaid: Map<number, PNotification[]>, rng: Random): Prisma.NotificationCreateManyInput[] {
  const rows: Prisma.NotificationCreateManyInput[] = [];
  for (const u of plan.users) {
    const list = [...(plan.notes.get(u.id) ?? []), ...(lastPaid.get(u.id) ?? [])].filter((n) => n.at < HORIZON).sort((a, b) => a.at - b.at);
    for (const n of list.slice(-notificationCap(plan, u.id))) {
      const old = n.at < HORIZON - 14 * DAY;
      const read = old ? rng.chance(0.85) : rng.chance(0.3);
      rows.push({
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
  rows.sort((a, b) => (a.createdAt as Date).getTime() - (b.createdAt as Date).getTime());
  for (const n of rows) n.id = plan.ids.take('notifications');
  return rows;
}

/** Legal texts and the app configuration singleton (upserts: the app may have created them). */
async function writeLegalTextsAndConfig(tx: Prisma.TransactionClient, out: SeedWriter): Promise<void> {
  const published = d(SHORT_TIMELINE.start - 100 * DAY);
  for (const text of LEGAL_TEXTS) {
    const content = text.paragraphs.join('\n\n');
    await tx.legalText.upsert({
      where: { kind: text.kind },
      create: { kind: text.kind, title: text.title, content, version: '1.0', publishedAt: published, updatedAt: published },
      update: { title: text.title, content, version: '1.0', publishedAt: published },
    });
  }
  out.add(LEGAL_TEXTS.length, 'legal texts');
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
  out.add(1, 'app config');
}

/** Sequences continue after the pre-assigned ids. */
async function moveSequencesPastIds(tx: Prisma.TransactionClient): Promise<void> {
  for (const t of TABLES) {
    await tx.$executeRawUnsafe(`SELECT setval(pg_get_serial_sequence('"${t}"', 'id'), COALESCE((SELECT MAX(id) FROM "${t}"), 0) + 1, false)`);
  }
}
