import { registerEnumType } from 'type-graphql';
import * as E from '../generated/prisma/enums';

/** The database enums, exposed to GraphQL under the same names and values. */
const descriptions: Partial<Record<keyof typeof E, string>> = {
  Role: 'investor: own data only; analyst: reads across investors, mutates nothing; admin: the back-office.',
  DistributionStatus: 'PENDING → APPROVED → DISTRIBUTED, or CANCELLED.',
  WithdrawalRequestStatus: 'PENDING → APPROVED → COMPLETED, or REJECTED | CANCELLED.',
  InvestmentRequestStatus: 'PENDING → APPROVED | REJECTED | CANCELLED.',
};

for (const [name, values] of Object.entries(E)) {
  registerEnumType(values as object, { name, description: descriptions[name as keyof typeof E] });
}

export * from '../generated/prisma/enums';
