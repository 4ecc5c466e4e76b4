import { lenientPage } from '../pagination';
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
    method: 'GET', path: '/units', operation: 'Units', summary: 'List available units', auth: 'bearer', envelope: 'paginated',
    variables: (input) => ({ page: lenientPage(input.query.page), perPage: input.query.per_page, filter: unitFilter(input) }),
  }),
  route<UnitQueryVariables>({
    method: 'GET', path: '/units/:id', operation: 'Unit', summary: 'Unit details', auth: 'bearer',
    variables: ({ params }) => ({ id: idParam(params.id) }),
  }),
];
