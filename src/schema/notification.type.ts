import { IsNotEmpty, IsOptional } from 'class-validator';
import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import type { Prisma } from '../generated/prisma/client';
import { DevicePlatform, NotificationType } from './enums';
import { Paginated } from './pagination.type';
import { Text } from './rules';
import type { DeviceTokenView, NotificationView } from '../services/notification.service';

/** FCM registration tokens are ~160 characters today; the bound only stops abuse. */
const TOKEN_MAX = 4096;

@ObjectType({ description: 'A message to the user about one of their records (also pushed to their devices when their settings allow).' })
export class Notification implements NotificationView {
  @Field(() => Int, { description: 'Id of the notification: what markNotificationRead takes.' }) id: number;
  @Field(() => NotificationType, { description: 'The event it tells of; data holds the ids that event concerns.' }) type: NotificationType;
  @Field(() => String, { description: 'Short heading, also the push title.' }) title: string;
  @Field(() => String, { description: 'One or two sentences, also the push body.' }) body: string;
  @Field(() => GraphQLJSONObject, { description: 'Ids of the records concerned, e.g. {"payoutId": 12, "unitId": 3}.' }) data: Prisma.JsonValue;
  @Field(() => Date, { nullable: true, description: 'Null while unread.' }) readAt: Date | null;
  @Field(() => Date, { description: 'When the event happened.' }) createdAt: Date;
}

@ObjectType({ description: "One page of the user's notifications." })
export class NotificationPage extends Paginated(Notification) {}

@ArgsType()
export class NotificationListArgs {
  @Field(() => Boolean, { nullable: true, description: 'true: unread only; false: read only; absent: all.' })
  unread?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: 'Unread first, each part newest first (otherwise newest first).' })
  unreadFirst?: boolean | null;
}

@ObjectType({ description: "A device's push (FCM) registration token." })
export class DeviceToken implements DeviceTokenView {
  @Field(() => Int, { description: 'Id of the registration.' }) id: number;
  @Field(() => String, { description: 'The FCM registration token as the device reported it.' }) token: string;
  @Field(() => DevicePlatform, { description: 'The platform the device runs.' }) platform: DevicePlatform;
  @Field(() => Boolean, { description: 'True when this call registered it for the user; false when it was already theirs.' }) created: boolean;
  @Field(() => Date, { description: 'When the token was first registered.' }) createdAt: Date;
  @Field(() => Date, { description: 'When it was last registered or moved to this user.' }) updatedAt: Date;
}

@InputType({ description: "A device's push registration; a token registered by another user moves to this one." })
export class RegisterDeviceTokenInput {
  @Field(() => String, { description: 'The FCM registration token (at most 4096 characters).' })
  @IsNotEmpty({ message: 'The token field is required.' })
  @Text('token', TOKEN_MAX)
  token: string;

  @Field(() => DevicePlatform, { description: 'The platform the device runs.' }) platform: DevicePlatform;
}

@ArgsType()
export class RemoveDeviceTokenArgs {
  @Field(() => String, { nullable: true, description: "One of the user's tokens; absent: every token this session registered." })
  @IsOptional()
  @Text('token', TOKEN_MAX)
  token?: string | null;
}
