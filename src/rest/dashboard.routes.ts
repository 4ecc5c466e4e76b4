import { route } from './route';

export const dashboardRoutes = [
  route({
    method: 'GET',
    path: '/dashboard',
    operation: 'Dashboard',
    summary: 'Get investment marketplace',
    auth: 'bearer',
    description:
      "The investment marketplace screen: featured categories, top gainers, the 5 newest available units, net distributions of the last 8 quarters, the 10 latest transactions and a summary. Trends, activity and summary are the investor's own; for admins and analysts, platform-wide.",
  }),
];
