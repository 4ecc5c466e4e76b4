import type { AuthUser } from '../domain/auth-user';
import type { Prisma } from '../db/database';
import type { ReadReplicas } from '../db/read-replicas';
import { NotFoundError } from '../domain/errors';
import type { Prisma as PrismaNs } from '../generated/prisma/client';
import { PushStatus, type DevicePlatform, type NotificationType } from '../generated/prisma/enums';
import { pageQuery, pageWindow, paginate, toPage, type Page } from './pagination';
import { changes, type LiveSource } from './change-feed';
import { writeOnce, type OnceOptions } from './idempotency.service';
import { formatMoney, type DecimalInput } from '../domain/money';

type Tx = Pick<PrismaNs.TransactionClient, 'notification' | 'deviceToken' | 'userSettings' | 'pushDelivery' | '$executeRaw'>;

/** Writes an amount in the recipient's currency (their settings; USD without a settings row). */
export type Money = (amount: DecimalInput) => string;

export interface NewNotification {
  userId: number;
  type: NotificationType;
  title: string;
  /** A function when the text names an amount: it is written with the recipient's currency. */
  body: string | ((money: Money) => string);
  data?: Record<string, string | number | null>;
}

export interface NotificationListOptions {
  /** true: unread only; false: read only; absent: all. */
  unread?: boolean | null;
  /** Unread ones first (each part newest first). */
  unreadFirst?: boolean | null;
}

type PushSwitch = 'notifyInvestments' | 'notifyWithdrawals' | 'notifyDistributions' | 'notifyPayouts' | 'notifyKyc' | 'notifyNewUnits';

/** The settings switch that lets a type be pushed; null = always (SYSTEM), still subject to pushEnabled. */
const PUSH_SWITCH: Record<NotificationType, PushSwitch | null> = {
  INVESTMENT_REQUEST_REVIEWED: 'notifyInvestments',
  WITHDRAWAL_REQUEST_REVIEWED: 'notifyWithdrawals',
  WITHDRAWAL_COMPLETED: 'notifyWithdrawals',
  DISTRIBUTION_DISTRIBUTED: 'notifyDistributions',
  PAYOUT_PAID: 'notifyPayouts',
  KYC_REVIEWED: 'notifyKyc',
  NEW_UNIT_IN_CATEGORY: 'notifyNewUnits',
  SYSTEM: null,
};

/** The settings' default currency (prisma/schema.prisma, UserSettings). */
const DEFAULT_CURRENCY = 'USD';

const SETTINGS_SELECT = {
  userId: true,
  pushEnabled: true,
  notifyInvestments: true,
  notifyWithdrawals: true,
  notifyDistributions: true,
  notifyPayouts: true,
  notifyKyc: true,
  notifyNewUnits: true,
} as const;

/**
 * Records notifications and, for the recipients' device tokens that their settings allow, the push
 * outbox rows (PushDelivery) that the worker sends later, and tells live subscribers (the change feed). Call it with the transaction client of the
 * state transition they report, so all of it commits (or rolls back) together. A fixed number of
 * queries whatever the list's length: a distribution notifies every holder at once. Amounts in a body
 * are written in each recipient's currency (settings, display only: nothing is converted).
 */
