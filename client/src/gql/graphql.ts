/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** Needs an approved KYC status and a holding that covers the share with the pending requests (CONFLICT otherwise). */
export type CreateWithdrawalRequestInput = {
  /** Share of the unit to withdraw, in percent (0 < p ≤ 100, up to 6 places). */
  ownershipPercentage: string;
  /** Why the investor withdraws, 1..1000 characters. */
  reason: string;
  /** The unit held. */
  unitId: number;
};

/** How often a unit pays its profit: the REST face answers it as a distribution’s `type`. */
export type DistributionCadence =
  /** Paid once a year. */
  | 'ANNUAL'
  /** Paid every month (its period is the quarter the month falls in). */
  | 'MONTHLY'
  /** Paid every quarter. */
  | 'QUARTERLY'
  /** Paid every half year. */
  | 'SEMI_ANNUAL'
  /** A one-off payment outside the unit’s usual cadence. */
  | 'SPECIAL';

/** All optional; `from`/`to` are inclusive UTC dates on paymentDate. */
export type DistributionFilter = {
  /** Only distributions of this cadence (REST: `type`). */
  cadence?: DistributionCadence | null | undefined;
  /** First UTC date (inclusive) of paymentDate. */
  from?: string | null | undefined;
  /** Staff only; investors always see their own. */
  investorId?: number | null | undefined;
  /** Only this quarter, e.g. "2026-Q1". */
  period?: string | null | undefined;
  /** Only distributions of this kind of profit. */
  profitKind?: DistributionType | null | undefined;
  /** Only distributions in this status. */
  status?: DistributionStatus | null | undefined;
  /** Last UTC date (inclusive) of paymentDate. */
  to?: string | null | undefined;
  /**
   * Only distributions of this kind of profit.
   * @deprecated Use profitKind (the same value). The REST face's `type` is cadence. Removal no earlier than 2.0.0.
   */
  type?: DistributionType | null | undefined;
  /** Only distributions of this unit. */
  unitId?: number | null | undefined;
};

/** PENDING → APPROVED → DISTRIBUTED, or CANCELLED. */
export type DistributionStatus =
  /** Approved, not yet paid out. */
  | 'APPROVED'
  /** Cancelled before it was paid out; nothing is paid. */
  | 'CANCELLED'
  /** Paid out: a payout and a ledger entry exist per holder. */
  | 'DISTRIBUTED'
  /** Declared, waiting for approval. */
  | 'PENDING';

/** The kind of profit a declaration distributes. */
export type DistributionType =
  /** Gain from selling (part of) the asset. */
  | 'CAPITAL_GAIN'
  /** Dividend paid by the asset’s company. */
  | 'DIVIDEND'
  /** Interest earned by the asset. */
  | 'INTEREST'
  /** Rent collected from the asset. */
  | 'RENTAL_INCOME';

/** PENDING → APPROVED | REJECTED | CANCELLED. */
export type InvestmentRequestStatus =
  /** Accepted: the holding grew and an INVESTMENT entry was recorded. */
  | 'APPROVED'
  /** Withdrawn by the investor before review. */
  | 'CANCELLED'
  /** Waiting for an admin; counts against the unit’s availability. */
  | 'PENDING'
  /** Refused by an admin, with a reason. */
  | 'REJECTED';

/** PENDING → APPROVED | REJECTED. */
export type KycDocumentStatus =
  /** Accepted; the investor is verified. */
  | 'APPROVED'
  /** Waiting for review by an admin. */
  | 'PENDING'
  /** Refused, with a reason shown to the investor. */
  | 'REJECTED';

/** What an uploaded KYC document is. */
export type KycDocumentType =
  /** Bank statement. */
  | 'BANK_STATEMENT'
  /** Driving licence. */
  | 'DRIVING_LICENSE'
  /** National identity card. */
  | 'NATIONAL_ID'
  /** Any other supporting document. */
  | 'OTHER'
  /** Passport. */
  | 'PASSPORT'
  /** Proof of address, e.g. a utility bill. */
  | 'PROOF_OF_ADDRESS';

/** Derived from the KYC documents: APPROVED if any is approved, else PENDING if any is pending, else REJECTED if any is rejected, else NOT_SUBMITTED. */
export type KycStatus =
  /** Verified: the investor may invest and withdraw. */
  | 'APPROVED'
  /** No document uploaded yet. */
  | 'NOT_SUBMITTED'
  /** Documents wait for review; investing and withdrawing are refused (CONFLICT). */
  | 'PENDING'
  /** None approved or pending, at least one rejected: the investor should upload another. */
  | 'REJECTED';

