import type { Messaging } from 'firebase-admin/messaging';
import type { PushMessage, PushResult, PushSender } from './sender';

/** The part of firebase-admin's Messaging the sender uses (tests pass a stub). */
export type MessagingLike = Pick<Messaging, 'send'>;

/** The token is dead: the app was uninstalled or the token expired or was never valid. */
const INVALID_TOKEN = new Set(['messaging/registration-token-not-registered', 'messaging/invalid-registration-token']);
/** The message itself is refused; sending it again cannot help. */
const PERMANENT = new Set([
  'messaging/invalid-argument',
  'messaging/invalid-payload',
  'messaging/payload-size-limit-exceeded',
  'messaging/mismatched-credential',
  'messaging/invalid-recipient',
]);

/**
 * Firebase error → outcome. Anything not known to be permanent (quota, unavailable, internal, network,
 * an unknown code) is retried: the worker's attempt limit bounds the cost of being wrong.
 */
export function classifyFirebaseError(err: unknown): PushResult {
  const code = typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : '';
  const error = `${code || 'error'}: ${err instanceof Error ? err.message : String(err)}`;
  if (INVALID_TOKEN.has(code)) return { status: 'failed', error, invalidToken: true };
  if (PERMANENT.has(code)) return { status: 'failed', error, invalidToken: false };
  return { status: 'retry', error };
}

/** Sends through Firebase Cloud Messaging (firebase-admin). */
export class FirebasePushSender implements PushSender {
  readonly name = 'firebase';

  constructor(private readonly messaging: MessagingLike) {}

  async send(message: PushMessage): Promise<PushResult> {
    try {
      await this.messaging.send({ token: message.token, notification: { title: message.title, body: message.body }, data: message.data });
      return { status: 'sent' };
    } catch (err) {
      return classifyFirebaseError(err);
    }
  }
}
