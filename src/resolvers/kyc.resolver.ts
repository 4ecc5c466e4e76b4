import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver, UseMiddleware } from 'type-graphql';
import type { Context } from '../http/context';
import type { AuthUser } from '../domain/auth-user';
import { CurrentUser } from '../schema/current-user';
import { Download, HandOverFile } from '../schema/download.type';
import { Role } from '../schema/enums';
import { KycDocument, KycDocumentsArgs, KycScopeArgs, KycStatusSummary, UploadKycDocumentInput } from '../schema/kyc.type';
import { RejectArgs } from '../schema/review.type';
import { Idempotent } from '../schema/idempotent';

@Resolver(() => KycDocument)
export class KycResolver {
  @Authorized()
  @Query(() => [KycDocument], { description: 'KYC documents, newest first. Investors see their own; staff see all or one investor’s.' })
  kycDocuments(@Args(() => KycDocumentsArgs) args: KycDocumentsArgs, @Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.kyc.list(user, args);
  }

  @Authorized()
  @Query(() => KycDocument, {
    description: 'One KYC document (not the file: see kycDocumentDownload): investors their own, staff any. Another investor’s or a missing id is NOT_FOUND.',
  })
  kycDocument(@Arg('id', () => Int, { description: 'Id of the document.' }) id: number, @Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.kyc.get(user, id);
  }

  @Authorized()
  @Query(() => KycStatusSummary, { description: "The investor's verification state; staff pass investorId." })
  kycStatus(@Args(() => KycScopeArgs) { investorId }: KycScopeArgs, @Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.kyc.status(user, investorId);
  }

  @Authorized()
  @Query(() => Download, { description: 'A short-lived link to the file; for its owner and staff.' })
  @UseMiddleware(HandOverFile)
  kycDocumentDownload(@Arg('id', () => Int, { description: 'Id of the document.' }) id: number, @Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.kyc.downloadLink(user, id);
  }

  @Authorized(Role.INVESTOR)
  @Idempotent()
  @Mutation(() => KycDocument, { description: 'A PDF, JPEG or PNG (told by its content), stored as PENDING for review. Investors only (staff: FORBIDDEN).' })
  uploadKycDocument(
    @Arg('input', () => UploadKycDocumentInput, { description: 'Document type and file.' }) input: UploadKycDocumentInput,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.kyc.upload(user, input);
  }

  @Authorized(Role.ADMIN)
  @Mutation(() => KycDocument, { description: 'PENDING → APPROVED; the investor is notified. Admins only (others: FORBIDDEN).' })
  approveKycDocument(
    @Arg('id', () => Int, { description: 'Id of the PENDING document; a reviewed one is CONFLICT.' }) id: number,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.kyc.approve(user, id);
  }

  @Authorized(Role.ADMIN)
  @Mutation(() => KycDocument, { description: 'PENDING → REJECTED with a reason the investor is told. Admins only (others: FORBIDDEN).' })
  rejectKycDocument(@Args(() => RejectArgs) { id, reason }: RejectArgs, @Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.kyc.reject(user, id, reason);
  }
}
