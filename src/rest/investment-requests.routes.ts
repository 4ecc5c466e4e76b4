import { lenientPage } from '../services/pagination';
import type { CreateInvestmentRequestMutationVariables, InvestmentRequestsQueryVariables } from './generated/operations';
import { route } from './route';

export const investmentRequestRoutes = [
  route<InvestmentRequestsQueryVariables>({
    method: 'GET',
    path: '/investment-requests',
    operation: 'InvestmentRequests',
    summary: 'List investment requests',
    description:
      'Investment requests, newest first, paginated; filters `status` and `unit_id`. Investors see their own; admins and analysts see all and may filter by `investor_id`.',
    auth: 'bearer',
    envelope: 'paginated',
    variables: ({ query }) => ({
      page: lenientPage(query.page),
      perPage: query.per_page,
      filter: { status: query.status, unitId: query.unit_id, investorId: query.investor_id },
    }),
  }),
  route<CreateInvestmentRequestMutationVariables>({
    method: 'POST',
    path: '/investment-requests',
    operation: 'CreateInvestmentRequest',
    summary: 'Create investment request',
    description:
      'Asks to buy a share of an available unit for `amount` (investors only). Answers the pending request with 201; an admin reviews it in the back office. Accepts an `Idempotency-Key`.',
    errors: {
      409: "the investor's identity verification (KYC) is not approved, the unit is not open for investment, or the amount exceeds what is still available",
    },
    auth: 'bearer',
    status: 201,
    variables: ({ body }) => ({ input: body }),
  }),
];
