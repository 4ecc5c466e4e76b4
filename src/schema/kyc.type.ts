import { IsOptional, Min } from 'class-validator';
import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { KycStatus } from '../services/investor.service';
import { KycDocumentStatus, KycDocumentType } from './enums';
import './investor.type'; // registers the KycStatus enum used below
import type { FileUpload } from '../services/storage/upload';
import { UploadScalar } from './upload.type';

@ObjectType({ description: 'An identity or address document an investor uploaded for verification (the file itself is not exposed).' })
export class KycDocument {
  @Field(() => Int) id: number;
  @Field(() => Int) investorId: number;
  @Field(() => KycDocumentType) documentType: KycDocumentType;
  @Field(() => KycDocumentStatus) status: KycDocumentStatus;
  @Field(() => String) mimeType: string;
  @Field(() => Int) sizeBytes: number;
  @Field(() => String, { nullable: true }) rejectionReason: string | null;
  @Field(() => Date, { nullable: true }) reviewedAt: Date | null;
  @Field(() => Date) createdAt: Date;
  @Field(() => Date) updatedAt: Date;
}

@ObjectType({ description: "An investor's verification state and the counts it is derived from." })
export class KycStatusSummary {
  @Field(() => KycStatus) status: KycStatus;
  @Field(() => Int) documentsCount: number;
  @Field(() => Int) approvedCount: number;
  @Field(() => Int) pendingCount: number;
  @Field(() => Int) rejectedCount: number;
  @Field(() => Date, { nullable: true, description: 'When the latest review of any of the documents happened.' }) lastReviewedAt: Date | null;
}

@ArgsType()
export class KycScopeArgs {
  @Field(() => Int, { nullable: true, description: 'Staff only; investors always get their own.' })
  @IsOptional()
  @Min(1, { message: 'The investor id field must be at least 1.' })
  investorId?: number | null;
}

@ArgsType()
export class KycDocumentsArgs extends KycScopeArgs {
  @Field(() => KycDocumentStatus, { nullable: true, description: 'E.g. PENDING: the review queue.' }) status?: KycDocumentStatus | null;
}

@InputType()
export class UploadKycDocumentInput {
  @Field(() => KycDocumentType) documentType: KycDocumentType;

  @Field(() => UploadScalar, { description: 'A PDF, JPEG or PNG (told by its first bytes), at most UPLOAD_MAX_BYTES (10 MB by default).' })
  file: Promise<FileUpload>;
}
