import { lenientPage } from '../services/pagination';
import type { CreateWithdrawalRequestMutationVariables, WithdrawalRequestsQueryVariables } from './generated/operations';
import { route } from './route';

export const withdrawalRoutes = [
  route<WithdrawalRequestsQueryVariables>({
    method: 'GET',
    path: '/withdrawals/requests',
    operation: 'WithdrawalRequests',
    summary: 'List withdrawal requests',
    description:
      "Withdrawal requests, newest first; filters `status`, `unit_id`. The contract's one list with `meta` and no `links`. Investors see their own; admins and analysts see all and may filter by `investor_id`.",
    auth: 'bearer',
    envelope: 'paginated-meta', // the contract's one list without `links`
    variables: ({ query }) => ({
      page: lenientPage(query.page),
      perPage: query.per_page,
      filter: { status: query.status, unitId: query.unit_id, investorId: query.investor_id },
    }),
  }),
  route<CreateWithdrawalRequestMutationVariables>({
    method: 'POST',
    path: '/withdrawals/requests',
    operation: 'CreateWithdrawalRequest',
    summary: 'Create withdrawal request',
    description:
      'Asks to sell `ownership_percentage` of a held unit back (investors only), with a `reason`. Answers the pending request with 201; an admin reviews it. Accepts an `Idempotency-Key`.',
    errors: { 409: 'identity verification (KYC) is not approved, or the holding does not cover the requested percentage' },
    auth: 'bearer',
    status: 201,
    variables: ({ body }) => ({ input: body }),
  }),
];
