import type { Prisma, PrismaClient } from '../../generated/prisma/client';
import { Role } from '../../generated/prisma/enums';
import { Decimal } from '../../domain/money';
import { BULK_BATCH, bulkCreator, bulkInsert } from './bulk';
import { DISTRIBUTION_COLUMNS, PAYOUT_COLUMNS, TRANSACTION_COLUMNS, fanOutDeclaration, type FanOutRows } from './distributions';
import { money, pct6 } from './holdings';
import { TABLES, type PNotification, type Plan, type Table } from './plan';
import type { RandomStream } from './random';
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
  const bases = Object.fromEntries(TABLES.map((t) => [t, 0])) as Record<Table, number>;
  for (const r of rows) bases[r.t] = Number(r.m);
  return bases;
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
  let rows: FanOutRows = { declarations: [], distributions: [], payouts: [], transactions: [] };
  let distributions = 0;
  const flush = async () => {
    if (rows.declarations.length) {
      await create('distribution_declarations', rows.declarations);
      progress(rows.declarations.length, 'distribution declarations');
    }
    // The hot path bypasses createMany (its per-row client work is ~10× slower; see bulkInsert).
    await write('distributions', rows.distributions, (c) => bulkInsert(tx, 'distributions', DISTRIBUTION_COLUMNS, c), BULK_BATCH);
    await write('distribution payouts', rows.payouts, (c) => bulkInsert(tx, 'payouts', PAYOUT_COLUMNS, c), BULK_BATCH);
    await write('distribution transactions', rows.transactions, (c) => bulkInsert(tx, 'transactions', TRANSACTION_COLUMNS, c), BULK_BATCH);
    distributions += rows.distributions.length;
    payouts += rows.payouts.length;
    transactions += rows.transactions.length;
    rows = { declarations: [], distributions: [], payouts: [], transactions: [] };
  };
  for (const dcl of plan.declarations) {
    fanOutDeclaration(dcl, ids, plan.adminId, rows, lastPaid);
    if (rows.distributions.length >= BULK_BATCH) await flush();
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
