import { lenientPage } from '../pagination';
import type { CreateWithdrawalRequestMutationVariables, WithdrawalRequestsQueryVariables } from './generated/operations';
import { route } from './route';

export const withdrawalRoutes = [
  route<WithdrawalRequestsQueryVariables>({
    method: 'GET', path: '/withdrawals/requests', operation: 'WithdrawalRequests', summary: 'List withdrawal requests', auth: 'bearer',
    envelope: 'paginated-meta', // the contract's one list without `links`
    variables: ({ query }) => ({ page: lenientPage(query.page), perPage: query.per_page, filter: { status: query.status, unitId: query.unit_id, investorId: query.investor_id } }),
  }),
  route<CreateWithdrawalRequestMutationVariables>({
    method: 'POST', path: '/withdrawals/requests', operation: 'CreateWithdrawalRequest', summary: 'Create withdrawal request', auth: 'bearer', status: 201,
    variables: ({ body }) => ({ input: body }),
  }),
];
