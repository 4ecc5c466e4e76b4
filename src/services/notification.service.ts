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
 * Records a notification for a user. Call it with the transaction client of the state transition
 * it reports, so the two commit (or roll back) together.
 */
export async function notify(tx: Tx, n: NewNotification): Promise<void> {
  await tx.notification.create({ data: { userId: n.userId, type: n.type, title: n.title, body: n.body, data: n.data ?? {} } });
}
