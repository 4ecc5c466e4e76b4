import { createHash } from 'node:crypto';
import type { Faker } from '@faker-js/faker';
import type { Prisma } from '../../generated/prisma/client';
import { DistributionStatus, KycDocumentStatus, KycDocumentType, NotificationType, Role, WithdrawalRequestStatus } from '../../generated/prisma/enums';
import { present } from '../../platform/invariant';
import { addNote, type PDeclaration, type PInvestor, type Planner, type PUser } from './plan';
import { DAY, HORIZON, HOUR, LAST_PERIOD, MINUTE, d } from './time';
import { CITIES } from './words';

/** People: staff, investors and prospects, their identity documents and their system notifications. */

export const DEMO_PASSWORD = 'Password123!';
export const DEMO_EMAILS = { investor: 'investor@demo.test', admin: 'admin@demo.test', analyst: 'analyst@demo.test' };

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

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

export interface People {
  admin: PUser;
  analyst: PUser;
  demoUser: PUser;
  demoCreated: number;
  /** Every user (staff first), and every investor (the demo investor first). */
  users: PUser[];
  investors: PInvestor[];
  demo: PInvestor;
  /** E-mails taken so far. */
  emails: Set<string>;
}

/** The demo staff and investor, and `investorCount` generated investors (early adopters over-represented). */
export function planPeople(p: Planner, investorCount: number): People {
  const { rng, fake, ids, tl } = p;
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
  return { admin, analyst, demoUser, demoCreated, users, investors, demo, emails };
}

export interface Kyc {
  kycDocuments: Prisma.KycDocumentCreateManyInput[];
  addKyc(inv: PInvestor, type: KycDocumentType, status: KycDocumentStatus, createdAt: number, reviewBy?: number): void;
}

/** Identity documents: approved before anyone's first request (money moves only for a verified identity). */
export function planKyc(
  p: Planner,
  people: People,
  adminId: number,
  investmentRequests: Prisma.InvestmentRequestCreateManyInput[],
  withdrawalRequests: Prisma.WithdrawalRequestCreateManyInput[],
): Kyc {
  const { rng, fake, ids, notes } = p;
  const { demo, demoCreated, investors } = people;
  const kycDocuments: Prisma.KycDocumentCreateManyInput[] = [];
  const keys = new Set<string>();
  // Money moves only for a verified identity: whoever has a request was approved before the first one.
  const firstRequestAt = new Map<number, number>();
  for (const r of [...investmentRequests, ...withdrawalRequests]) {
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
      reviewedById: reviewedAt ? adminId : null,
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
  return { kycDocuments, addKyc };
}

/**
 * Prospects: signed up recently, no request yet, identity not (yet) verified. Every investor above
 * holds units, so KYC-approved; these show the other KYC states. Their own random stream leaves the
 * data above unchanged.
 */
export function planProspects(p: Planner, investorCount: number, people: People, kyc: Kyc): void {
  const { random, seed, ids } = p;
  const { users, investors, emails } = people;
  const { kycDocuments, addKyc } = kyc;
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
}

/** Staff notifications, and everyone's welcome. */
export function planSystemNotes(p: Planner, people: People, declarations: PDeclaration[], withdrawalRequests: Prisma.WithdrawalRequestCreateManyInput[]): void {
  const { notes } = p;
  const { admin, analyst, investors } = people;
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
    body: `${withdrawalRequests.filter((w) => w.status === WithdrawalRequestStatus.PENDING).length} withdrawal requests are pending review.`,
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
}
