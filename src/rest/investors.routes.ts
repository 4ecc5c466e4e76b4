import { lenientPage } from '../pagination';
import type { InvestorPortfolioQueryVariables, InvestorQueryVariables, InvestorsQueryVariables } from './generated/operations';
import { idParam, route } from './route';

export const investorRoutes = [
  route<InvestorsQueryVariables>({
    method: 'GET', path: '/investors', operation: 'Investors', summary: 'List investors', auth: 'bearer', envelope: 'paginated',
    variables: ({ query }) => ({ page: lenientPage(query.page), perPage: query.per_page, filter: { q: query.q } }),
  }),
  route<InvestorPortfolioQueryVariables>({
    method: 'GET', path: '/investors/:id/portfolio', operation: 'InvestorPortfolio', summary: 'Investor portfolio', auth: 'bearer',
    variables: ({ params }) => ({ investorId: idParam(params.id) }),
  }),
  route<InvestorQueryVariables>({
    method: 'GET', path: '/investors/:id', operation: 'Investor', summary: 'Investor details', auth: 'bearer',
    variables: ({ params }) => ({ id: idParam(params.id) }),
  }),
];
