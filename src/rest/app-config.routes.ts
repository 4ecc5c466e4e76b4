import { route } from './route';

export const appConfigRoutes = [route({ method: 'GET', path: '/marketplace/config', operation: 'AppConfig', summary: 'Get app configuration',
    description:
      'The mobile app\'s configuration (feature switches, minimum app version, support contacts). Open to guests.', auth: 'guest' })];
