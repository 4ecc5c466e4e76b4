import { lenientPage } from '../pagination';
import type { PayoutQueryVariables, PayoutsQueryVariables } from './generated/operations';
import { idParam, route } from './route';

export const payoutRoutes = [
  route<PayoutsQueryVariables>({
    method: 'GET', path: '/payouts', operation: 'Payouts', summary: 'Payouts', auth: 'bearer', envelope: 'paginated',
    variables: ({ query }) => ({
      page: lenientPage(query.page),
      perPage: query.per_page,
      filter: { status: query.status, source: query.source, unitId: query.unit_id, investorId: query.investor_id },
    }),
  }),
  route<PayoutQueryVariables>({
    method: 'GET', path: '/payouts/:id', operation: 'Payout', summary: 'Payout details', auth: 'bearer',
    variables: ({ params }) => ({ id: idParam(params.id) }),
  }),
];
