import type { Prisma as PrismaNs } from '../generated/prisma/client';
import type { NotificationType } from '../generated/prisma/enums';

type Tx = Pick<PrismaNs.TransactionClient, 'notification'>;

export interface NewNotification {
  userId: number;
  type: NotificationType;
  title: string;
  body: string;
  data?: Record<string, string | number | null>;
}

/**
 * Records notifications (one insert for any number). Call it with the transaction client of the
 * state transition they report, so the two commit (or roll back) together.
 */
export async function notify(tx: Tx, ...list: NewNotification[]): Promise<void> {
  if (list.length === 0) return;
  await tx.notification.createMany({ data: list.map((n) => ({ userId: n.userId, type: n.type, title: n.title, body: n.body, data: n.data ?? {} })) });
}
