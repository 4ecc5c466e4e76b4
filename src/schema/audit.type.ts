import { IsOptional, Min } from 'class-validator';
import { GraphQLJSON } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Role } from './enums';
import { Text } from './rules';
import { Paginated } from './pagination.type';

@ObjectType({ description: 'Who acted: a user id and the role they had.' })
export class AuditActor {
  @Field(() => Int) id: number;
  @Field(() => Role) role: Role;
}

@ObjectType({ description: 'What was acted on: a type (`withdrawal_request`, `user`, …) and its id.' })
export class AuditTarget {
  @Field(() => String) type: string;
  @Field(() => ID) id: string;
}

@ObjectType({ description: 'One entry of the append-only audit trail (docs/audit.md).' })
export class AuditEvent {
  @Field(() => ID) id: string;
  @Field(() => Date, { description: "The database's clock when the recorded action's transaction ran." }) occurredAt: Date;
  @Field(() => AuditActor, { nullable: true, description: 'None for a guest (failed login, password reset) or a script.' }) actor: AuditActor | null;
  @Field(() => String, { description: 'Stable dotted name, e.g. `withdrawal_request.approved`.' }) action: string;
  @Field(() => AuditTarget, { nullable: true }) target: AuditTarget | null;
  @Field(() => GraphQLJSON, { nullable: true, description: '`{ before, after }` of the changed fields; a creation has only `after`.' }) changes: unknown;
  @Field(() => String, { nullable: true, description: "The request's X-Request-Id." }) requestId: string | null;
  @Field(() => String, { nullable: true, description: 'Client IP as the trusted-proxy setting sees it.' }) ip: string | null;
  @Field(() => String, { nullable: true }) userAgent: string | null;
}

@ObjectType()
export class AuditEventPage extends Paginated(AuditEvent) {}

@InputType()
export class AuditEventFilter {
  @Field(() => String, { nullable: true, description: 'Exact action name.' })
  @IsOptional()
  @Text('action', 100)
  action?: string | null;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(1, { message: 'The actor id field must be at least 1.' })
  actorId?: number | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Text('target type', 100)
  targetType?: string | null;

  @Field(() => ID, { nullable: true })
  @IsOptional()
  @Text('target id', 100)
  targetId?: string | null;

  @Field(() => Date, { nullable: true, description: 'Inclusive lower bound on occurredAt.' }) from?: Date | null;
  @Field(() => Date, { nullable: true, description: 'Inclusive upper bound on occurredAt.' }) to?: Date | null;
}
