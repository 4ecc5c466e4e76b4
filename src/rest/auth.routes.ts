import type { LoginMutationVariables, RefreshMutationVariables, RegisterMutationVariables } from './generated/operations';
import { route } from './route';

export const authRoutes = [
  route<LoginMutationVariables>({
    method: 'POST',
    path: '/auth/login',
    operation: 'Login',
    summary: 'Login',
    description:
      'Exchanges the email and password of any account (investor, admin, analyst) for an access token and a refresh token; `device_name` labels the session. Wrong credentials are a 422 on `email`; repeated failures per client, account and (email, client) pair are blocked with 429 and `Retry-After`.',
    rateLimited: true,
    auth: 'guest',
    noStore: true,
    variables: ({ body }) => ({ email: body.email, password: body.password, deviceName: body.device_name }),
  }),
  route<RegisterMutationVariables>({
    method: 'POST',
    path: '/auth/register',
    operation: 'Register',
    summary: 'Register new user',
    description:
      'Creates an investor account and signs it in (same answer as login, status 201). Open to guests. A taken email or a password confirmation that does not match is a 422; registrations per client IP are limited (429).',
    rateLimited: true,
    auth: 'guest',
    status: 201,
    noStore: true,
    variables: ({ body }) => ({ input: body, deviceName: body.device_name }),
  }),
  route({
    method: 'GET',
    path: '/auth/me',
    operation: 'Me',
    summary: 'Get current user',
    description: 'The signed-in user (any role) with their investor profile, if they have one.',
    auth: 'bearer',
  }),
  route({
    method: 'POST',
    path: '/auth/logout',
    operation: 'Logout',
    summary: 'Logout',
    description: 'Revokes the access and refresh tokens of this session only; other devices stay signed in. Any signed-in user.',
    auth: 'bearer',
    message: 'Logged out successfully.',
    emptyData: true,
  }),
  route<RefreshMutationVariables>({
    method: 'POST',
    path: '/auth/refresh',
    operation: 'Refresh',
    summary: 'Refresh token',
    description:
      'Rotates a refresh token: answers a new access token and a new refresh token and revokes the one sent. Open to guests (the refresh token is the credential); an unknown or expired refresh token is a 401, and a refresh token used twice revokes the whole session (401 for both holders).',
    errors: { 401: 'The refresh token is unknown, expired, already used or its session was revoked.' },
    auth: 'guest',
    noStore: true,
    variables: ({ body }) => ({ refreshToken: body.refresh_token }),
  }),
];
