/**
 * Type-level tests of the route table's `variables` (src/rest/route.ts): compiled by
 * `npm run typecheck`, never run. Each `@ts-expect-error` fails the type check if the line
 * below it stops being an error, so a loosened `Loose<T>` is caught.
 */
import type { DistributionsQueryVariables, LoginMutationVariables, UpdateProfileMutationVariables } from '../../src/rest/generated/operations';
import { idParam, route } from '../../src/rest/route';

export const typedRoutes = [
  // What the real table does: text from the query string, raw body values, typed values.
  route<DistributionsQueryVariables>({
    method: 'GET',
    path: '/x',
    operation: 'Distributions',
    summary: 'ok',
    description: 'ok',
    auth: 'bearer',
    variables: ({ query }) => ({ page: 1, perPage: query.per_page, filter: { status: query.status, unitId: idParam(query.unit_id) } }),
  }),
  route<UpdateProfileMutationVariables>({
    method: 'PUT',
    path: '/x',
    operation: 'UpdateProfile',
    summary: 'ok',
    description: 'ok',
    auth: 'bearer',
    variables: ({ body }) => ({ input: body }),
  }),

  route<DistributionsQueryVariables>({
    method: 'GET',
    path: '/x',
    operation: 'Distributions',
    summary: 'misspelt variable',
    description: 'misspelt variable',
    auth: 'bearer',
    // @ts-expect-error `per_page` is not a variable of the operation (`perPage` is)
    variables: ({ query }) => ({ per_page: query.per_page }),
  }),
  route<DistributionsQueryVariables>({
    method: 'GET',
    path: '/x',
    operation: 'Distributions',
    summary: 'misspelt input field',
    description: 'misspelt input field',
    auth: 'bearer',
    // @ts-expect-error DistributionFilter has `unitId`, not `unit`
    variables: ({ query }) => ({ filter: { unit: query.unit_id } }),
  }),
  route<LoginMutationVariables>({
    method: 'POST',
    path: '/x',
    operation: 'Login',
    summary: 'number for a String',
    description: 'number for a String',
    auth: 'guest',
    // @ts-expect-error `email` is a String: a number is not one, nor text the coercer could read as one
    variables: ({ body }) => ({ email: 42, password: body.password }),
  }),
  route<UpdateProfileMutationVariables>({
    method: 'PUT',
    path: '/x',
    operation: 'UpdateProfile',
    summary: 'text for an input object',
    description: 'text for an input object',
    auth: 'bearer',
    // @ts-expect-error `input` is an input object: a query-string text is not one
    variables: ({ query }) => ({ input: query.name }),
  }),
  route<DistributionsQueryVariables>({
    method: 'GET',
    path: '/x',
    operation: 'Distributions',
    summary: 'object for an Int',
    description: 'object for an Int',
    auth: 'bearer',
    // @ts-expect-error `page` is an Int: an object is not one
    variables: () => ({ page: { n: 1 } }),
  }),
];
