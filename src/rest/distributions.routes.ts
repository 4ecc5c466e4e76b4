import { lenientPage } from '../pagination';
import type { DistributionQueryVariables, DistributionsQueryVariables } from './generated/operations';
import { idParam, route } from './route';

export const distributionRoutes = [
  route<DistributionsQueryVariables>({
    method: 'GET', path: '/distributions', operation: 'Distributions', summary: 'List distributions', auth: 'bearer', envelope: 'paginated',
    variables: ({ query }) => ({
      page: lenientPage(query.page),
      perPage: query.per_page,
      filter: { status: query.status, type: query.type, unitId: query.unit_id, period: query.period, from: query.from, to: query.to, investorId: query.investor_id },
    }),
  }),
  route<DistributionQueryVariables>({
    method: 'GET', path: '/distributions/:id', operation: 'Distribution', summary: 'Distribution details', auth: 'bearer',
    variables: ({ params }) => ({ id: idParam(params.id) }),
  }),
];
