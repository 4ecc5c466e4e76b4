import type { LoginMutationVariables, RefreshMutationVariables, RegisterMutationVariables } from './generated/operations';
import { route } from './route';

export const authRoutes = [
  route<LoginMutationVariables>({
    method: 'POST', path: '/auth/login', operation: 'Login', summary: 'Login', auth: 'guest', noStore: true,
    variables: ({ body }) => ({ email: body.email, password: body.password, deviceName: body.device_name }),
  }),
  route<RegisterMutationVariables>({
    method: 'POST', path: '/auth/register', operation: 'Register', summary: 'Register new user', auth: 'guest', status: 201, noStore: true,
    variables: ({ body }) => ({ input: body, deviceName: body.device_name }),
  }),
  route({ method: 'GET', path: '/auth/me', operation: 'Me', summary: 'Get current user', auth: 'bearer' }),
  route({ method: 'POST', path: '/auth/logout', operation: 'Logout', summary: 'Logout', auth: 'bearer', message: 'Logged out successfully.', emptyData: true }),
  route<RefreshMutationVariables>({
    method: 'POST', path: '/auth/refresh', operation: 'Refresh', summary: 'Refresh token', auth: 'guest', noStore: true,
    variables: ({ body }) => ({ refreshToken: body.refresh_token }),
  }),
];