/** The event a notification tells of; it decides which settings switch lets it be pushed. */
export type NotificationType =
  /** A distribution was paid out to the investor (data: distributionId, payoutId, unitId, period). */
  | 'DISTRIBUTION_DISTRIBUTED'
  /** An investment request was approved or rejected (data: investmentRequestId, unitId, status). */
  | 'INVESTMENT_REQUEST_REVIEWED'
  /** A KYC document was approved or rejected (data: kycDocumentId, documentType, status). */
  | 'KYC_REVIEWED'
  /** A unit was listed in a category the investor is a member of (data: unitId, categoryId). */
  | 'NEW_UNIT_IN_CATEGORY'
  /** A payout was sent to the bank account (data: payoutId, unitId, reference). */
  | 'PAYOUT_PAID'
  /** Any other message from the platform, e.g. a failed payout; pushed whenever push is enabled. */
  | 'SYSTEM'
  /** The money of a withdrawal was sent (data: withdrawalRequestId, payoutId). */
  | 'WITHDRAWAL_COMPLETED'
  /** A withdrawal request was approved or rejected (data: withdrawalRequestId, unitId, status). */
  | 'WITHDRAWAL_REQUEST_REVIEWED';

/** investor: own data only; analyst: reads across investors, mutates nothing; admin: the back-office. */
export type Role =
  /** Back office: reads everything and drives every review and state change. */
  | 'ADMIN'
  /** Reads every investor’s records and the aggregates; changes nothing in the domain. */
  | 'ANALYST'
  /** Sees and changes only their own records. */
  | 'INVESTOR';

/** All optional and combined with AND. */
export type WithdrawalRequestFilter = {
  /** Staff only; investors always see their own. */
  investorId?: number | null | undefined;
  /** Only requests in this status (PENDING: the review queue). */
  status?: WithdrawalRequestStatus | null | undefined;
  /** Only requests for this unit. */
  unitId?: number | null | undefined;
};

/** PENDING → APPROVED → COMPLETED, or REJECTED | CANCELLED. */
export type WithdrawalRequestStatus =
  /** Accepted: the share went back to the unit and a PENDING payout was created. */
  | 'APPROVED'
  /** Withdrawn by the investor before review. */
  | 'CANCELLED'
  /** The money was sent; the payout is PAID. */
  | 'COMPLETED'
  /** Waiting for an admin; counts against the holding. */
  | 'PENDING'
  /** Refused by an admin, with a reason. */
  | 'REJECTED';

export type SessionFieldsFragment = { accessToken: string, refreshToken: string, tokenType: string, expiresIn: number, user: { id: number, name: string, email: string, role: Role, investorId: number | null } };

export type LoginMutationVariables = Exact<{
  email: string;
  password: string;
  deviceName?: string | null | undefined;
}>;


export type LoginMutation = { login: { accessToken: string, refreshToken: string, tokenType: string, expiresIn: number, user: { id: number, name: string, email: string, role: Role, investorId: number | null } } };

export type RefreshSessionMutationVariables = Exact<{
  refreshToken: string;
}>;


export type RefreshSessionMutation = { refreshToken: { accessToken: string, refreshToken: string, tokenType: string, expiresIn: number, user: { id: number, name: string, email: string, role: Role, investorId: number | null } } };

export type PendingInvestmentRequestsQueryVariables = Exact<{
  page?: number | null | undefined;
  perPage?: number | null | undefined;
}>;


export type PendingInvestmentRequestsQuery = { investmentRequests: { items: Array<{ id: number, unitId: number, investorId: number, amount: string, ownershipPercentage: string, status: InvestmentRequestStatus, createdAt: string, unit: { id: number, code: string, name: string } }>, pageInfo: { currentPage: number, perPage: number, total: number, lastPage: number, hasNextPage: boolean, hasPreviousPage: boolean } } };

export type PendingWithdrawalRequestsQueryVariables = Exact<{
  page?: number | null | undefined;
  perPage?: number | null | undefined;
}>;


