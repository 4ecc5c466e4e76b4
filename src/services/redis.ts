import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { withTimeout } from '../db/database';
import { DatabaseHealth } from '../db/health';

/** A command Redis has not answered by then fails (a partition never closes the connection). */
const COMMAND_TIMEOUT_MS = 1000;
const CONNECT_TIMEOUT_MS = 2000;

/**
 * The one Redis connection of a process (REDIS_URL), for whatever instances share: rate limits and
 * persisted queries. ioredis reconnects on its own; the offline queue is off so that while Redis is
 * down a command fails at once (callers fall back, e.g. to an in-memory insurance limiter) instead
 * of waiting, and a command on a silent connection fails after COMMAND_TIMEOUT_MS. Each change of
 * state is logged once, not every reconnection attempt.
 */
export function createRedis(url: string, logger: Logger): Redis {
  // Loaded only when REDIS_URL is set (memory, docs/benchmarks.md).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Redis } = require('ioredis') as typeof import('ioredis');
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    // A command in flight when its connection closes fails then, not on a later connection: with 1,
    // every other close left the commands sent on a connection not yet ready (CLIENT SETINFO, the
    // ready check) in a queue the next connection replaced without settling them, each holding its
    // commandTimeout timer (a closed client kept the process alive up to that long).
    maxRetriesPerRequest: 0,
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: COMMAND_TIMEOUT_MS,
    // How long a dropped connection may take to close before it is destroyed. ioredis arms this timer
    // even when the connection is already closed (never connected, or refused), and then nothing
    // clears it: with its 2 s default, a process that closed an unreachable Redis stayed alive 2 s.
    disconnectTimeout: 0,
  });
  logRefusals(redis, logger);
  let up: boolean | undefined;
  redis.on('ready', () => {
    if (up !== true) logger.info('redis connected');
    up = true;
  });
  redis.on('error', (err: Error) => {
    if (up !== false) logger.warn({ err }, 'redis unreachable: limits are counted and persisted queries cached per instance until it is back');
    up = false;
  });
  return redis;
}

/**
 * Commands the server refuses for lack of permission (NOPERM: the ACL user of REDIS_URL lacks the
 * command or the key is outside its key pattern, docs/operations.md "Redis ACL user") fail like any
 * Redis error, and each feature falls back as when Redis is down; this logs the first refusal of
 * each command at error level, since unlike an outage it will not pass on its own. ioredis' own
 * housekeeping (its INFO ready check, CLIENT SETINFO) is left out: it copes with a refusal itself.
 */
function logRefusals(redis: Redis, logger: Logger): void {
  const logged = new Set<string>();
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = ((command, stream) => {
    const sent = send(command, stream);
    if (command.name !== 'info' && command.name !== 'client') {
      command.promise.catch((err: unknown) => {
        if (!(err instanceof Error) || !err.message.startsWith('NOPERM') || logged.has(command.name)) return;
        logged.add(command.name);
        logger.error(
          { err, command: command.name },
          `redis refused ${command.name.toUpperCase()} (NOPERM): the ACL user of REDIS_URL lacks it or the key is outside its key pattern; served as when Redis is down`,
        );
      });
    }
    return sent;
  }) as Redis['sendCommand'];
}

/** Closes the connection: politely when it is up, at once when it is not. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
  else redis.disconnect();
}

/**
 * Redis as /readyz reports it: pinged in the background like the database (an answer within the
 * last second). Unlike the database it never makes the instance unready — every instance shares
 * one Redis, so failing readiness would take them all out at once while each can serve without it.
 */
export class RedisHealth {
  private readonly pings: DatabaseHealth;

  /** `firstConnectionMs`: how long start() waits for the connection (its connect and ready check). */
  constructor(
    private readonly redis: Redis,
    private readonly firstConnectionMs = CONNECT_TIMEOUT_MS + COMMAND_TIMEOUT_MS,
  ) {
    this.pings = new DatabaseHealth((timeoutMs) => withTimeout(redis.ping(), timeoutMs));
  }

  /**
   * Waits for the connection's first outcome (ready, failed, or the bound), then starts the pings. Without
   * the wait a starting instance pinged before its connection was ready (no offline queue: the ping
   * failed), and its first requests counted limits and cached persisted queries on their own.
   */
  async start(): Promise<void> {
    await firstOutcome(this.redis, this.firstConnectionMs);
    return this.pings.start();
  }

  stop(): Promise<void> {
    return this.pings.stop();
  }

  /** The /readyz `checks.redis` line. */
  detail(): string {
    const status = this.pings.status();
    return status.ok ? 'ok' : `degraded (${status.detail}): rate limits counted and persisted queries cached per instance`;
  }
}

/** Resolves when the connection is ready, has failed or ended, or after `boundMs`, whichever is first. */
function firstOutcome(redis: Redis, boundMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const events = ['ready', 'error', 'end'] as const;
    const done = () => {
      clearTimeout(timer);
      for (const event of events) redis.off(event, done);
      resolve();
    };
    const timer = setTimeout(done, boundMs);
    for (const event of events) redis.once(event, done);
  });
}
