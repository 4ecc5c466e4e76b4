import type { UpdateSettingsMutationVariables } from './generated/operations';
import { route } from './route';

export const settingsRoutes = [
  route({ method: 'GET', path: '/settings', operation: 'Settings', summary: 'Get settings', auth: 'bearer' }),
  route<UpdateSettingsMutationVariables>({
    method: 'PUT', path: '/settings', operation: 'UpdateSettings', summary: 'Update settings', auth: 'bearer',
    variables: ({ body }) => ({ input: body }),
  }),
];
