import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Config } from '../platform/config';

export interface MailMessage {
  to: string;
  subject: string;
  /** The same content twice: plain text, and HTML with user content escaped (see mail-templates.ts). */
  text: string;
  html: string;
}

/** Outgoing e-mail. A real transport (SMTP, an e-mail API) implements this; the services only send. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** SMTP through nodemailer; a connection per message, so nothing stays open between them. */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  /**
   * `url`: smtp://user:pass@host:587 (STARTTLS when offered) or smtps://…:465. `timeoutMs` bounds
   * connecting, the server's greeting and any silence after it (SMTP_TIMEOUT_MS), so a silent server
   * fails the message instead of holding it (and its connection) for as long as it stays silent.
   */
  constructor(url: string, from: string, timeoutMs: number, logger: Logger) {
    // Loaded only when SMTP_URL is set: a gateway without mail does not carry it (memory, docs/benchmarks.md).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const nodemailer = require('nodemailer') as typeof import('nodemailer');
    this.transport = nodemailer.createTransport({ url, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs }, { from });
    // Whole life: the transport re-emits its transporter's errors (e.g. OAuth2 token refreshes); a send's own failure rejects sendMail.
    this.transport.on('error', (err) => logger.warn({ err }, 'mail transport failed'));
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ to: message.to, subject: message.subject, text: message.text, html: message.html });
  }
}

/**
 * Without SMTP_URL outside production: each message, reset token included, goes to the log at
 * debug level (LOG_LEVEL=debug shows it), so a developer can follow a reset without a mail server.
 */
export class LogMailer implements Mailer {
  constructor(private readonly logger: Logger) {}

  async send(message: MailMessage): Promise<void> {
    this.logger.debug({ mail: { to: message.to, subject: message.subject, text: message.text } }, `mail to ${message.to}: ${message.subject}`);
  }
}

/** Without SMTP_URL in production: nothing is sent, and the log says so without the message's content. */
export class DroppingMailer implements Mailer {
  constructor(private readonly logger: Logger) {}

  async send(message: MailMessage): Promise<void> {
    this.logger.warn({ mail: { subject: message.subject } }, 'mail dropped: SMTP_URL is not set');
  }
}

export function createMailer(config: Pick<Config, 'env' | 'smtpUrl' | 'mailFrom' | 'smtpTimeoutMs'>, logger: Logger): Mailer {
  if (config.smtpUrl) return new SmtpMailer(config.smtpUrl, config.mailFrom, config.smtpTimeoutMs, logger);
  if (config.env !== 'production') return new LogMailer(logger);
  logger.warn('SMTP_URL is not set: password reset mails and account notices are dropped');
  return new DroppingMailer(logger);
}