export type PendingWithdrawalRequestsQuery = { withdrawalRequests: { items: Array<{ id: number, unitId: number, investorId: number, ownershipPercentage: string, investedAmount: string, reason: string, status: WithdrawalRequestStatus, rejectionReason: string | null, createdAt: string, updatedAt: string, unit: { id: number, code: string, name: string } }>, pageInfo: { currentPage: number, perPage: number, total: number, lastPage: number, hasNextPage: boolean, hasPreviousPage: boolean } } };

export type PendingKycReviewsQueryVariables = Exact<{
  investorId?: number | null | undefined;
}>;


export type PendingKycReviewsQuery = { kycDocuments: Array<{ id: number, investorId: number, documentType: KycDocumentType, status: KycDocumentStatus, mimeType: string, sizeBytes: number, createdAt: string }> };

export type DistributionsQueryVariables = Exact<{
  page?: number | null | undefined;
  perPage?: number | null | undefined;
  filter?: DistributionFilter | null | undefined;
}>;


export type DistributionsQuery = { distributions: { items: Array<{ id: number, unitId: number, unitName: string, period: string, profitKind: DistributionType, cadence: DistributionCadence, ownershipPercentage: string, grossAmount: string, fees: string, netAmount: string, status: DistributionStatus, scheduledFor: string, paidAt: string | null, paymentDate: string, createdAt: string }>, pageInfo: { currentPage: number, perPage: number, total: number, lastPage: number, hasNextPage: boolean, hasPreviousPage: boolean } } };

export type NotificationAddedSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type NotificationAddedSubscription = { notificationAdded: { id: number, type: NotificationType, title: string, body: string, data: Record<string, unknown>, readAt: string | null, createdAt: string } };

export type InvestmentRequestUpdatedSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type InvestmentRequestUpdatedSubscription = { investmentRequestUpdated: { id: number, unitId: number, investorId: number, amount: string, ownershipPercentage: string, status: InvestmentRequestStatus, rejectionReason: string | null, reviewedAt: string | null, updatedAt: string, unit: { id: number, code: string, name: string } } };

export type WithdrawalRequestUpdatedSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type WithdrawalRequestUpdatedSubscription = { withdrawalRequestUpdated: { id: number, unitId: number, investorId: number, ownershipPercentage: string, investedAmount: string, reason: string, status: WithdrawalRequestStatus, rejectionReason: string | null, createdAt: string, updatedAt: string, unit: { id: number, code: string, name: string } } };

export type KycStatusChangedSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type KycStatusChangedSubscription = { kycStatusChanged: { status: KycStatus, documentsCount: number, approvedCount: number, pendingCount: number, rejectedCount: number, lastReviewedAt: string | null } };

export type NotificationItemFragment = { id: number, type: NotificationType, title: string, body: string, data: Record<string, unknown>, readAt: string | null, createdAt: string };

export type NotificationListQueryVariables = Exact<{
  page?: number | null | undefined;
  perPage?: number | null | undefined;
  unread?: boolean | null | undefined;
}>;


export type NotificationListQuery = { unreadNotificationCount: number, notifications: { items: Array<{ id: number, type: NotificationType, title: string, body: string, data: Record<string, unknown>, readAt: string | null, createdAt: string }>, pageInfo: { currentPage: number, perPage: number, total: number, lastPage: number, hasNextPage: boolean, hasPreviousPage: boolean } } };

export type ReadNotificationMutationVariables = Exact<{
  id: number;
}>;


export type ReadNotificationMutation = { markNotificationRead: { id: number, type: NotificationType, title: string, body: string, data: Record<string, unknown>, readAt: string | null, createdAt: string } };

export type ReadAllNotificationsMutationVariables = Exact<{ [key: string]: never; }>;


export type ReadAllNotificationsMutation = { markAllNotificationsRead: number };

export type PageFieldsFragment = { currentPage: number, perPage: number, total: number, lastPage: number, hasNextPage: boolean, hasPreviousPage: boolean };

export type PortfolioQueryVariables = Exact<{ [key: string]: never; }>;


export type PortfolioQuery = { portfolio: { investorId: number, holdingsCount: number, totalInvested: string, currentValue: string, returnAmount: string, returnPercentage: string, holdings: Array<{ id: number, ownershipPercentage: string, investedAmount: string, unitValue: string, currentValue: string, returnAmount: string, returnPercentage: string, unit: { id: number, code: string, name: string } }> } };

