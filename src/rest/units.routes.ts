import { lenientPage } from '../services/pagination';
import type { UnitQueryVariables, UnitsQueryVariables } from './generated/operations';
import { idParam, route, type RestInput } from './route';

/** The unit list filters, shared by /units and /public/units. */
export const unitFilter = ({ query }: RestInput) => ({
  categoryId: query.category_id,
  status: query.status,
  minInvestmentFrom: query.min_investment_from,
  minInvestmentTo: query.min_investment_to,
  q: query.q,
});

export const unitRoutes = [
  route<UnitsQueryVariables>({
    method: 'GET',
    path: '/units',
    operation: 'Units',
    summary: 'List available units',
    description: 'Units, paginated; filters `category_id`, `status`, `min_investment_from`/`min_investment_to` and `q` (name search). Any signed-in user.',
    auth: 'bearer',
    envelope: 'paginated',
    variables: (input) => ({ page: lenientPage(input.query.page), perPage: input.query.per_page, filter: unitFilter(input) }),
  }),
  route<UnitQueryVariables>({
    method: 'GET',
    path: '/units/:id',
    operation: 'Unit',
    summary: 'Unit details',
    description: 'One unit with its figures. Any signed-in user; an unknown id is a 404.',
    auth: 'bearer',
    variables: ({ params }) => ({ id: idParam(params.id) }),
  }),
];
