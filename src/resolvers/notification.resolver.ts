import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../http/context';
import type { AuthUser } from '../domain/auth-user';
import { CurrentUser } from '../schema/current-user';
import {
  DeviceToken,
  Notification,
  NotificationListArgs,
  NotificationPage,
  RegisterDeviceTokenInput,
  RemoveDeviceTokenArgs,
} from '../schema/notification.type';
import { PageArgs } from '../schema/pagination.type';
import { Idempotent } from '../schema/idempotent';

@Resolver(() => Notification)
export class NotificationResolver {
  @Authorized()
  @Query(() => NotificationPage, { description: "The user's own notifications, newest first (or unread first)." })
  notifications(
    @Args(() => PageArgs) { page, perPage }: PageArgs,
    @Args(() => NotificationListArgs) options: NotificationListArgs,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.notifications.list(user, options, page, perPage);
  }

  @Authorized()
  @Query(() => Notification, { description: "One of the user's own notifications; anyone else's or a missing id is NOT_FOUND." })
  notification(@Arg('id', () => Int, { description: 'Id of the notification.' }) id: number, @Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.notifications.get(user, id);
  }

  @Authorized()
  @Query(() => Int, { description: 'Unread notifications of the user: one cheap count, for polling.' })
  unreadNotificationCount(@Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.notifications.unreadCount(user);
  }

  @Authorized()
  @Mutation(() => Notification, { description: 'Idempotent: a notification read before keeps its readAt.' })
  markNotificationRead(
    @Arg('id', () => Int, { description: 'Id of one of your notifications.' }) id: number,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.notifications.markRead(user, id);
  }

  @Authorized()
  @Mutation(() => Int, { description: 'Marks every unread notification read; answers how many were unread.' })
  markAllNotificationsRead(@Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.notifications.markAllRead(user);
  }

  @Authorized()
  @Idempotent()
  @Mutation(() => DeviceToken, { description: "Registers this device's FCM token for the user and session (or moves it here)." })
  registerDeviceToken(
    @Arg('input', () => RegisterDeviceTokenInput, { description: 'Token and platform.' }) input: RegisterDeviceTokenInput,
    @Ctx() ctx: Context,
    @CurrentUser() user: AuthUser,
  ) {
    return ctx.services.notifications.registerDeviceToken(user, input.token, input.platform);
  }

  @Authorized()
  @Mutation(() => Int, { description: "Removes one of the user's tokens, or without one every token this session registered; answers how many." })
  removeDeviceToken(@Args(() => RemoveDeviceTokenArgs) { token }: RemoveDeviceTokenArgs, @Ctx() ctx: Context, @CurrentUser() user: AuthUser) {
    return ctx.services.notifications.removeDeviceTokens(user, token);
  }
}
