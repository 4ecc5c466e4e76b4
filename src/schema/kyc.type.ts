import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { KycStatus } from '../services/investor.service';
import { KycDocumentStatus, KycDocumentType } from './enums';
import './investor.type'; // registers the KycStatus enum used below
import type { FileUpload } from '../services/storage/upload';
import { UploadScalar } from './upload.type';
import type { KycDocumentView, KycStatusSummaryView, UploadKycDocument } from '../services/kyc.service';
import { OptionalId } from './rules';

@ObjectType({ description: 'An identity or address document an investor uploaded for verification (the file itself is not exposed).' })
export class KycDocument implements KycDocumentView {
  @Field(() => Int, { description: 'Id of the document: what kycDocumentDownload(id:) and the review mutations take.' }) id: number;
  @Field(() => Int, { description: 'The investor who uploaded it.' }) investorId: number;
  @Field(() => KycDocumentType, { description: 'What the document is.' }) documentType: KycDocumentType;
  @Field(() => KycDocumentStatus, { description: 'PENDING until an admin approves or rejects it.' }) status: KycDocumentStatus;
  @Field(() => String, { description: 'application/pdf, image/jpeg or image/png, as recognised from the content.' }) mimeType: string;
  @Field(() => Int, { description: 'Size of the file in bytes.' }) sizeBytes: number;
  @Field(() => String, { nullable: true, description: 'Why an admin rejected it (shown to the investor); null unless REJECTED.' }) rejectionReason:
    string | null;
  @Field(() => Date, { nullable: true, description: 'When an admin approved or rejected it; null while PENDING.' }) reviewedAt: Date | null;
  @Field(() => Date, { description: 'When it was uploaded.' }) createdAt: Date;
  @Field(() => Date, { description: 'When its status last changed.' }) updatedAt: Date;
}

@ObjectType({ description: "An investor's verification state and the counts it is derived from." })
export class KycStatusSummary implements KycStatusSummaryView {
  @Field(() => KycStatus, { description: 'The overall state, derived from the counts below.' }) status: KycStatus;
  @Field(() => Int, { description: 'Documents uploaded, in any status.' }) documentsCount: number;
  @Field(() => Int, { description: 'Documents an admin approved.' }) approvedCount: number;
  @Field(() => Int, { description: 'Documents waiting for review.' }) pendingCount: number;
  @Field(() => Int, { description: 'Documents an admin rejected.' }) rejectedCount: number;
  @Field(() => Date, { nullable: true, description: 'When the latest review of any of the documents happened.' }) lastReviewedAt: Date | null;
}

@ArgsType()
export class KycScopeArgs {
  @Field(() => Int, { nullable: true, description: 'Staff only; investors always get their own.' })
  @OptionalId('investor id')
  investorId?: number | null;
}

@ArgsType()
export class KycDocumentsArgs extends KycScopeArgs {
  @Field(() => KycDocumentStatus, { nullable: true, description: 'E.g. PENDING: the review queue.' }) status?: KycDocumentStatus | null;
}

@InputType({ description: 'One document sent as a multipart request (GraphQL multipart request spec).' })
export class UploadKycDocumentInput implements UploadKycDocument {
  @Field(() => KycDocumentType, { description: 'What the document is.' }) documentType: KycDocumentType;

  @Field(() => UploadScalar, { description: 'A PDF, JPEG or PNG (told by its first bytes), at most UPLOAD_MAX_BYTES (10 MB by default).' })
  file: Promise<FileUpload>;
}
