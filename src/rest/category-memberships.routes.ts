import type { CategoryMembershipQueryVariables, CategoryMembershipsQueryVariables, CreateCategoryMembershipMutationVariables } from './generated/operations';
import { idParam, route } from './route';

export const categoryMembershipRoutes = [
  route<CategoryMembershipsQueryVariables>({
    method: 'GET', path: '/category-memberships', operation: 'CategoryMemberships', summary: 'List category memberships', auth: 'bearer',
    variables: ({ query }) => ({ filter: { status: query.status, investorId: query.investor_id } }),
  }),
  route<CreateCategoryMembershipMutationVariables>({
    method: 'POST', path: '/category-memberships', operation: 'CreateCategoryMembership', summary: 'Create category membership', auth: 'bearer', status: 201,
    variables: ({ body }) => ({ categoryId: body.category_id }),
  }),
  // Literal path before /:id.
  route({ method: 'GET', path: '/category-memberships/available-categories', operation: 'AvailableCategories', summary: 'Available categories', auth: 'bearer' }),
  route<CategoryMembershipQueryVariables>({
    method: 'GET', path: '/category-memberships/:id', operation: 'CategoryMembership', summary: 'Category membership details', auth: 'bearer',
    variables: ({ params }) => ({ id: idParam(params.id) }),
  }),
];
