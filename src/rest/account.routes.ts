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
    method: 'POST', path: '/auth/password/forgot', operation: 'ForgotPassword', summary: 'Request password reset', auth: 'guest',
    message: 'If that email is registered, a reset link has been sent.', emptyData: true,
    variables: ({ body }) => ({ email: body.email }),
  }),
  route<ResetPasswordMutationVariables>({
    method: 'POST', path: '/auth/password/reset', operation: 'ResetPassword', summary: 'Reset password', auth: 'guest',
    message: 'Your password has been reset.', emptyData: true,
    variables: ({ body }) => ({ input: body }),
  }),
  route<ChangePasswordMutationVariables>({
    method: 'PUT', path: '/auth/password', operation: 'ChangePassword', summary: 'Change password', auth: 'bearer',
    message: 'Your password has been changed.', emptyData: true,
    variables: ({ body }) => ({ input: body }),
  }),
  route<UpdateProfileMutationVariables>({
    method: 'PUT', path: '/auth/me', operation: 'UpdateProfile', summary: 'Update current user', auth: 'bearer',
    variables: ({ body }) => ({ input: body }),
  }),
  route<DeleteAccountMutationVariables>({
    method: 'DELETE', path: '/auth/me', operation: 'DeleteAccount', summary: 'Delete account', auth: 'bearer',
    message: 'Your account has been deleted.', emptyData: true,
    variables: ({ body }) => ({ password: body.password }),
  }),
];
