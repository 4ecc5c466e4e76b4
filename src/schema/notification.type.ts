import { IsNotEmpty, IsOptional } from 'class-validator';
import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import type { Prisma } from '../generated/prisma/client';
import { DevicePlatform, NotificationType } from './enums';
import { Paginated } from './pagination.type';
import { Text } from './rules';

/** FCM registration tokens are ~160 characters today; the bound only stops abuse. */
const TOKEN_MAX = 4096;

@ObjectType({ description: 'A message to the user about one of their records (also pushed to their devices when their settings allow).' })
export class Notification {
  @Field(() => Int) id: number;
  @Field(() => NotificationType) type: NotificationType;
  @Field(() => String) title: string;
  @Field(() => String) body: string;
  @Field(() => GraphQLJSONObject, { description: 'Ids of the records concerned, e.g. {"payoutId": 12, "unitId": 3}.' }) data: Prisma.JsonValue;
  @Field(() => Date, { nullable: true, description: 'Null while unread.' }) readAt: Date | null;
  @Field(() => Date) createdAt: Date;
}

@ObjectType()
export class NotificationPage extends Paginated(Notification) {}

@ArgsType()
export class NotificationListArgs {
  @Field(() => Boolean, { nullable: true, description: 'true: unread only; false: read only; absent: all.' })
  unread?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: 'Unread first, each part newest first (otherwise newest first).' })
  unreadFirst?: boolean | null;
}

@ObjectType({ description: "A device's push (FCM) registration token." })
export class DeviceToken {
  @Field(() => Int) id: number;
  @Field(() => String) token: string;
  @Field(() => DevicePlatform) platform: DevicePlatform;
  @Field(() => Boolean, { description: 'True when this call registered it for the user; false when it was already theirs.' }) created: boolean;
  @Field(() => Date) createdAt: Date;
  @Field(() => Date) updatedAt: Date;
}

@InputType()
export class RegisterDeviceTokenInput {
  @Field(() => String)
  @IsNotEmpty({ message: 'The token field is required.' })
  @Text('token', TOKEN_MAX)
  token: string;

  @Field(() => DevicePlatform) platform: DevicePlatform;
}

@ArgsType()
export class RemoveDeviceTokenArgs {
  @Field(() => String, { nullable: true, description: "One of the user's tokens; absent: every token this session registered." })
  @IsOptional()
  @Text('token', TOKEN_MAX)
  token?: string | null;
}
