import { lenientPage } from '../services/pagination';
import type { PortfolioPerformanceQueryVariables, TransactionQueryVariables, TransactionsQueryVariables } from './generated/operations';
import { idParam, route } from './route';

export const portfolioRoutes = [
  route<PortfolioPerformanceQueryVariables>({
    method: 'GET',
    path: '/portfolio/performance',
    operation: 'PortfolioPerformance',
    summary: 'Portfolio performance',
    description: 'Invested amount, current value, profit and return of a portfolio, per unit and in total. Investors read their own; staff pass `investor_id`.',
    auth: 'bearer',
    variables: ({ query }) => ({ investorId: query.investor_id }),
  }),
  route<TransactionsQueryVariables>({
    method: 'GET',
    path: '/portfolio/transactions',
    operation: 'Transactions',
    summary: 'Portfolio transactions',
    description:
      'Portfolio transactions (investments, withdrawals, payouts), newest first, paginated; filters `type`, `unit_id`, `from`, `to`. Investors see their own; staff may filter by `investor_id`.',
    auth: 'bearer',
    envelope: 'paginated',
    variables: ({ query }) => ({
      page: lenientPage(query.page),
      perPage: query.per_page,
      filter: { type: query.type, unitId: query.unit_id, from: query.from, to: query.to, investorId: query.investor_id },
    }),
  }),
  route<TransactionQueryVariables>({
    method: 'GET',
    path: '/portfolio/transactions/:id',
    operation: 'Transaction',
    summary: 'Portfolio transaction',
    description: 'One portfolio transaction. Investors see only their own: any other is a 404.',
    auth: 'bearer',
    variables: ({ params }) => ({ id: idParam(params.id) }),
  }),
];
