import { route } from './route';

export const dashboardRoutes = [route({ method: 'GET', path: '/dashboard', operation: 'Dashboard', summary: 'Get investment marketplace', auth: 'bearer' })];
