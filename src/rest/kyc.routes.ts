import type { KycDocumentDownloadQueryVariables, KycDocumentsQueryVariables, KycStatusQueryVariables, UploadKycDocumentMutationVariables } from './generated/operations';
import { idParam, route } from './route';

export const kycRoutes = [
  route<KycDocumentsQueryVariables>({
    method: 'GET', path: '/kyc/documents', operation: 'KycDocuments', summary: 'KYC documents', auth: 'bearer',
    variables: ({ query }) => ({ investorId: query.investor_id, status: query.status }),
  }),
  route<KycStatusQueryVariables>({
    method: 'GET', path: '/kyc/status', operation: 'KycStatus', summary: 'KYC status', auth: 'bearer',
    variables: ({ query }) => ({ investorId: query.investor_id }),
  }),
  route<UploadKycDocumentMutationVariables>({
    method: 'POST', path: '/kyc/documents', operation: 'UploadKycDocument', summary: 'KYC upload', auth: 'bearer', status: 201,
    multipartFile: 'file', variables: ({ body }) => ({ input: body }),
  }),
  route<KycDocumentDownloadQueryVariables>({
    method: 'GET', path: '/kyc/documents/:id/download', operation: 'KycDocumentDownload', summary: 'KYC document download', auth: 'bearer', download: true,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  }),
];
