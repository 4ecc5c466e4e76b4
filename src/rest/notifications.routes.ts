import { lenientPage } from '../services/pagination';
import type {
  MarkNotificationReadMutationVariables,
  NotificationQueryVariables,
  NotificationsQueryVariables,
  RegisterDeviceTokenMutationVariables,
  RemoveDeviceTokenMutationVariables,
} from './generated/operations';
import { idParam, route } from './route';

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export const notificationRoutes = [
  route<NotificationsQueryVariables>({
    method: 'GET',
    path: '/notifications',
    operation: 'Notifications',
    summary: 'List notifications',
    description:
      "The signed-in user's notifications, newest first (or unread first with `unread_first=true`), paginated; `unread=true` lists only unread ones. Any role.",
    auth: 'bearer',
    envelope: 'paginated',
    variables: ({ query }) => ({ page: lenientPage(query.page), perPage: query.per_page, unread: query.unread, unreadFirst: query.unread_first }),
  }),
  route({
    method: 'POST',
    path: '/notifications/read-all',
    operation: 'MarkAllNotificationsRead',
    summary: 'Mark all notifications as read',
    description: 'Marks every unread notification of the signed-in user read; the message says how many were unread.',
    auth: 'bearer',
    emptyData: true,
    message: '5 notifications marked as read.',
    outcome: (count) => ({ message: `${counted(count as number, 'notification', 'notifications')} marked as read.` }),
  }),
  route<RegisterDeviceTokenMutationVariables>({
    method: 'POST',
    path: '/notifications/fcm-token',
    operation: 'RegisterDeviceToken',
    summary: 'Register FCM token',
    description:
      "Registers this device's Firebase Cloud Messaging token for push notifications (201), or moves a token the user had registered before to this session (200). Any role.",
    auth: 'bearer',
    status: 201,
    variables: ({ body }) => ({ input: body }),
    // 201 when the token is new to this user, 200 when it was already theirs (moved to this session).
    outcomeStatuses: [200],
    outcome: (token) => ({ status: (token as { created: boolean }).created ? 201 : 200 }),
  }),
  route<RemoveDeviceTokenMutationVariables>({
    method: 'DELETE',
    path: '/notifications/fcm-token',
    operation: 'RemoveDeviceToken',
    summary: 'Remove FCM token',
    description:
      'Removes a device token of the signed-in user (`token`), or, without one, every token of this session; the message says how many were removed.',
    auth: 'bearer',
    emptyData: true,
    message: '1 device token removed.',
    variables: ({ body }) => ({ token: body.token }),
    outcome: (count) => ({ message: `${counted(count as number, 'device token', 'device tokens')} removed.` }),
  }),
  route<NotificationQueryVariables>({
    method: 'GET',
    path: '/notifications/:id',
    operation: 'Notification',
    summary: 'Get notification',
    description: "One notification of the signed-in user; another user's notification is a 404.",
    auth: 'bearer',
    variables: ({ params }) => ({ id: idParam(params.id) }),
  }),
  route<MarkNotificationReadMutationVariables>({
    method: 'POST',
    path: '/notifications/:id/read',
    operation: 'MarkNotificationRead',
    summary: 'Mark notification as read',
    description: "Marks one of the signed-in user's notifications read (a notification read before keeps its `read_at`); another user's is a 404.",
    auth: 'bearer',
    variables: ({ params }) => ({ id: idParam(params.id) }),
  }),
];
