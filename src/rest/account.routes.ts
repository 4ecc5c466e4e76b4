import type {
  ChangePasswordMutationVariables,
  DeleteAccountMutationVariables,
  ForgotPasswordMutationVariables,
  ResetPasswordMutationVariables,
  UpdateProfileMutationVariables,
} from './generated/operations';
import { route } from './route';

export const accountRoutes = [
  route<ForgotPasswordMutationVariables>({
    method: 'POST',
    path: '/auth/password/forgot',
    operation: 'ForgotPassword',
    summary: 'Request password reset',
    description:
      'Emails a password-reset link when the address belongs to an account. Open to guests; the answer is the same whether or not the email is registered, so it reveals nothing. Attempts per client and email are limited (429).',
    rateLimited: true,
    auth: 'guest',
    message: 'If that email is registered, a reset link has been sent.',
    emptyData: true,
    variables: ({ body }) => ({ email: body.email }),
  }),
  route<ResetPasswordMutationVariables>({
    method: 'POST',
    path: '/auth/password/reset',
    operation: 'ResetPassword',
    summary: 'Reset password',
    description:
      'Sets a new password with the token from the reset email and signs out every session of the account. Open to guests; an invalid or expired token is a 422 on `token`; attempts per client are limited (429).',
    rateLimited: true,
    auth: 'guest',
    message: 'Your password has been reset.',
    emptyData: true,
    variables: ({ body }) => ({ input: body }),
  }),
  route<ChangePasswordMutationVariables>({
    method: 'PUT',
    path: '/auth/password',
    operation: 'ChangePassword',
    summary: 'Change password',
    description:
      "Changes the signed-in user's password (any role) after checking the current one, and revokes the user's other sessions. A wrong `current_password` is a 422; password checks per user are limited (429).",
    rateLimited: true,
    auth: 'bearer',
    message: 'Your password has been changed.',
    emptyData: true,
    variables: ({ body }) => ({ input: body }),
  }),
  route<UpdateProfileMutationVariables>({
    method: 'PUT',
    path: '/auth/me',
    operation: 'UpdateProfile',
    summary: 'Update current user',
    description: "Updates the signed-in user's own profile (name, phone and the other fields sent); fields left out keep their value. Any role.",
    auth: 'bearer',
    variables: ({ body }) => ({ input: body }),
  }),
  route<DeleteAccountMutationVariables>({
    method: 'DELETE',
    path: '/auth/me',
    operation: 'DeleteAccount',
    summary: 'Delete account',
    description: "Deletes the signed-in user's own account after checking the password. A wrong password is a 422 (password checks are limited: 429).",
    errors: { 409: 'the account still holds units or has pending investment or withdrawal requests, or it is the last administrator' },
    rateLimited: true,
    auth: 'bearer',
    message: 'Your account has been deleted.',
    emptyData: true,
    variables: ({ body }) => ({ password: body.password }),
  }),
];
