import { lenientPage } from '../services/pagination';
import type { InvestorPortfolioQueryVariables, InvestorQueryVariables, InvestorsQueryVariables } from './generated/operations';
import { idParam, route } from './route';

export const investorRoutes = [
  route<InvestorsQueryVariables>({
    method: 'GET',
    path: '/investors',
    operation: 'Investors',
    summary: 'List investors',
    description: 'Investors, newest first, paginated; `q` searches name and email. An investor sees only themself; admins and analysts see all.',
    auth: 'bearer',
    envelope: 'paginated',
    variables: ({ query }) => ({ page: lenientPage(query.page), perPage: query.per_page, filter: { q: query.q } }),
  }),
  route<InvestorPortfolioQueryVariables>({
    method: 'GET',
    path: '/investors/:id/portfolio',
    operation: 'InvestorPortfolio',
    summary: 'Investor portfolio',
    description: "An investor's holdings and totals. An investor may read only their own: any other id is a 404; admins and analysts read any.",
    auth: 'bearer',
    variables: ({ params }) => ({ investorId: idParam(params.id) }),
  }),
  route<InvestorQueryVariables>({
    method: 'GET',
    path: '/investors/:id',
    operation: 'Investor',
    summary: 'Investor details',
    description: "One investor's profile. An investor may read only their own: any other id is a 404; admins and analysts read any.",
    auth: 'bearer',
    variables: ({ params }) => ({ id: idParam(params.id) }),
  }),
];
