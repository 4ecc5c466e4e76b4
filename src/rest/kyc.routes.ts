import type { KycDocumentsQueryVariables, KycStatusQueryVariables } from './generated/operations';
import { route } from './route';

export const kycRoutes = [
  route<KycDocumentsQueryVariables>({
    method: 'GET', path: '/kyc/documents', operation: 'KycDocuments', summary: 'KYC documents', auth: 'bearer',
    variables: ({ query }) => ({ investorId: query.investor_id, status: query.status }),
  }),
  route<KycStatusQueryVariables>({
    method: 'GET', path: '/kyc/status', operation: 'KycStatus', summary: 'KYC status', auth: 'bearer',
    variables: ({ query }) => ({ investorId: query.investor_id }),
  }),
];
