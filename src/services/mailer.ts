import type { Logger } from 'pino';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Outgoing e-mail. A real transport (SMTP, an e-mail API) implements this; the services only send. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * The default: writes each message to the log instead of sending it, so reset tokens can be picked
 * up on a developer machine. Messages carry secrets (reset tokens): use a real transport in production.
 */
export class LogMailer implements Mailer {
  constructor(private readonly logger: Logger) {}

  async send(message: MailMessage): Promise<void> {
    this.logger.info({ mail: message }, `mail to ${message.to}: ${message.subject}`);
  }
}
