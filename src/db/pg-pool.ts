import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';

/** Timeouts for PostgreSQL connections (milliseconds; 0 = none). */
export interface PgTimeouts {
  /** Opening a connection, and waiting for a free one in a full pool. */
  connectMs: number;
  /** Server side: one statement (SET statement_timeout). The client gives up `READ_MARGIN_MS` later. */
  statementMs: number;
  /** Server side: a session idle inside an open transaction is ended (idle_in_transaction_session_timeout). */
  idleInTransactionMs: number;
}

export interface PgPoolOptions {
  connectionString: string;
  max: number;
  timeouts?: PgTimeouts;
  logger?: Logger;
}

/**
 * When the server cannot answer at all (a partition), statement_timeout never fires; the client
 * stops waiting this long after it. Beyond it the connection is presumed lost.
 */
export const READ_MARGIN_MS = 1000;

/**
 * Errors that mean the connection (not the statement) failed: the server ending sessions (57P0x) or
 * refusing them (class 08, connection exception, bar 08P01 protocol violation), and the socket's own
 * (refused, reset, unreachable host or network, name lookup failed).
 */
const LOST_CODES = new Set([
  ...['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006'],
  ...['ECONNRESET', 'EPIPE', 'ECONNREFUSED', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED', 'EHOSTUNREACH', 'EHOSTDOWN', 'ENETUNREACH', 'ENETDOWN'],
]);
const LOST_MESSAGES = /Connection terminated|not queryable|timeout exceeded when trying to connect|Client was closed|Cannot use a pool after calling end/i;

export function isConnectionLost(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  return (typeof e?.code === 'string' && LOST_CODES.has(e.code)) || (typeof e?.message === 'string' && LOST_MESSAGES.test(e.message));
}

interface WatchdogConfig extends pg.ClientConfig {
  readTimeoutMs?: number;
}

/**
 * A pg Client that ends its connection when a statement gets no answer in time. pg's own
 * query_timeout rejects the query but leaves it on the connection, so the next query (from the pool
 * or in a transaction's ROLLBACK) queues behind an answer that never comes; destroying the socket
 * fails every queued query at once and makes the pool discard the client.
 */
class WatchdogClient extends pg.Client {
  private readonly readTimeoutMs: number;

  constructor(config: WatchdogConfig) {
    super(config);
    this.readTimeoutMs = config.readTimeoutMs ?? 0;
  }

  // pg's query() is overloaded (promise or callback); the watchdog wraps whichever form is used.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(config: any, values?: any, callback?: any): any {
    if (!this.readTimeoutMs || typeof config?.submit === 'function') return super.query(config, values, callback);
    const timer = setTimeout(() => {
      const err = Object.assign(new Error(`Database did not answer within ${this.readTimeoutMs} ms`), { code: 'ETIMEDOUT' });
      (this as unknown as { connection: { stream: { destroy(e: Error): void } } }).connection.stream.destroy(err);
    }, this.readTimeoutMs);
    const done = () => clearTimeout(timer);
    if (typeof values === 'function') return super.query(config, (err: Error, res: unknown) => (done(), values(err, res)));
    if (typeof callback === 'function') return super.query(config, values, (err: Error, res: unknown) => (done(), callback(err, res)));
    const result = super.query(config, values) as Promise<unknown>;
    result.then(done, done);
    return result;
  }
}

const isRead = (text: unknown) => typeof text === 'string' && /^\s*SELECT\b/i.test(text);
const isTimeout = (err: unknown) => (err as { code?: unknown }).code === 'ETIMEDOUT' || /timeout/i.test(String((err as Error).message));

/**
 * The pool behind Prisma's adapter. Every client carries an 'error' listener from birth (the server
 * ending a session — pg_terminate_backend, a restart, idle_in_transaction_session_timeout — emits
 * 'error' on clients that may hold no other listener at that moment, which would kill the process).
 * A single statement outside a transaction whose connection was lost is retried once when that is
 * safe: a read, or a connection that failed before the statement was sent. Statements inside a
 * transaction go through a checked-out client and are never retried here.
 */
export class ResilientPool extends pg.Pool {
  constructor(options: PgPoolOptions) {
    const t = options.timeouts;
    super({
      connectionString: options.connectionString,
      max: options.max,
      Client: WatchdogClient as unknown as new () => pg.ClientBase,
      keepAlive: true,
      ...(t && {
        connectionTimeoutMillis: t.connectMs || undefined,
        statement_timeout: t.statementMs || undefined,
        idle_in_transaction_session_timeout: t.idleInTransactionMs || undefined,
        readTimeoutMs: t.statementMs ? t.statementMs + READ_MARGIN_MS : 0,
      }),
    } as pg.PoolConfig);
    const log = options.logger;
    this.on('error', (err) => log?.warn({ err }, 'idle database connection failed'));
    this.on('connect', (client) => client.on('error', (err) => log?.warn({ err }, 'database connection failed')));
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(config: any, values?: any, callback?: any): any {
    if (typeof values === 'function' || typeof callback === 'function' || typeof config?.submit === 'function') return super.query(config, values, callback);
    return this.queryOnce(config, values);
  }

  private async queryOnce(config: unknown, values: unknown): Promise<unknown> {
    const text = typeof config === 'string' ? config : (config as { text?: unknown } | undefined)?.text;
    for (let attempt = 1; ; attempt++) {
      let sent = false;
      try {
        const client = await this.connect();
        sent = true;
        try {
          const result = await client.query(config as pg.QueryConfig, values as unknown[]);
          client.release();
          return result;
        } catch (err) {
          // A lost connection goes back with its error, so the pool discards it instead of reusing it.
          client.release(isConnectionLost(err) ? (err as Error) : undefined);
          throw err;
        }
      } catch (err) {
        // A timeout already took its time: answering at once beats doubling the wait.
        const retryable = attempt === 1 && isConnectionLost(err) && !isTimeout(err) && (!sent || isRead(text));
        if (!retryable) throw err;
      }
    }
  }
}

/** Distinct statements prepared per connection at most (see statementNames). */
export const MAX_PREPARED_STATEMENTS = 500;

/**
 * Names for @prisma/adapter-pg's `statementNameGenerator`: a statement with a name is parsed and
 * planned by PostgreSQL once per connection, then only bound and executed (pg keeps the names it
 * prepared per connection). Without one, every request re-parsed all of its statements. The name is
 * a hash of the SQL text, so one text always gets one name. Prisma's SQL for a list of values
 * (`IN ($1, $2, …)`) varies with the list's length; past `limit` distinct texts the rest run unnamed,
 * which bounds what the server keeps per connection.
 */
export function statementNames(limit = MAX_PREPARED_STATEMENTS): (query: { sql: string }) => string | undefined {
  const names = new Map<string, string>();
  return ({ sql }) => {
    let name = names.get(sql);
    if (name === undefined && names.size < limit) {
      name = 'p' + createHash('sha1').update(sql).digest('base64url');
      names.set(sql, name);
    }
    return name;
  };
}
