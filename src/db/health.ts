/** /readyz wants an answer from the database within the last second. */
export const PING_FRESH_MS = 1000;
const PING_INTERVAL_MS = 250;

export interface DatabaseStatus {
  ok: boolean;
  /** "ok", or why not (shown in /readyz). */
  detail: string;
}

/**
 * Pings the database in the background (one ping at a time, each bounded), so /readyz answers from
 * memory at once and says "not ready" within about a second of the database going away.
 */
export class DatabaseHealth {
  private lastOkAt = 0;
  private lastError: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly ping: (timeoutMs: number) => Promise<void>) {}

  /** Starts the loop; resolves after the first ping (whatever its outcome). */
  start(): Promise<void> {
    return this.tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.current;
  }

  status(now = Date.now()): DatabaseStatus {
    const age = now - this.lastOkAt;
    if (age <= PING_FRESH_MS) return { ok: true, detail: 'ok' };
    return { ok: false, detail: this.lastError ? `ping failed: ${this.lastError}` : `no answer for ${this.lastOkAt ? `${age} ms` : 'the first ping yet'}` };
  }

  private tick(): Promise<void> {
    this.current = this.ping(PING_FRESH_MS)
      .then(() => {
        this.lastOkAt = Date.now();
        this.lastError = undefined;
      })
      .catch((err: unknown) => void (this.lastError = err instanceof Error ? err.message : String(err)))
      .finally(() => {
        this.current = undefined;
        if (this.stopped) return;
        this.timer = setTimeout(() => void this.tick(), PING_INTERVAL_MS);
        this.timer.unref();
      });
    return this.current;
  }
}
