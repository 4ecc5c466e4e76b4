import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Logger } from 'pino';

/** What a LISTEN connection reports. */
export interface ListenHandlers {
  /** A notification's payload, in commit order. */
  notify(payload: string): void;
  /** The connection was lost (notifications sent until it is back are missed); it reconnects by itself. */
  lost?(err: unknown): void;
  /** Listening again after a loss. */
  restored?(): void;
}

export interface NotifyListener {
  close(): Promise<void>;
}

export interface PgListenOptions {
  connectionString: string;
  channel: string;
  connectMs: number;
  logger?: Logger;
  /** First retry after a loss; doubled on each failure up to `maxBackoffMs`. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

/**
 * PostgreSQL: ONE dedicated connection per instance (not a pooled one: a session that LISTENs must
 * stay open and idle). It carries an 'error' listener for its whole life; when the connection is
 * lost (server restart, pg_terminate_backend, a network cut) it is logged, reported and reopened
 * with exponential back-off plus jitter, so a restarted database is not stormed by every instance
 * at once. TCP keep-alive finds a silently dead peer.
 */
export async function listenPostgres(options: PgListenOptions, handlers: ListenHandlers): Promise<NotifyListener> {
  const { logger } = options;
  const minBackoff = options.minBackoffMs ?? 250;
  const maxBackoff = options.maxBackoffMs ?? 30_000;
  let client: pg.Client | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let backoff = minBackoff;

  const open = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: options.connectionString, connectionTimeoutMillis: options.connectMs || undefined, keepAlive: true });
    // Until it listens, a failure is the rejection of open() (pg also emits 'end' then): reported once, by the caller.
    let live = false;
    const fail = (err: unknown) => {
      if (!live || closed) return;
      live = false;
      if (client === c) client = undefined;
      c.removeAllListeners('notification');
      // The 'error' listener stays, for whatever the dying socket still emits.
      c.end().catch(() => undefined);
      logger?.warn({ err, retryInMs: backoff }, 'change feed: listening connection lost, reconnecting');
      handlers.lost?.(err);
      schedule();
    };
    c.on('error', fail);
    c.on('end', () => fail(new Error('connection ended')));
    c.on('notification', (msg) => {
      if (msg.channel === options.channel && msg.payload !== undefined) handlers.notify(msg.payload);
    });
    try {
      await c.connect();
      // The channel is ours (a constant), quoted as an identifier all the same.
      await c.query(`LISTEN ${pg.escapeIdentifier(options.channel)}`);
    } catch (err) {
      await c.end().catch(() => undefined);
      throw err;
    }
    if (closed) return void (await c.end().catch(() => undefined));
    live = true;
    client = c;
  };

  const schedule = () => {
    if (closed) return;
    const wait = backoff + Math.floor(Math.random() * backoff * 0.2);
    backoff = Math.min(backoff * 2, maxBackoff);
    timer = setTimeout(() => {
      open().then(
        () => {
          if (closed) return;
          backoff = minBackoff;
          logger?.info('change feed: listening again');
          handlers.restored?.();
        },
        (err: unknown) => {
          logger?.warn({ err, retryInMs: backoff }, 'change feed: could not listen, retrying');
          schedule();
        },
      );
    }, wait);
  };

  // A database down at start-up is the same loss: the gateway starts, the listener keeps trying.
  await open().catch((err: unknown) => {
    logger?.warn({ err, retryInMs: backoff }, 'change feed: could not listen, retrying');
    handlers.lost?.(err);
    schedule();
  });
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}

/** PGlite (the embedded default): one process, one database; its own LISTEN/NOTIFY. */
export async function listenPglite(pglite: PGlite, channel: string, handlers: ListenHandlers): Promise<NotifyListener> {
  const unlisten = await pglite.listen(channel, (payload) => handlers.notify(payload));
  return {
    async close() {
      if (!pglite.closed) await unlisten();
    },
  };
}
