import { Arg, Args, Authorized, Ctx, Query, Resolver } from 'type-graphql';
import type { Context } from '../http/context';
import type { AuthUser } from '../domain/auth-user';
import { CurrentUser } from '../schema/current-user';
import { AuditEvent, AuditEventFilter, AuditEventPage } from '../schema/audit.type';
import { Download } from '../schema/download.type';
import { Role } from '../schema/enums';
import { PageArgs } from '../schema/pagination.type';

@Resolver(() => AuditEvent)
export class AuditResolver {
  @Authorized(Role.ADMIN)
  @Query(() => AuditEventPage, { description: 'The audit trail, newest first (admins only).' })
  auditEvents(
    @Args(() => PageArgs) { page, perPage }: PageArgs,
    @Arg('filter', () => AuditEventFilter, { nullable: true, description: 'Which events; absent: all.' }) filter: AuditEventFilter | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.audit.list(filter, page, perPage);
  }

  @Authorized(Role.ADMIN)
  @Query(() => Download, { description: 'The filtered audit trail as a CSV download link (streamed, newest first; admins only).' })
  auditEventsExport(
    @Arg('filter', () => AuditEventFilter, { nullable: true, description: 'Which events; absent: all.' }) filter: AuditEventFilter | null,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.audit.exportLink(user, filter);
  }
}