export type WithdrawalFieldsFragment = { id: number, unitId: number, investorId: number, ownershipPercentage: string, investedAmount: string, reason: string, status: WithdrawalRequestStatus, rejectionReason: string | null, createdAt: string, updatedAt: string, unit: { id: number, code: string, name: string } };

export type WithdrawalRequestsQueryVariables = Exact<{
  page?: number | null | undefined;
  perPage?: number | null | undefined;
  filter?: WithdrawalRequestFilter | null | undefined;
}>;


export type WithdrawalRequestsQuery = { withdrawalRequests: { items: Array<{ id: number, unitId: number, investorId: number, ownershipPercentage: string, investedAmount: string, reason: string, status: WithdrawalRequestStatus, rejectionReason: string | null, createdAt: string, updatedAt: string, unit: { id: number, code: string, name: string } }>, pageInfo: { currentPage: number, perPage: number, total: number, lastPage: number, hasNextPage: boolean, hasPreviousPage: boolean } } };

export type CreateWithdrawalMutationVariables = Exact<{
  input: CreateWithdrawalRequestInput;
}>;


export type CreateWithdrawalMutation = { createWithdrawalRequest: { id: number, unitId: number, investorId: number, ownershipPercentage: string, investedAmount: string, reason: string, status: WithdrawalRequestStatus, rejectionReason: string | null, createdAt: string, updatedAt: string, unit: { id: number, code: string, name: string } } };

export type CancelWithdrawalMutationVariables = Exact<{
  id: number;
}>;


export type CancelWithdrawalMutation = { cancelWithdrawalRequest: { id: number, unitId: number, investorId: number, ownershipPercentage: string, investedAmount: string, reason: string, status: WithdrawalRequestStatus, rejectionReason: string | null, createdAt: string, updatedAt: string, unit: { id: number, code: string, name: string } } };

