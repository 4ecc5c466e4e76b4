import type { PrismaClient } from '../../generated/prisma/client';
import { hashPassword, verifyPassword } from '../../domain/password';
import { planDeclarations } from './distributions';
import { planHoldings, planInvestments, planOtherRequests, planPurchases, planWithdrawals, settleHoldings } from './holdings';
import { DEMO_EMAILS, DEMO_PASSWORD, planKyc, planPeople, planProspects, planSystemNotes } from './people';
import { Ids, newPlanner, type Plan } from './plan';
import { fakerStreams, type RandomStream } from './random';
import { LONG_TIMELINE, SHORT_TIMELINE, type Timeline } from './time';
import { planMemberships, planUnits } from './units';
import { tableBases, writePlan, type Db, type Progress, type SeedSummary } from './write';

/**
 * Demo-data generator. Its parts, by what they make: words.ts (places, category kinds, legal texts),
 * units.ts (categories, units, valuations, memberships), people.ts (staff, investors, prospects,
 * KYC documents, system notifications), holdings.ts (holdings, investment and withdrawal requests,
 * through the money rules), distributions.ts (declarations, their fan-out and payouts), time.ts and
 * random.ts (the fixed clock, the seeded streams), plan.ts (the plan's shape and ids), bulk.ts and
 * write.ts (insertion); buildPlan below runs the steps in their order.
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
 * - A unit pays on its category's cadence (words.ts), now and then with a SPECIAL one-off capital
 *   gain; each declaration is scheduled for the 15th of the month after the months it pays for, and
 *   was paid at 10:00 UTC that day unless it is for LAST_PERIOD's last months (still under review).
 * - Transactions carry positive amounts; the type gives the direction.
 */

export { DEMO_EMAILS, DEMO_PASSWORD };

export interface SeedOptions {
  /** Generated investors besides the demo investor (default 200). */
  investors?: number;
  /** Generate more investors / quarters until at least this many Distribution rows exist. */
  distributionsTarget?: number;
  /** Faker seed (default 42): the same seed (and faker version, pinned) gives the same data. */
  seed?: number;
  onProgress?: Progress;
}

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

/** The plan, step by step: each step draws from the one random stream, in this order (the same seed gives the same plan). */
export function buildPlan(random: RandomStream, seed: number, investorCount: number, tl: Timeline, ids: Ids): Plan {
  const p = newPlanner(random, seed, tl, ids);
  const { categories, units } = planUnits(p, investorCount);
  const people = planPeople(p, investorCount);
  const { admin, demo, investors } = people;
  const { holdings, openUnits, demoUnits } = planHoldings(p, units, investors, demo);
  const { investmentRequests, ledger } = planInvestments(p, planPurchases(p, openUnits, demoUnits), admin.id);
  const { withdrawalRequests, withdrawalPayouts } = planWithdrawals(p, demo, holdings, admin.id, ledger);
  settleHoldings(holdings, units);
  const allRequests = planOtherRequests(p, units, investors, demo, admin.id, investmentRequests, ledger);
  const kyc = planKyc(p, people, admin.id, allRequests, withdrawalRequests);
  const memberships = planMemberships(p, demo, people.demoCreated, investors, categories, units);
  const { declarations, distributionCount, distributedCount } = planDeclarations(p, openUnits);
  planProspects(p, investorCount, people, kyc);
  planSystemNotes(p, people, declarations, withdrawalRequests);

  return {
    users: people.users,
    investors,
    categories,
    units,
    holdings,
    investmentRequests: allRequests,
    withdrawalRequests,
    withdrawalPayouts,
    ledger,
    kycDocuments: kyc.kycDocuments,
    memberships,
    declarations,
    distributionCount,
    distributedCount,
    notes: p.notes,
    adminId: admin.id,
    demoUserId: people.demoUser.id,
    ids,
  };
}

export async function seedDemoData(prisma: PrismaClient, options: SeedOptions = {}): Promise<SeedSummary> {
  const investorCount = Math.max(0, Math.floor(options.investors ?? 200));
  const seed = options.seed ?? 42;
  const target = options.distributionsTarget ?? 0;
  if (await isSeeded(prisma)) throw new Error('seedDemoData: the database already holds the demo data');
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const random = await fakerStreams();

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