export async function notify(tx: Tx, ...list: NewNotification[]): Promise<void> {
  if (list.length === 0) return;
  const withAmounts = [...new Set(list.filter((n) => typeof n.body === 'function').map((n) => n.userId))];
  const currencies = new Map(
    withAmounts.length
      ? (await tx.userSettings.findMany({ where: { userId: { in: withAmounts } }, select: { userId: true, currency: true } })).map((s) => [
          s.userId,
          s.currency,
        ])
      : [],
  );
  const body = (n: NewNotification) =>
    typeof n.body === 'string' ? n.body : n.body((amount) => formatMoney(amount, currencies.get(n.userId) ?? DEFAULT_CURRENCY));
  const created = await tx.notification.createManyAndReturn({
    data: list.map((n) => ({ userId: n.userId, type: n.type, title: n.title, body: body(n), data: n.data ?? {} })),
    select: { id: true, userId: true, type: true },
  });
  const [first, ...rest] = created.map((n) => ({ type: 'notification' as const, id: n.id, userId: n.userId }));
  await changes.publish(tx, first, ...rest);
  const userIds = [...new Set(created.map((n) => n.userId))];
  const tokens = await tx.deviceToken.findMany({ where: { userId: { in: userIds } }, select: { userId: true, token: true } });
  if (tokens.length === 0) return;
  const settings = await tx.userSettings.findMany({ where: { userId: { in: [...new Set(tokens.map((t) => t.userId))] } }, select: SETTINGS_SELECT });
  const byUser = new Map(settings.map((s) => [s.userId, s]));
  // No settings row yet means the defaults, which allow everything.
  const allowed = (userId: number, type: NotificationType) => {
    const s = byUser.get(userId);
    if (!s) return true;
    const key = PUSH_SWITCH[type];
    return s.pushEnabled && (key === null || s[key]);
  };
  const deliveries = created.flatMap((n) =>
    allowed(n.userId, n.type) ? tokens.filter((t) => t.userId === n.userId).map((t) => ({ notificationId: n.id, token: t.token })) : [],
  );
  if (deliveries.length) await tx.pushDelivery.createMany({ data: deliveries });
}

const SELECT = { id: true, type: true, title: true, body: true, data: true, readAt: true, createdAt: true } satisfies PrismaNs.NotificationSelect;
const NEWEST_FIRST = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];
const DEVICE_SELECT = { id: true, token: true, platform: true, createdAt: true, updatedAt: true } satisfies PrismaNs.DeviceTokenSelect;

export type NotificationView = PrismaNs.NotificationGetPayload<{ select: typeof SELECT }>;

export type DeviceTokenView = PrismaNs.DeviceTokenGetPayload<{ select: typeof DEVICE_SELECT }> & {
  /** True when this call registered the token for the user (REST 201), false when it was already theirs (200). */
  created: boolean;
};

/**
 * A keyed retry whose first answer was lost gets the token as it now stands and, as the first
 * answer would have, whether that registration was new to the user (`device_token:12:new`, REST
 * 201) or moved their own token here (`device_token:12:moved`, 200). A token since removed, or
 * taken by another user, is a 404.
 */
const deviceTokenOnce = (tx: Pick<PrismaNs.TransactionClient, 'deviceToken'>, user: AuthUser): OnceOptions<DeviceTokenView> => ({
  kind: 'device_token',
  ref: (row) => `${row.id}:${row.created ? 'new' : 'moved'}`,
  existing: async (ref) => {
    const [id, how] = ref.split(':');
    const row = await tx.deviceToken.findFirst({ where: { id: Number(id), userId: user.id }, select: DEVICE_SELECT });
    if (!row) throw new NotFoundError();
    return { ...row, created: how === 'new' };
  },
});

/** Whose notifications a user reads: their own only, staff included (nobody reads another user's). */
const own = (user: AuthUser) => ({ userId: user.id });

/** A user's own notifications and their push device tokens. */
export class NotificationService {
  constructor(
    private readonly prisma: Prisma,
    private readonly reads: ReadReplicas,
  ) {}

  /** New notifications for live subscribers: each to its recipient only. */
  readonly live: LiveSource<NotificationView> = {
    load: async (ids) => {
      const rows = await this.prisma.notification.findMany({ where: { id: { in: ids } }, select: { ...SELECT, userId: true } });
      return new Map(rows.map(({ userId, ...view }) => [view.id, { owner: userId, view }]));
    },
    visible: (user, owner) => own(user).userId === owner,
  };

  /** Push deliveries still waiting in the outbox (the /metrics backlog gauge), counted on the (status, next_attempt_at) index. */
  pendingPushes(): Promise<number> {
    return this.prisma.pushDelivery.count({ where: { status: PushStatus.PENDING } });
  }