export const SessionFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AuthPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"accessToken"}},{"kind":"Field","name":{"kind":"Name","value":"refreshToken"}},{"kind":"Field","name":{"kind":"Name","value":"tokenType"}},{"kind":"Field","name":{"kind":"Name","value":"expiresIn"}},{"kind":"Field","name":{"kind":"Name","value":"user"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"investorId"}}]}}]}}]} as unknown as DocumentNode<SessionFieldsFragment, unknown>;
export const NotificationItemFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"NotificationItem"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Notification"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"body"}},{"kind":"Field","name":{"kind":"Name","value":"data"}},{"kind":"Field","name":{"kind":"Name","value":"readAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]} as unknown as DocumentNode<NotificationItemFragment, unknown>;
export const PageFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentPage"}},{"kind":"Field","name":{"kind":"Name","value":"perPage"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"lastPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}}]}}]} as unknown as DocumentNode<PageFieldsFragment, unknown>;
export const WithdrawalFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WithdrawalFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WithdrawalRequest"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"unitId"}},{"kind":"Field","name":{"kind":"Name","value":"investorId"}},{"kind":"Field","name":{"kind":"Name","value":"ownershipPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"investedAmount"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"rejectionReason"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"unit"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<WithdrawalFieldsFragment, unknown>;
export const LoginDocument = {"__meta__":{"hash":"sha256:aa0c0ab177b0fbc6ac0089ac06cb208c758c84266aadcde1803cce91e1932dbe"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"Login"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"email"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"password"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"deviceName"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"login"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"email"},"value":{"kind":"Variable","name":{"kind":"Name","value":"email"}}},{"kind":"Argument","name":{"kind":"Name","value":"password"},"value":{"kind":"Variable","name":{"kind":"Name","value":"password"}}},{"kind":"Argument","name":{"kind":"Name","value":"deviceName"},"value":{"kind":"Variable","name":{"kind":"Name","value":"deviceName"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AuthPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"accessToken"}},{"kind":"Field","name":{"kind":"Name","value":"refreshToken"}},{"kind":"Field","name":{"kind":"Name","value":"tokenType"}},{"kind":"Field","name":{"kind":"Name","value":"expiresIn"}},{"kind":"Field","name":{"kind":"Name","value":"user"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"investorId"}}]}}]}}]} as unknown as DocumentNode<LoginMutation, LoginMutationVariables>;
export const RefreshSessionDocument = {"__meta__":{"hash":"sha256:97d717a79522c86402bb79c9fde8049c60d57237446b9cee6d74061320f4ae90"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RefreshSession"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"refreshToken"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"refreshToken"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"refreshToken"},"value":{"kind":"Variable","name":{"kind":"Name","value":"refreshToken"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AuthPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"accessToken"}},{"kind":"Field","name":{"kind":"Name","value":"refreshToken"}},{"kind":"Field","name":{"kind":"Name","value":"tokenType"}},{"kind":"Field","name":{"kind":"Name","value":"expiresIn"}},{"kind":"Field","name":{"kind":"Name","value":"user"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"investorId"}}]}}]}}]} as unknown as DocumentNode<RefreshSessionMutation, RefreshSessionMutationVariables>;
export const PendingInvestmentRequestsDocument = {"__meta__":{"hash":"sha256:c648b57772afd4bb6b5b4b52df2a538c24568c74ab63b7c0b4c1a26f9eb9b09f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PendingInvestmentRequests"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"page"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"perPage"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"investmentRequests"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"page"},"value":{"kind":"Variable","name":{"kind":"Name","value":"page"}}},{"kind":"Argument","name":{"kind":"Name","value":"perPage"},"value":{"kind":"Variable","name":{"kind":"Name","value":"perPage"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"status"},"value":{"kind":"EnumValue","value":"PENDING"}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"unitId"}},{"kind":"Field","name":{"kind":"Name","value":"investorId"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"ownershipPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"unit"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PageFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentPage"}},{"kind":"Field","name":{"kind":"Name","value":"perPage"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"lastPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}}]}}]} as unknown as DocumentNode<PendingInvestmentRequestsQuery, PendingInvestmentRequestsQueryVariables>;
export const PendingWithdrawalRequestsDocument = {"__meta__":{"hash":"sha256:e51faec1205f04fc69fee6cf8db74ce2c7eab4d6683cb09d5963770aacc36be1"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PendingWithdrawalRequests"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"page"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"perPage"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"withdrawalRequests"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"page"},"value":{"kind":"Variable","name":{"kind":"Name","value":"page"}}},{"kind":"Argument","name":{"kind":"Name","value":"perPage"},"value":{"kind":"Variable","name":{"kind":"Name","value":"perPage"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"status"},"value":{"kind":"EnumValue","value":"PENDING"}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WithdrawalFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PageFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WithdrawalFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WithdrawalRequest"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"unitId"}},{"kind":"Field","name":{"kind":"Name","value":"investorId"}},{"kind":"Field","name":{"kind":"Name","value":"ownershipPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"investedAmount"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"rejectionReason"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"unit"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentPage"}},{"kind":"Field","name":{"kind":"Name","value":"perPage"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"lastPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}}]}}]} as unknown as DocumentNode<PendingWithdrawalRequestsQuery, PendingWithdrawalRequestsQueryVariables>;
export const PendingKycReviewsDocument = {"__meta__":{"hash":"sha256:8a985050ba64404914730a96aa6e0fb8114f6f64e8e96fe29c2b31c3faa53a87"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PendingKycReviews"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"investorId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kycDocuments"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"investorId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"investorId"}}},{"kind":"Argument","name":{"kind":"Name","value":"status"},"value":{"kind":"EnumValue","value":"PENDING"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"investorId"}},{"kind":"Field","name":{"kind":"Name","value":"documentType"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"mimeType"}},{"kind":"Field","name":{"kind":"Name","value":"sizeBytes"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]} as unknown as DocumentNode<PendingKycReviewsQuery, PendingKycReviewsQueryVariables>;
export const DistributionsDocument = {"__meta__":{"hash":"sha256:61f35c5391967d3de73f7440beabca1e11756266b9aa9aab7e59bcec423a7469"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Distributions"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"page"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"perPage"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DistributionFilter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"distributions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"page"},"value":{"kind":"Variable","name":{"kind":"Name","value":"page"}}},{"kind":"Argument","name":{"kind":"Name","value":"perPage"},"value":{"kind":"Variable","name":{"kind":"Name","value":"perPage"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"unitId"}},{"kind":"Field","name":{"kind":"Name","value":"unitName"}},{"kind":"Field","name":{"kind":"Name","value":"period"}},{"kind":"Field","name":{"kind":"Name","value":"profitKind"}},{"kind":"Field","name":{"kind":"Name","value":"cadence"}},{"kind":"Field","name":{"kind":"Name","value":"ownershipPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"grossAmount"}},{"kind":"Field","name":{"kind":"Name","value":"fees"}},{"kind":"Field","name":{"kind":"Name","value":"netAmount"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"scheduledFor"}},{"kind":"Field","name":{"kind":"Name","value":"paidAt"}},{"kind":"Field","name":{"kind":"Name","value":"paymentDate"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PageFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentPage"}},{"kind":"Field","name":{"kind":"Name","value":"perPage"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"lastPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}}]}}]} as unknown as DocumentNode<DistributionsQuery, DistributionsQueryVariables>;
export const NotificationAddedDocument = {"__meta__":{"hash":"sha256:3c82873889939ed107e58a2bcf69d0c24bee7fc5bf244ea32b6bcbd4d96d7f74"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"NotificationAdded"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"notificationAdded"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"NotificationItem"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"NotificationItem"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Notification"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"body"}},{"kind":"Field","name":{"kind":"Name","value":"data"}},{"kind":"Field","name":{"kind":"Name","value":"readAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]} as unknown as DocumentNode<NotificationAddedSubscription, NotificationAddedSubscriptionVariables>;
export const InvestmentRequestUpdatedDocument = {"__meta__":{"hash":"sha256:14f95b94dcffc76c559faaf69722878435c784713785c7bba438571421f3767e"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"InvestmentRequestUpdated"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"investmentRequestUpdated"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"unitId"}},{"kind":"Field","name":{"kind":"Name","value":"investorId"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"ownershipPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"rejectionReason"}},{"kind":"Field","name":{"kind":"Name","value":"reviewedAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"unit"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]} as unknown as DocumentNode<InvestmentRequestUpdatedSubscription, InvestmentRequestUpdatedSubscriptionVariables>;
export const WithdrawalRequestUpdatedDocument = {"__meta__":{"hash":"sha256:2592dcbd3bf8b406f8b402add250ce35141d49da969b480dadd7bd7c6d7e555d"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"WithdrawalRequestUpdated"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"withdrawalRequestUpdated"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WithdrawalFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WithdrawalFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WithdrawalRequest"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"unitId"}},{"kind":"Field","name":{"kind":"Name","value":"investorId"}},{"kind":"Field","name":{"kind":"Name","value":"ownershipPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"investedAmount"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"rejectionReason"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"unit"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<WithdrawalRequestUpdatedSubscription, WithdrawalRequestUpdatedSubscriptionVariables>;
export const KycStatusChangedDocument = {"__meta__":{"hash":"sha256:cecc5485ad30a1076cf55e60d3de33f6a98409ca27211410751f18d2f7c91594"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"KycStatusChanged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kycStatusChanged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"documentsCount"}},{"kind":"Field","name":{"kind":"Name","value":"approvedCount"}},{"kind":"Field","name":{"kind":"Name","value":"pendingCount"}},{"kind":"Field","name":{"kind":"Name","value":"rejectedCount"}},{"kind":"Field","name":{"kind":"Name","value":"lastReviewedAt"}}]}}]}}]} as unknown as DocumentNode<KycStatusChangedSubscription, KycStatusChangedSubscriptionVariables>;
export const NotificationListDocument = {"__meta__":{"hash":"sha256:3be2ec95399ded7fd5df76514a91df72fa409417c9c9ce57a6a7e6cf15ff7038"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"NotificationList"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"page"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"perPage"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"unread"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"unreadNotificationCount"}},{"kind":"Field","name":{"kind":"Name","value":"notifications"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"page"},"value":{"kind":"Variable","name":{"kind":"Name","value":"page"}}},{"kind":"Argument","name":{"kind":"Name","value":"perPage"},"value":{"kind":"Variable","name":{"kind":"Name","value":"perPage"}}},{"kind":"Argument","name":{"kind":"Name","value":"unread"},"value":{"kind":"Variable","name":{"kind":"Name","value":"unread"}}},{"kind":"Argument","name":{"kind":"Name","value":"unreadFirst"},"value":{"kind":"BooleanValue","value":true}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"NotificationItem"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PageFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"NotificationItem"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Notification"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"body"}},{"kind":"Field","name":{"kind":"Name","value":"data"}},{"kind":"Field","name":{"kind":"Name","value":"readAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentPage"}},{"kind":"Field","name":{"kind":"Name","value":"perPage"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"lastPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}}]}}]} as unknown as DocumentNode<NotificationListQuery, NotificationListQueryVariables>;
export const ReadNotificationDocument = {"__meta__":{"hash":"sha256:e42c90f7c3581b8c88bdcca239dfa09fc13b2597067cc81b44b5addbeabf3ee2"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ReadNotification"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"markNotificationRead"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"NotificationItem"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"NotificationItem"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Notification"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"body"}},{"kind":"Field","name":{"kind":"Name","value":"data"}},{"kind":"Field","name":{"kind":"Name","value":"readAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]} as unknown as DocumentNode<ReadNotificationMutation, ReadNotificationMutationVariables>;
export const ReadAllNotificationsDocument = {"__meta__":{"hash":"sha256:2cd2131ed9500ed90f2ddc20f883e60a6ad07e2b027b96930c3b4e9851061f41"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ReadAllNotifications"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"markAllNotificationsRead"}}]}}]} as unknown as DocumentNode<ReadAllNotificationsMutation, ReadAllNotificationsMutationVariables>;
export const PortfolioDocument = {"__meta__":{"hash":"sha256:70a01efe53e8661dfaf9c5164c353ba52dcbd8935279daaeb1abb6ca67b2fd19"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Portfolio"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"portfolio"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"investorId"}},{"kind":"Field","name":{"kind":"Name","value":"holdingsCount"}},{"kind":"Field","name":{"kind":"Name","value":"totalInvested"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}},{"kind":"Field","name":{"kind":"Name","value":"returnAmount"}},{"kind":"Field","name":{"kind":"Name","value":"returnPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"holdings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"unit"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"ownershipPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"investedAmount"}},{"kind":"Field","name":{"kind":"Name","value":"unitValue"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}},{"kind":"Field","name":{"kind":"Name","value":"returnAmount"}},{"kind":"Field","name":{"kind":"Name","value":"returnPercentage"}}]}}]}}]}}]} as unknown as DocumentNode<PortfolioQuery, PortfolioQueryVariables>;
export const WithdrawalRequestsDocument = {"__meta__":{"hash":"sha256:d02735bee47f9f89613d84794875c9b344586ccade9eb12206eef49f63ebcd33"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"WithdrawalRequests"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"page"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"perPage"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"WithdrawalRequestFilter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"withdrawalRequests"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"page"},"value":{"kind":"Variable","name":{"kind":"Name","value":"page"}}},{"kind":"Argument","name":{"kind":"Name","value":"perPage"},"value":{"kind":"Variable","name":{"kind":"Name","value":"perPage"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WithdrawalFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PageFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WithdrawalFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WithdrawalRequest"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"unitId"}},{"kind":"Field","name":{"kind":"Name","value":"investorId"}},{"kind":"Field","name":{"kind":"Name","value":"ownershipPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"investedAmount"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"rejectionReason"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"unit"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentPage"}},{"kind":"Field","name":{"kind":"Name","value":"perPage"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"lastPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}}]}}]} as unknown as DocumentNode<WithdrawalRequestsQuery, WithdrawalRequestsQueryVariables>;
export const CreateWithdrawalDocument = {"__meta__":{"hash":"sha256:1b6265976fee6a1a8d59323d2b4ad29045fa2ceaa0e4ff06b1c5042a7b7e156c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateWithdrawal"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateWithdrawalRequestInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createWithdrawalRequest"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WithdrawalFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WithdrawalFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WithdrawalRequest"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"unitId"}},{"kind":"Field","name":{"kind":"Name","value":"investorId"}},{"kind":"Field","name":{"kind":"Name","value":"ownershipPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"investedAmount"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"rejectionReason"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"unit"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<CreateWithdrawalMutation, CreateWithdrawalMutationVariables>;
export const CancelWithdrawalDocument = {"__meta__":{"hash":"sha256:a411e95587543555aecc52f03a60a4948adcbf2040fa75184b1a63ca5a2a3cc3"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CancelWithdrawal"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cancelWithdrawalRequest"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WithdrawalFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WithdrawalFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WithdrawalRequest"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"unitId"}},{"kind":"Field","name":{"kind":"Name","value":"investorId"}},{"kind":"Field","name":{"kind":"Name","value":"ownershipPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"investedAmount"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"rejectionReason"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"unit"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<CancelWithdrawalMutation, CancelWithdrawalMutationVariables>;