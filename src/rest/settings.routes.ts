import type { UpdateSettingsMutationVariables } from './generated/operations';
import { route } from './route';

export const settingsRoutes = [
  route({
    method: 'GET',
    path: '/settings',
    operation: 'Settings',
    summary: 'Get settings',
    description: "The signed-in user's settings (language, currency, notification preferences). Any role.",
    auth: 'bearer',
  }),
  route<UpdateSettingsMutationVariables>({
    method: 'PUT',
    path: '/settings',
    operation: 'UpdateSettings',
    summary: 'Update settings',
    description: "Updates the signed-in user's settings; fields left out keep their value. Any role.",
    auth: 'bearer',
    variables: ({ body }) => ({ input: body }),
  }),
];
