import { route } from './route';

export const appConfigRoutes = [route({ method: 'GET', path: '/marketplace/config', operation: 'AppConfig', summary: 'Get app configuration', auth: 'guest' })];
