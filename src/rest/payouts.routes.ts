import { lenientPage } from '../services/pagination';
import type { PayoutQueryVariables, PayoutsQueryVariables } from './generated/operations';
import { idParam, route } from './route';

export const payoutRoutes = [
  route<PayoutsQueryVariables>({
    method: 'GET',
    path: '/payouts',
    operation: 'Payouts',
    summary: 'Payouts',
    description:
      'Payouts (distribution shares paid to holders and returned capital), newest first, paginated; filters `status`, `source`, `unit_id`. Investors see their own; admins and analysts see all and may filter by `investor_id`.',
    auth: 'bearer',
    envelope: 'paginated',
    variables: ({ query }) => ({
      page: lenientPage(query.page),
      perPage: query.per_page,
      filter: { status: query.status, source: query.source, unitId: query.unit_id, investorId: query.investor_id },
    }),
  }),
  route<PayoutQueryVariables>({
    method: 'GET',
    path: '/payouts/:id',
    operation: 'Payout',
    summary: 'Payout details',
    description: 'One payout. Investors see only their own: any other is a 404.',
    auth: 'bearer',
    variables: ({ params }) => ({ id: idParam(params.id) }),
  }),
];
