import { lenientPage } from '../services/pagination';
import type { PublicCategoryQueryVariables, PublicUnitQueryVariables, PublicUnitsQueryVariables } from './generated/operations';
import { idParam, route } from './route';
import { unitFilter } from './units.routes';

export const publicRoutes = [
  route<PublicUnitsQueryVariables>({
    method: 'GET',
    path: '/public/units',
    operation: 'PublicUnits',
    summary: 'Public units',
    description: 'Units listed on the marketplace, for visitors who are not signed in; paginated, with the same filters as `/units`.',
    auth: 'guest',
    envelope: 'paginated',
    variables: (input) => ({ page: lenientPage(input.query.page), perPage: input.query.per_page, filter: unitFilter(input) }),
  }),
  route<PublicUnitQueryVariables>({
    method: 'GET',
    path: '/public/units/:id',
    operation: 'PublicUnit',
    summary: 'Public unit',
    description: 'One listed unit, for visitors who are not signed in; an unlisted or unknown id is a 404.',
    auth: 'guest',
    variables: ({ params }) => ({ id: idParam(params.id) }),
  }),
  route({
    method: 'GET',
    path: '/public/categories',
    operation: 'PublicCategories',
    summary: 'Public categories',
    description: 'Active unit categories with their public fields only, for visitors who are not signed in.',
    auth: 'guest',
  }),
  route<PublicCategoryQueryVariables>({
    method: 'GET',
    path: '/public/categories/:id',
    operation: 'PublicCategory',
    summary: 'Public category',
    description: 'One active unit category with its public fields only, for visitors who are not signed in; an unknown or inactive id is a 404.',
    auth: 'guest',
    variables: ({ params }) => ({ id: idParam(params.id) }),
  }),
];