  /** Newest first; with unreadFirst the unread ones come first, each part newest first. */
  async list(user: AuthUser, options: NotificationListOptions, page?: number | null, perPage?: number | null): Promise<Page<NotificationView>> {
    const db = this.reads.client;
    const w = pageWindow(page, perPage);
    const mine = own(user);
    if (!options.unreadFirst || options.unread != null) {
      const where = { ...mine, ...(options.unread == null ? {} : { readAt: options.unread ? null : { not: null } }) };
      return paginate(w, pageQuery(db.notification, { where, orderBy: NEWEST_FIRST, select: SELECT }));
    }
    // Two segments (unread, then read) laid end to end; the page window may straddle them.
    const unreadWhere = { ...mine, readAt: null };
    const readWhere = { ...mine, readAt: { not: null } };
    const [unreadTotal, readTotal] = await Promise.all([db.notification.count({ where: unreadWhere }), db.notification.count({ where: readWhere })]);
    const unreadTake = Math.max(Math.min(w.take, unreadTotal - w.skip), 0);
    const readSkip = Math.max(w.skip - unreadTotal, 0);
    const [unread, read] = await Promise.all([
      unreadTake ? db.notification.findMany({ where: unreadWhere, orderBy: NEWEST_FIRST, skip: w.skip, take: unreadTake, select: SELECT }) : [],
      w.take - unreadTake
        ? db.notification.findMany({ where: readWhere, orderBy: NEWEST_FIRST, skip: readSkip, take: w.take - unreadTake, select: SELECT })
        : [],
    ]);
    return toPage([...unread, ...read], unreadTotal + readTotal, w);
  }

  async get(user: AuthUser, id: number): Promise<NotificationView> {
    const db = this.reads.client;
    const row = await db.notification.findFirst({ where: { id, ...own(user) }, select: SELECT });
    if (!row) throw new NotFoundError();
    return row;
  }

  /** For the dashboard's polling: one indexed count. */
  unreadCount(user: AuthUser): Promise<number> {
    const db = this.reads.client;
    return db.notification.count({ where: { userId: user.id, readAt: null } });
  }

  /** Idempotent: a notification read before keeps its first readAt. */
  async markRead(user: AuthUser, id: number): Promise<NotificationView> {
    await this.prisma.notification.updateMany({ where: { id, userId: user.id, readAt: null }, data: { readAt: new Date() } });
    return this.get(user, id);
  }

  /** The number of notifications that were unread. */
  async markAllRead(user: AuthUser): Promise<number> {
    const { count } = await this.prisma.notification.updateMany({ where: { userId: user.id, readAt: null }, data: { readAt: new Date() } });
    return count;
  }

  /**
   * Registers a device's FCM token for this user and session, or moves it here: a token names one
   * app install, so whoever registered it last (user and session) receives its pushes.
   */
  async registerDeviceToken(user: AuthUser, token: string, platform: DevicePlatform): Promise<DeviceTokenView> {
    return this.prisma.$transaction((tx) =>
      writeOnce(tx, deviceTokenOnce(tx, user), async () => {
        const before = await tx.deviceToken.findUnique({ where: { token }, select: { userId: true } });
        const row = await tx.deviceToken.upsert({
          where: { token },
          create: { token, platform, userId: user.id, sessionId: user.sessionId },
          update: { platform, userId: user.id, sessionId: user.sessionId },
          select: DEVICE_SELECT,
        });
        return { ...row, created: before?.userId !== user.id };
      }),
    );
  }

  /** The given token of this user, or without one every token this session registered; answers how many went. */
  async removeDeviceTokens(user: AuthUser, token?: string | null): Promise<number> {
    const where = token ? { userId: user.id, token } : { userId: user.id, sessionId: user.sessionId };
    const { count } = await this.prisma.deviceToken.deleteMany({ where });
    return count;
  }
}
