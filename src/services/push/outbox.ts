import type { Logger } from 'pino';
import type { Prisma } from '../../db/database';
import { Prisma as PrismaNs } from '../../generated/prisma/client';
import { PushStatus, type NotificationType } from '../../generated/prisma/enums';
import type { PushMessage, PushResult, PushSender } from './sender';

export interface OutboxOptions {
  /** Deliveries claimed per drain. */
  batchSize?: number;
  /** How long a claim lasts; a delivery still SENDING after it belonged to a process that died. */
  leaseMs?: number;
  /** Sends before a retryable failure becomes FAILED. */
  maxAttempts?: number;
  /** The longest wait for one send (PUSH_SEND_TIMEOUT_MS); below leaseMs. */
  sendTimeoutMs?: number;
  /** Back-off after the first failed attempt; doubles with each attempt, capped at maxBackoffMs. */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
}

export interface DrainResult {
  claimed: number;
  sent: number;
  retried: number;
  failed: number;
  /** SENDING rows whose lease had expired, marked FAILED without sending. */
  abandoned: number;
}

interface ClaimedRow {
  id: number;
  token: string;
  attempts: number;
  notificationId: number;
  type: NotificationType;
  title: string;
  body: string;
  data: PrismaNs.JsonValue;
  /** False when the token was removed (logout) or moved to another user after the push was queued. */
  tokenValid: boolean;
}

export const CRASH_ERROR = 'outcome unknown after a crash: the lease expired while sending';
const noAnswer = (ms: number) => `outcome unknown: the push service did not answer within ${ms} ms`;
const TOKEN_GONE = 'device token no longer registered to the user';

const stringData = (data: PrismaNs.JsonValue): Record<string, string> =>
  data && typeof data === 'object' && !Array.isArray(data)
    ? Object.fromEntries(
        Object.entries(data)
          .filter(([, v]) => v != null)
          .map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
      )
    : {};

/**
 * Drains the push outbox (push_deliveries). Delivery is AT MOST ONCE: a row is claimed (SENDING,
 * under a lease, attempts + 1) in one atomic statement with SKIP LOCKED, so concurrent workers never
 * claim the same row; and a row found SENDING after its lease ran out — the worker died between
 * claiming and recording the outcome, so the push may or may not have gone out — is marked FAILED,
 * never sent again. A lost push is preferred over a duplicate on the user's phone.
 */
