import type { CategoryMembershipQueryVariables, CategoryMembershipsQueryVariables, CreateCategoryMembershipMutationVariables } from './generated/operations';
import { idParam, route } from './route';

export const categoryMembershipRoutes = [
  route<CategoryMembershipsQueryVariables>({
    method: 'GET',
    path: '/category-memberships',
    operation: 'CategoryMemberships',
    summary: 'List category memberships',
    description: "Category memberships, newest first. Investors see their own; admins and analysts see everyone's and may filter by `investor_id`.",
    auth: 'bearer',
    variables: ({ query }) => ({ filter: { status: query.status, investorId: query.investor_id } }),
  }),
  route<CreateCategoryMembershipMutationVariables>({
    method: 'POST',
    path: '/category-memberships',
    operation: 'CreateCategoryMembership',
    summary: 'Create category membership',
    description: 'Joins a category as the signed-in investor (investors only; staff get 403). Answers the new membership with 201.',
    errors: { 409: 'the investor is already a member of this category' },
    auth: 'bearer',
    status: 201,
    variables: ({ body }) => ({ categoryId: body.category_id }),
  }),
  // Literal path before /:id.
  route({
    method: 'GET',
    path: '/category-memberships/available-categories',
    operation: 'AvailableCategories',
    summary: 'Available categories',
    description: 'The categories the signed-in investor may still join (not yet a member). Any signed-in user.',
    auth: 'bearer',
  }),
  route<CategoryMembershipQueryVariables>({
    method: 'GET',
    path: '/category-memberships/:id',
    operation: 'CategoryMembership',
    summary: 'Category membership details',
    description: "One category membership. Investors see only their own: another investor's membership is a 404, as is an unknown id.",
    auth: 'bearer',
    variables: ({ params }) => ({ id: idParam(params.id) }),
  }),
];
