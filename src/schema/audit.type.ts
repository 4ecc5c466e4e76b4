import { IsOptional } from 'class-validator';
import { GraphQLJSON } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Role } from './enums';
import { OptionalId, Text } from './rules';
import { Paginated } from './pagination.type';
import type { Prisma } from '../generated/prisma/client';
import type { AuditActor as AuditActorView, AuditEventView } from '../services/audit.service';

@ObjectType({ description: 'Who acted: a user id and the role they had.' })
export class AuditActor implements AuditActorView {
  @Field(() => Int, { description: "The acting user's id (it stays in the trail after the account is deleted)." }) id: number;
  @Field(() => Role, { description: 'The role the user had when acting.' }) role: Role;
}

@ObjectType({ description: 'What was acted on: a type (`withdrawal_request`, `user`, …) and its id.' })
export class AuditTarget implements NonNullable<AuditEventView['target']> {
  @Field(() => String, { description: 'Snake-case record kind, e.g. `withdrawal_request`, `unit`, `user`.' }) type: string;
  @Field(() => ID, { description: "The record's id, as text." }) id: string;
}

@ObjectType({ description: 'One entry of the append-only audit trail (docs/audit.md).' })
export class AuditEvent implements AuditEventView {
  @Field(() => ID, { description: 'Position in the trail (a growing number, as text).' }) id: string;
  @Field(() => Date, { description: "The database's clock when the recorded action's transaction ran." }) occurredAt: Date;
  @Field(() => AuditActor, { nullable: true, description: 'None for a guest (failed login, password reset) or a script.' }) actor: AuditActor | null;
  @Field(() => String, { description: 'Stable dotted name, e.g. `withdrawal_request.approved`.' }) action: string;
  @Field(() => AuditTarget, { nullable: true, description: 'The record acted on; none for actions without one (e.g. a failed login for an unknown email).' })
  target: AuditTarget | null;
  @Field(() => GraphQLJSON, { nullable: true, description: '`{ before, after }` of the changed fields; a creation has only `after`.' })
  changes: Prisma.JsonValue | null;
  @Field(() => String, { nullable: true, description: "The request's X-Request-Id." }) requestId: string | null;
  @Field(() => String, { nullable: true, description: 'Client IP as the trusted-proxy setting sees it.' }) ip: string | null;
  @Field(() => String, { nullable: true, description: "The client's User-Agent header, if it sent one." }) userAgent: string | null;
}

@ObjectType({ description: 'One page of the audit trail, newest first.' })
export class AuditEventPage extends Paginated(AuditEvent) {}

@InputType({ description: 'All optional and combined with AND; `from`/`to` are inclusive instants on occurredAt.' })
export class AuditEventFilter {
  @Field(() => String, { nullable: true, description: 'Exact action name.' })
  @IsOptional()
  @Text('action', 100)
  action?: string | null;

  @Field(() => Int, { nullable: true, description: 'Only actions by this user id.' })
  @OptionalId('actor id')
  actorId?: number | null;

  @Field(() => String, { nullable: true, description: 'Only actions on this kind of record, e.g. `withdrawal_request`.' })
  @IsOptional()
  @Text('target type', 100)
  targetType?: string | null;

  @Field(() => ID, { nullable: true, description: 'Only actions on the record with this id (use with targetType).' })
  @IsOptional()
  @Text('target id', 100)
  targetId?: string | null;

  @Field(() => Date, { nullable: true, description: 'Inclusive lower bound on occurredAt.' }) from?: Date | null;
  @Field(() => Date, { nullable: true, description: 'Inclusive upper bound on occurredAt.' }) to?: Date | null;
}
