import { lenientPage } from '../pagination';
import type { CreateInvestmentRequestMutationVariables, InvestmentRequestsQueryVariables } from './generated/operations';
import { route } from './route';

export const investmentRequestRoutes = [
  route<InvestmentRequestsQueryVariables>({
    method: 'GET', path: '/investment-requests', operation: 'InvestmentRequests', summary: 'List investment requests', auth: 'bearer', envelope: 'paginated',
    variables: ({ query }) => ({ page: lenientPage(query.page), perPage: query.per_page, filter: { status: query.status, unitId: query.unit_id, investorId: query.investor_id } }),
  }),
  route<CreateInvestmentRequestMutationVariables>({
    method: 'POST', path: '/investment-requests', operation: 'CreateInvestmentRequest', summary: 'Create investment request', auth: 'bearer', status: 201,
    variables: ({ body }) => ({ input: body }),
  }),
];
