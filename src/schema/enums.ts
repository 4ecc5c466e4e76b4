import { registerEnumType } from 'type-graphql';
import * as E from '../generated/prisma/enums';

type EnumDocs = { description: string; values: Record<string, string> };

/**
 * The database enums, exposed to GraphQL under the same names and values, each value described.
 * Enums no GraphQL field uses (push and idempotency states) are never emitted, so need no words.
 */
const docs: Partial<Record<keyof typeof E, EnumDocs>> = {
  Role: {
    description: 'investor: own data only; analyst: reads across investors, mutates nothing; admin: the back-office.',
    values: {
      INVESTOR: 'Sees and changes only their own records.',
      ADMIN: 'Back office: reads everything and drives every review and state change.',
      ANALYST: 'Reads every investor’s records and the aggregates; changes nothing in the domain.',
    },
  },
  UnitStatus: {
    description: 'DRAFT → AVAILABLE → FUNDED → CLOSED (also AVAILABLE → CLOSED, FUNDED → AVAILABLE).',
    values: {
      DRAFT: 'Being prepared; visible to staff only.',
      AVAILABLE: 'Listed and open for investment requests.',
      FUNDED: 'Sold out: no share left for sale.',
      CLOSED: 'No longer traded; holdings and history remain.',
    },
  },
  InvestmentRequestStatus: {
    description: 'PENDING → APPROVED | REJECTED | CANCELLED.',
    values: {
      PENDING: 'Waiting for an admin; counts against the unit’s availability.',
      APPROVED: 'Accepted: the holding grew and an INVESTMENT entry was recorded.',
      REJECTED: 'Refused by an admin, with a reason.',
      CANCELLED: 'Withdrawn by the investor before review.',
    },
  },
  WithdrawalRequestStatus: {
    description: 'PENDING → APPROVED → COMPLETED, or REJECTED | CANCELLED.',
    values: {
      PENDING: 'Waiting for an admin; counts against the holding.',
      APPROVED: 'Accepted: the share went back to the unit and a PENDING payout was created.',
      COMPLETED: 'The money was sent; the payout is PAID.',
      REJECTED: 'Refused by an admin, with a reason.',
      CANCELLED: 'Withdrawn by the investor before review.',
    },
  },
  DistributionType: {
    description: 'The kind of profit a declaration distributes.',
    values: {
      RENTAL_INCOME: 'Rent collected from the asset.',
      CAPITAL_GAIN: 'Gain from selling (part of) the asset.',
      DIVIDEND: 'Dividend paid by the asset’s company.',
      INTEREST: 'Interest earned by the asset.',
    },
  },
  DistributionCadence: {
    description: 'How often a unit pays its profit: the REST face answers it as a distribution’s `type`.',
    values: {
      MONTHLY: 'Paid every month (its period is the quarter the month falls in).',
      QUARTERLY: 'Paid every quarter.',
      SEMI_ANNUAL: 'Paid every half year.',
      ANNUAL: 'Paid once a year.',
      SPECIAL: 'A one-off payment outside the unit’s usual cadence.',
    },
  },
  DistributionStatus: {
    description: 'PENDING → APPROVED → DISTRIBUTED, or CANCELLED.',
    values: {
      PENDING: 'Declared, waiting for approval.',
      APPROVED: 'Approved, not yet paid out.',
      DISTRIBUTED: 'Paid out: a payout and a ledger entry exist per holder.',
      CANCELLED: 'Cancelled before it was paid out; nothing is paid.',
    },
  },
  PayoutStatus: {
    description: 'PENDING → PAID, or PENDING → FAILED → PAID.',
    values: {
      PENDING: 'Waiting for the bank transfer.',
      PAID: 'The transfer was made; a PAYOUT ledger entry exists.',
      FAILED: 'The transfer did not go through; it can still be marked paid.',
    },
  },
  PayoutSource: {
    description: 'Why a payout is owed.',
    values: { DISTRIBUTION: 'A distributed distribution: profit.', WITHDRAWAL: 'An approved withdrawal request: capital returned, not profit.' },
  },
  TransactionType: {
    description: 'The kind of money movement of a ledger entry (amounts are always positive).',
    values: {
      INVESTMENT: 'Money invested in a unit (an approved investment request).',
      WITHDRAWAL: 'A share sold back to the unit (an approved withdrawal request).',
      DISTRIBUTION: 'Profit credited to the investor (a distributed distribution).',
      PAYOUT: 'Money sent to the investor’s bank account (a paid payout).',
    },
  },
  KycDocumentType: {
    description: 'What an uploaded KYC document is.',
    values: {
      PASSPORT: 'Passport.',
      NATIONAL_ID: 'National identity card.',
      DRIVING_LICENSE: 'Driving licence.',
      PROOF_OF_ADDRESS: 'Proof of address, e.g. a utility bill.',
      BANK_STATEMENT: 'Bank statement.',
      OTHER: 'Any other supporting document.',
    },
  },
  KycDocumentStatus: {
    description: 'PENDING → APPROVED | REJECTED.',
    values: {
      PENDING: 'Waiting for review by an admin.',
      APPROVED: 'Accepted; the investor is verified.',
      REJECTED: 'Refused, with a reason shown to the investor.',
    },
  },
  MembershipStatus: {
    description: 'ACTIVE ⇄ CANCELLED: joining a category again reactivates the membership.',
    values: { ACTIVE: 'The investor hears of new units in the category.', CANCELLED: 'The investor left the category.' },
  },
  NotificationType: {
    description: 'The event a notification tells of; it decides which settings switch lets it be pushed.',
    values: {
      INVESTMENT_REQUEST_REVIEWED: 'An investment request was approved or rejected (data: investmentRequestId, unitId, status).',
      WITHDRAWAL_REQUEST_REVIEWED: 'A withdrawal request was approved or rejected (data: withdrawalRequestId, unitId, status).',
      WITHDRAWAL_COMPLETED: 'The money of a withdrawal was sent (data: withdrawalRequestId, payoutId).',
      DISTRIBUTION_DISTRIBUTED: 'A distribution was paid out to the investor (data: distributionId, payoutId, unitId, period).',
      PAYOUT_PAID: 'A payout was sent to the bank account (data: payoutId, unitId, reference).',
      KYC_REVIEWED: 'A KYC document was approved or rejected (data: kycDocumentId, documentType, status).',
      NEW_UNIT_IN_CATEGORY: 'A unit was listed in a category the investor is a member of (data: unitId, categoryId).',
      SYSTEM: 'Any other message from the platform, e.g. a failed payout; pushed whenever push is enabled.',
    },
  },
  DevicePlatform: {
    description: 'The platform of a device that receives push notifications.',
    values: { IOS: 'Apple iOS app.', ANDROID: 'Android app.', WEB: 'Web browser (web push).' },
  },
  LegalTextKind: {
    description: 'Which legal text.',
    values: {
      PRIVACY_POLICY: 'The privacy policy.',
      TERMS_OF_SERVICE: 'The terms of service.',
      INVESTMENT_DISCLAIMER: 'The investment risk disclaimer (also printed on statements).',
    },
  },
};

for (const [name, values] of Object.entries(E)) {
  const doc = docs[name as keyof typeof E];
  registerEnumType(values as object, {
    name,
    description: doc?.description,
    valuesConfig: Object.fromEntries(Object.entries(doc?.values ?? {}).map(([v, d]) => [v, { description: d }])),
  });
}

export * from '../generated/prisma/enums';
