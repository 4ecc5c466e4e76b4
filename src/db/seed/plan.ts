import type { Faker } from '@faker-js/faker';
import type { Prisma } from '../../generated/prisma/client';
import type { DistributionCadence, DistributionStatus, DistributionType, NotificationType, Role, UnitStatus } from '../../generated/prisma/enums';
import type { Decimal } from '../../domain/money';
import type { Random, RandomStream } from './random';
import type { Timeline } from './time';
import type { CategoryDef, City } from './words';

/** The data set planned in memory, with pre-assigned ids, before anything is written (steps: index.ts buildPlan). */

export const TABLES = [
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
export type Table = (typeof TABLES)[number];

/** Each table's highest id when it is empty. */
export const noRows = (): Record<Table, number> => Object.fromEntries(TABLES.map((t) => [t, 0])) as Record<Table, number>;

export class Ids {
  private readonly last: Record<Table, number>;
  constructor(bases: Record<Table, number>) {
    this.last = { ...bases };
  }
  take(table: Table): number {
    return ++this.last[table];
  }
}

export interface PUser {
  id: number;
  name: string;
  email: string;
  phone: string | null;
  role: Role;
  createdAt: number;
  updatedAt: number;
  city: City;
}
export interface PInvestor {
  id: number;
  user: PUser;
  dob: number;
  isDemo: boolean;
  holdings: PHolding[];
  targetHoldings: number;
}
export interface PCategory {
  id: number;
  def: CategoryDef;
  createdAt: number;
}
interface PValuation {
  at: number;
  value: Decimal;
}
export interface PUnit {
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
export interface PHolding {
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
export interface PDeclaration {
  id: number;
  unit: PUnit;
  period: string;
  type: DistributionType;
  cadence: DistributionCadence;
  /** The day it is (or was) to be paid, at 00:00 UTC. */
  scheduledFor: number;
  gross: Decimal;
  status: DistributionStatus;
  createdAt: number;
  approvedAt: number | null;
  distributedAt: number | null;
  updatedAt: number;
  holders: { holding: PHolding; pct: Decimal }[];
  heldPct: Decimal;
}
export interface PNotification {
  at: number;
  type: NotificationType;
  title: string;
  body: string;
  data: Record<string, string | number>;
}

export interface Plan {
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

/** What every planning step draws from (one random stream) and adds to (ids, notifications). */
export interface Planner {
  random: RandomStream;
  seed: number;
  rng: Random;
  fake: Faker;
  ids: Ids;
  tl: Timeline;
  /** Notifications known before the distributions are written, per user id. */
  notes: Map<number, PNotification[]>;
}

/** A planner drawing from stream `seed` of `random`, with no notifications yet. */
export function newPlanner(random: RandomStream, seed: number, tl: Timeline, ids: Ids): Planner {
  const rng = random(seed);
  return { random, seed, rng, fake: rng.faker, ids, tl, notes: new Map() };
}

export function addNote(notes: Map<number, PNotification[]>, userId: number, note: PNotification): void {
  const list = notes.get(userId);
  if (list) list.push(note);
  else notes.set(userId, [note]);
}
