import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../http/context';
import { LegalTextKind, Role } from '../schema/enums';
import { LegalText, UpsertLegalTextInput } from '../schema/legal.type';

@Resolver(() => LegalText)
export class LegalResolver {
  @Query(() => LegalText, { description: 'The published text of one kind (public).' })
  legalText(@Arg('kind', () => LegalTextKind, { description: 'Which text; one never published is NOT_FOUND.' }) kind: LegalTextKind, @Ctx() ctx: Context) {
    return ctx.services.legal.get(kind);
  }

  @Authorized(Role.ADMIN)
  @Mutation(() => LegalText, {
    description: 'Publish a legal text: replaces the current one, bumps its version and publication time. Admins only (others: FORBIDDEN).',
  })
  upsertLegalText(@Arg('input', () => UpsertLegalTextInput, { description: 'Kind, title and content.' }) input: UpsertLegalTextInput, @Ctx() ctx: Context) {
    return ctx.services.legal.upsert(input);
  }
}
