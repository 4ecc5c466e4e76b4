import type { CategoryQueryVariables } from './generated/operations';
import { idParam, route } from './route';

export const categoryRoutes = [
  route({
    method: 'GET',
    path: '/categories',
    operation: 'Categories',
    summary: 'List categories',
    description: 'Every unit category with its description. Any signed-in user.',
    auth: 'bearer',
  }),
  route<CategoryQueryVariables>({
    method: 'GET',
    path: '/categories/:id',
    operation: 'Category',
    summary: 'Get category',
    description: 'One unit category. Any signed-in user; an unknown id is a 404.',
    auth: 'bearer',
    variables: ({ params }) => ({ id: idParam(params.id) }),
  }),
];
