import type { PortfolioSummaryStatementQueryVariables, ProfitStatementQueryVariables, TaxStatementQueryVariables } from './generated/operations';
import { route } from './route';

/** `format=pdf` (the default) or `format=csv`. */
const STATEMENT_TYPES = ['application/pdf', 'text/csv'];

/** Files, not envelopes: `download` streams the statement the operation links to. */
export const statementRoutes = [
  route<ProfitStatementQueryVariables>({
    method: 'GET',
    path: '/statements/profit',
    operation: 'ProfitStatement',
    summary: 'Profit statement',
    description:
      "The signed-in investor's profit statement for `from`..`to`, as a PDF (`format=pdf`, the default) or CSV (`format=csv`) attachment. Investors only (staff get 403).",
    auth: 'bearer',
    download: STATEMENT_TYPES,
    variables: ({ query }) => ({ from: query.from, to: query.to, format: query.format }),
  }),
  route<TaxStatementQueryVariables>({
    method: 'GET',
    path: '/statements/tax',
    operation: 'TaxStatement',
    summary: 'Tax statement',
    description: "The signed-in investor's tax statement for calendar `year`, as a PDF (default) or CSV attachment. Investors only (staff get 403).",
    auth: 'bearer',
    download: STATEMENT_TYPES,
    variables: ({ query }) => ({ year: query.year, format: query.format }),
  }),
  route<PortfolioSummaryStatementQueryVariables>({
    method: 'GET',
    path: '/statements/portfolio-summary',
    operation: 'PortfolioSummaryStatement',
    summary: 'Portfolio summary statement',
    description: "The signed-in investor's current holdings and totals, as a PDF (default) or CSV attachment. Investors only (staff get 403).",
    auth: 'bearer',
    download: STATEMENT_TYPES,
    variables: ({ query }) => ({ format: query.format }),
  }),
];
