import { lenientPage } from '../pagination';
import type { PortfolioPerformanceQueryVariables, TransactionQueryVariables, TransactionsQueryVariables } from './generated/operations';
import { idParam, route } from './route';

export const portfolioRoutes = [
  route<PortfolioPerformanceQueryVariables>({
    method: 'GET', path: '/portfolio/performance', operation: 'PortfolioPerformance', summary: 'Portfolio performance', auth: 'bearer',
    variables: ({ query }) => ({ investorId: query.investor_id }),
  }),
  route<TransactionsQueryVariables>({
    method: 'GET', path: '/portfolio/transactions', operation: 'Transactions', summary: 'Portfolio transactions', auth: 'bearer', envelope: 'paginated',
    variables: ({ query }) => ({
      page: lenientPage(query.page),
      perPage: query.per_page,
      filter: { type: query.type, unitId: query.unit_id, from: query.from, to: query.to, investorId: query.investor_id },
    }),
  }),
  route<TransactionQueryVariables>({
    method: 'GET', path: '/portfolio/transactions/:id', operation: 'Transaction', summary: 'Portfolio transaction', auth: 'bearer',
    variables: ({ params }) => ({ id: idParam(params.id) }),
  }),
];
