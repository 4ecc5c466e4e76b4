import type { NotificationType } from '../../generated/prisma/enums';

/** One push to one device. */
export interface PushMessage {
  token: string;
  type: NotificationType;
  title: string;
  body: string;
  /** The notification's data plus its id and type; FCM data payloads are string → string. */
  data: Record<string, string>;
}

/**
 * What became of a send:
 *  - sent: accepted by the push service;
 *  - retry: may succeed later (network, quota, the service unavailable): tried again with back-off;
 *  - failed: will never succeed as it is; invalidToken says the token is dead (the device uninstalled
 *    the app or the token expired) and must be forgotten.
 */
export type PushResult = { status: 'sent' } | { status: 'retry'; error: string } | { status: 'failed'; error: string; invalidToken: boolean };

export interface PushSender {
  readonly name: string;
  send(message: PushMessage): Promise<PushResult>;
}
