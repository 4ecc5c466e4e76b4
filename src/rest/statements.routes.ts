import type { PortfolioSummaryStatementQueryVariables, ProfitStatementQueryVariables, TaxStatementQueryVariables } from './generated/operations';
import { route } from './route';

/** Files, not envelopes: `download` streams the statement the operation links to. */
export const statementRoutes = [
  route<ProfitStatementQueryVariables>({
    method: 'GET', path: '/statements/profit', operation: 'ProfitStatement', summary: 'Profit statement', auth: 'bearer', download: true,
    variables: ({ query }) => ({ from: query.from, to: query.to, format: query.format }),
  }),
  route<TaxStatementQueryVariables>({
    method: 'GET', path: '/statements/tax', operation: 'TaxStatement', summary: 'Tax statement', auth: 'bearer', download: true,
    variables: ({ query }) => ({ year: query.year, format: query.format }),
  }),
  route<PortfolioSummaryStatementQueryVariables>({
    method: 'GET', path: '/statements/portfolio-summary', operation: 'PortfolioSummaryStatement', summary: 'Portfolio summary statement', auth: 'bearer', download: true,
    variables: ({ query }) => ({ format: query.format }),
  }),
];