export class PushOutbox {
  private readonly batchSize: number;
  private readonly leaseMs: number;
  private readonly maxAttempts: number;
  private readonly sendTimeoutMs: number;
  private readonly baseBackoffMs: number;
  private readonly maxBackoffMs: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly prisma: Prisma,
    private readonly sender: PushSender,
    private readonly logger: Logger,
    options: OutboxOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 100;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.maxAttempts = options.maxAttempts ?? 5;
    this.sendTimeoutMs = options.sendTimeoutMs ?? 10_000;
    this.baseBackoffMs = options.baseBackoffMs ?? 30_000;
    this.maxBackoffMs = options.maxBackoffMs ?? 3_600_000;
  }

  /** Wait before attempt `attempts + 1`: base × 2^(attempts − 1), capped. */
  backoffMs(attempts: number): number {
    return Math.min(this.baseBackoffMs * 2 ** Math.max(attempts - 1, 0), this.maxBackoffMs);
  }

  /**
   * One pass: fail abandoned claims, claim a batch, send it, record each outcome. Every time it
   * compares or sets (lease, due time, back-off, sent at) is the database's now(), never this
   * process's clock: workers on several machines agree on when a lease ends however their clocks drift.
   */
  async drainOnce(): Promise<DrainResult> {
    const abandoned = await this.prisma.$executeRaw`
      UPDATE push_deliveries SET status = 'FAILED', last_error = ${CRASH_ERROR}, locked_until = NULL
      WHERE status = 'SENDING' AND locked_until < now()`;
    const rows = await this.claim();
    const result: DrainResult = { claimed: rows.length, sent: 0, retried: 0, failed: 0, abandoned };
    const outcomes = await Promise.all(rows.map(async (row) => ({ row, outcome: await this.send(row) })));
    const sentIds = outcomes.filter((o) => o.outcome.status === 'sent').map((o) => o.row.id);
    if (sentIds.length) {
      await this.prisma.$executeRaw`
        UPDATE push_deliveries SET status = 'SENT', sent_at = now(), locked_until = NULL, last_error = NULL
        WHERE id IN (${PrismaNs.join(sentIds)}) AND status = 'SENDING'`;
    }
    result.sent = sentIds.length;
    for (const { row, outcome } of outcomes) {
      if (outcome.status === 'sent') continue;
      const retry = outcome.status === 'retry' && row.attempts < this.maxAttempts;
      if (retry) {
        await this.prisma.$executeRaw`
          UPDATE push_deliveries SET status = 'PENDING', locked_until = NULL, last_error = ${outcome.error},
                 next_attempt_at = now() + ${this.backoffMs(row.attempts)}::int * interval '1 millisecond'
          WHERE id = ${row.id} AND status = 'SENDING'`;
        result.retried++;
      } else {
        await this.prisma.pushDelivery.updateMany({
          where: { id: row.id, status: PushStatus.SENDING },
          data: { status: PushStatus.FAILED, lockedUntil: null, lastError: outcome.error },
        });
        result.failed++;
      }
      if (outcome.status === 'failed' && outcome.invalidToken) await this.forgetToken(row.token);
    }
    if (rows.length) this.logger.info({ push: { sender: this.sender.name, ...result } }, 'push outbox drained');
    return result;
  }

  /** Drains every `intervalMs` until stop(); one pass at a time. */
  start(intervalMs: number): void {
    if (intervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.drainOnce()
        .catch((err: unknown) => this.logger.error({ err }, 'push outbox drain failed'))
        .finally(() => (this.running = undefined));
    }, intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a pass under way, so its claims are settled before the database closes. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /**
   * Claims up to batchSize due deliveries in one statement (SKIP LOCKED: a row another worker is
   * claiming is passed over, not waited for) and reads what to send with them.
   */
  private claim(): Promise<ClaimedRow[]> {
    return this.prisma.$queryRaw<ClaimedRow[]>`
      WITH claimed AS (
        UPDATE push_deliveries SET status = 'SENDING', locked_until = now() + ${this.leaseMs}::int * interval '1 millisecond', attempts = attempts + 1
        WHERE id IN (
          SELECT id FROM push_deliveries
          WHERE status = 'PENDING' AND next_attempt_at <= now()
          ORDER BY id LIMIT ${this.batchSize}::int
          FOR UPDATE SKIP LOCKED
        )
        RETURNING id, notification_id, token, attempts
      )
      SELECT c.id, c.token, c.attempts, n.id AS "notificationId", n.type::text AS type, n.title, n.body, n.data,
             EXISTS (SELECT 1 FROM device_tokens d WHERE d.token = c.token AND d.user_id = n.user_id) AS "tokenValid"
      FROM claimed c JOIN notifications n ON n.id = c.notification_id
      ORDER BY c.id`;
  }

  private async send(row: ClaimedRow): Promise<PushResult> {
    // The user logged out on that device (or it now belongs to someone else): their push must not reach it.
    if (!row.tokenValid) return { status: 'failed', error: TOKEN_GONE, invalidToken: false };
    const message: PushMessage = {
      token: row.token,
      type: row.type,
      title: row.title,
      body: row.body,
      data: { ...stringData(row.data), notificationId: String(row.notificationId), type: row.type.toLowerCase() },
    };
    // A send with no answer in time holds the pass no longer. It may still have reached the device, so
    // like a crash it is not sent again (at most once); the request itself goes on in the background,
    // bounded by the push client's own timeouts (firebase-admin: 15 s per attempt).
    let timer: NodeJS.Timeout | undefined;
    // unref: stop() already waits for the pass; the timer alone must not keep a process alive.
    const expired = new Promise<PushResult>((resolve) => {
      timer = setTimeout(() => resolve({ status: 'failed', error: noAnswer(this.sendTimeoutMs), invalidToken: false }), this.sendTimeoutMs).unref();
    });
    try {
      return await Promise.race([this.sender.send(message), expired]);
    } catch (err) {
      return { status: 'retry', error: err instanceof Error ? err.message : String(err) };
    } finally {
      clearTimeout(timer);
    }
  }

  /** A dead token: forget it, and fail its other queued pushes instead of trying each one. */
  private async forgetToken(token: string): Promise<void> {
    await this.prisma.$transaction([
      this.prisma.deviceToken.deleteMany({ where: { token } }),
      this.prisma.pushDelivery.updateMany({
        where: { token, status: PushStatus.PENDING },
        data: { status: PushStatus.FAILED, lastError: 'device token invalid' },
      }),
    ]);
  }
}
