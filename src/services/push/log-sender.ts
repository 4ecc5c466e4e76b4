import type { Logger } from 'pino';
import type { PushMessage, PushResult, PushSender } from './sender';

/** The default when no push service is configured: each push is a log line (token shortened). */
export class LogPushSender implements PushSender {
  readonly name = 'log';

  constructor(private readonly logger: Logger) {}

  send(message: PushMessage): Promise<PushResult> {
    this.logger.info(
      { push: { token: `${message.token.slice(0, 8)}…`, type: message.type, title: message.title, data: message.data } },
      'push notification (log sender)',
    );
    return Promise.resolve({ status: 'sent' });
  }
}
