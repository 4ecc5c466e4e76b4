import type { PortfolioSummaryStatementQueryVariables, ProfitStatementQueryVariables, TaxStatementQueryVariables } from './generated/operations';
import { route } from './route';

/** `format=pdf` (the default) or `format=csv`. */
const STATEMENT_TYPES = ['application/pdf', 'text/csv'];
/** What both files hold, in every statement route's description (docs/api.md, Statements). */
const FILES =
  " The PDF is in the investor's language where statements are written in it (en, cs, da, de, es, fr, it, nb, nl, pl, pt, sv; any other gets English), amounts formatted in the currency of their settings (not converted), the time in their time zone. The CSV is English whatever the settings: per section a header row, the rows and the totals rows, amounts as plain decimals, and a last `Currency` column (the ISO 4217 code) in sections with amounts.";

/** Files, not envelopes: `download` streams the statement the operation links to. */
export const statementRoutes = [
  route<ProfitStatementQueryVariables>({
    method: 'GET',
    path: '/statements/profit',
    operation: 'ProfitStatement',
    summary: 'Profit statement',
    description:
      "The signed-in investor's profit statement for `from`..`to`, as a PDF (`format=pdf`, the default) or CSV (`format=csv`) attachment. Investors only (staff get 403)." +
      FILES,
    auth: 'bearer',
    download: STATEMENT_TYPES,
    variables: ({ query }) => ({ from: query.from, to: query.to, format: query.format }),
  }),
  route<TaxStatementQueryVariables>({
    method: 'GET',
    path: '/statements/tax',
    operation: 'TaxStatement',
    summary: 'Tax statement',
    description: "The signed-in investor's tax statement for calendar `year`, as a PDF (default) or CSV attachment. Investors only (staff get 403)." + FILES,
    auth: 'bearer',
    download: STATEMENT_TYPES,
    variables: ({ query }) => ({ year: query.year, format: query.format }),
  }),
  route<PortfolioSummaryStatementQueryVariables>({
    method: 'GET',
    path: '/statements/portfolio-summary',
    operation: 'PortfolioSummaryStatement',
    summary: 'Portfolio summary statement',
    description: "The signed-in investor's current holdings and totals, as a PDF (default) or CSV attachment. Investors only (staff get 403)." + FILES,
    auth: 'bearer',
    download: STATEMENT_TYPES,
    variables: ({ query }) => ({ format: query.format }),
  }),
];
