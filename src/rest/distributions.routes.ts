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
      'Distributions, newest first (by `created_at`), paginated. `type` is the cadence (`monthly`, `quarterly`, `semi_annual`, `annual`, `special`); `distributed_at` is never null: the date the distribution is scheduled to be paid (00:00 UTC) until it is paid, then the time it was paid. Filters: `status`, `type`, `unit_id`, `period` (e.g. `2026-Q1`), `from`/`to` (inclusive UTC dates on `distributed_at`). Investors see their own distributions; admins and analysts see all and may filter by `investor_id`.',
    auth: 'bearer',
    envelope: 'paginated',
    variables: ({ query }) => ({
      page: lenientPage(query.page),
      perPage: query.per_page,
      status: query.status,
      type: query.type,
      unitId: query.unit_id,
      period: query.period,
      from: query.from,
      to: query.to,
      investorId: query.investor_id,
    }),
  }),
  route<DistributionQueryVariables>({
    method: 'GET',
    path: '/distributions/:id',
    operation: 'Distribution',
    summary: 'Distribution details',
    description: 'One distribution, with the fields of the list. Investors see only their own distributions: any other is a 404.',
    auth: 'bearer',
    variables: ({ params }) => ({ id: idParam(params.id) }),
  }),
];
