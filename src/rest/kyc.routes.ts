import type {
  KycDocumentDownloadQueryVariables,
  KycDocumentsQueryVariables,
  KycStatusQueryVariables,
  UploadKycDocumentMutationVariables,
} from './generated/operations';
import { KYC_FILE_TYPES } from '../services/kyc.service';
import { idParam, route } from './route';

export const kycRoutes = [
  route<KycDocumentsQueryVariables>({
    method: 'GET',
    path: '/kyc/documents',
    operation: 'KycDocuments',
    summary: 'KYC documents',
    description:
      'Identity-verification documents with their review status. Investors see their own; admins and analysts may filter by `investor_id` and `status`.',
    auth: 'bearer',
    variables: ({ query }) => ({ investorId: query.investor_id, status: query.status }),
  }),
  route<KycStatusQueryVariables>({
    method: 'GET',
    path: '/kyc/status',
    operation: 'KycStatus',
    summary: 'KYC status',
    description:
      'The overall identity-verification status (what investing and withdrawing require: `approved`). Investors read their own; staff pass `investor_id`.',
    auth: 'bearer',
    variables: ({ query }) => ({ investorId: query.investor_id }),
  }),
  route<UploadKycDocumentMutationVariables>({
    method: 'POST',
    path: '/kyc/documents',
    operation: 'UploadKycDocument',
    summary: 'KYC upload',
    description:
      'Uploads an identity document (multipart: `document_type` and the `file`; PDF, JPEG or PNG within the upload limit) for review; investors only, 201 with the pending document. Too large a file is a 413, another file type a 422. Accepts an `Idempotency-Key`.',
    auth: 'bearer',
    status: 201,
    multipartFile: 'file',
    variables: ({ body }) => ({ input: body }),
  }),
  route<KycDocumentDownloadQueryVariables>({
    method: 'GET',
    path: '/kyc/documents/:id/download',
    operation: 'KycDocumentDownload',
    summary: 'KYC document download',
    description:
      'Streams a stored identity document as an attachment in its uploaded type. Investors only their own (any other id is a 404); admins and analysts any.',
    auth: 'bearer',
    download: KYC_FILE_TYPES.map((t) => t.mimeType),
    variables: ({ params }) => ({ id: idParam(params.id) }),
  }),
];
