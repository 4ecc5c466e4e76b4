import { route } from './route';

export const dashboardRoutes = [route({ method: 'GET', path: '/dashboard', operation: 'Dashboard', summary: 'Get investment marketplace',
    description:
      'The investment marketplace screen: featured and available units with key figures, and for an investor their portfolio totals. Any signed-in user.', auth: 'bearer' })];
