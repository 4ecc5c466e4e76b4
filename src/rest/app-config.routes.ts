import { route } from './route';

export const appConfigRoutes = [
  route({
    method: 'GET',
    path: '/marketplace/config',
    operation: 'AppConfig',
    summary: 'Get app configuration',
    auth: 'guest',
    description:
      'The marketplace settings the mobile app starts with: investment minimum and maximum, the smallest withdrawal share, the support email and the icon, badge and colour choices. Open to guests.',
    errors: { 404: 'The back office has not saved a configuration yet.' },
  }),
];
