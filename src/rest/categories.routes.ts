import type { CategoryQueryVariables } from './generated/operations';
import { idParam, route } from './route';

export const categoryRoutes = [
  route({ method: 'GET', path: '/categories', operation: 'Categories', summary: 'List categories', auth: 'bearer' }),
  route<CategoryQueryVariables>({
    method: 'GET', path: '/categories/:id', operation: 'Category', summary: 'Get category', auth: 'bearer',
    variables: ({ params }) => ({ id: idParam(params.id) }),
  }),
];
