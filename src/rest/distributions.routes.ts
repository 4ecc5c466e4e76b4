import { lenientPage } from '../services/pagination';
import type { DistributionQueryVariables, DistributionsQueryVariables } from './generated/operations';
import { idParam, route } from './route';

export const distributionRoutes = [
  route<DistributionsQueryVariables>({
    method: 'GET',
    path: '/distributions',
    operation: 'Distributions',
    summary: 'List distributions',
    description:
      'Distributions, newest first (by `distributed_at`), paginated. Filters: `status`, `type`, `unit_id`, `period` (e.g. `2026-Q1`), `from`/`to` (dates on `distributed_at`). Investors see distributions of units they hold; admins and analysts see all and may filter by `investor_id`.',
    auth: 'bearer',
    envelope: 'paginated',
    variables: ({ query }) => ({
      page: lenientPage(query.page),
      perPage: query.per_page,
      filter: {
        status: query.status,
        type: query.type,
        unitId: query.unit_id,
        period: query.period,
        from: query.from,
        to: query.to,
        investorId: query.investor_id,
      },
    }),
  }),
  route<DistributionQueryVariables>({
    method: 'GET',
    path: '/distributions/:id',
    operation: 'Distribution',
    summary: 'Distribution details',
    description: 'One distribution. Investors see only distributions of units they hold: any other is a 404.',
    auth: 'bearer',
    variables: ({ params }) => ({ id: idParam(params.id) }),
  }),
];
