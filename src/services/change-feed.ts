import { z } from 'zod';
import type { AuthUser } from '../domain/auth-user';
import { Prisma as PrismaNs } from '../generated/prisma/client';
import { Role } from '../generated/prisma/enums';

/**
 * The change feed: what changed, told to every gateway instance once the change has committed
 * (live updates, docs/api.md "Subscriptions"). Services call `changes.publish(tx, …)` inside the
 * transaction of the change; it is a PostgreSQL NOTIFY, which the server delivers at commit and
 * never for a rollback. A notification carries ids only: each instance loads the changed records
 * once per notification through the services and shows each subscriber what the services'
 * ownership rules (the queries' own) let it see.
 */

/** The one channel every instance LISTENs on. */
export const CHANGE_CHANNEL = 'gateway_changes';

const change = z.discriminatedUnion('type', [
  z.object({ type: z.literal('notification'), id: z.number().int(), userId: z.number().int() }),
  z.object({ type: z.literal('investment_request'), id: z.number().int(), investorId: z.number().int() }),
  z.object({ type: z.literal('withdrawal_request'), id: z.number().int(), investorId: z.number().int() }),
  z.object({ type: z.literal('kyc_status'), investorId: z.number().int() }),
  /** Sessions of the user ended (logout, password change or reset, deletion): live connections re-check theirs. */
  z.object({ type: z.literal('sessions_revoked'), userId: z.number().int() }),
]);
const notification = z.object({ at: z.number(), changes: z.array(change) });

export type Change = z.infer<typeof change>;
export type ChangeType = Change['type'];
/** The changes a subscriber watches: every type but the session ones. */
export type WatchedType = Exclude<ChangeType, 'sessions_revoked'>;

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; the envelope takes the rest. */
const MAX_CHUNK_BYTES = 7000;

/** Changes as JSON arrays of at most MAX_CHUNK_BYTES each (a distribution notifies every holder at once). */
function chunks(list: Change[]): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let size = 2;
  for (const c of list) {
    const json = JSON.stringify(c);
    if (current.length && size + json.length + 1 > MAX_CHUNK_BYTES) {
      out.push(`[${current.join(',')}]`);
      current = [];
      size = 2;
    }
    current.push(json);
    size += json.length + 1;
  }
  out.push(`[${current.join(',')}]`);
  return out;
}

type FeedClient = Pick<PrismaNs.TransactionClient, '$executeRaw'>;

export const changes = {
  /**
   * Sends `list` with `db`, the change's transaction client: delivered when it commits, never if it
   * rolls back. One statement whatever the length; Prisma's lazy promise, so it also fits a batch
   * `$transaction([...])`. `at` is the database's clock at the statement, for the delivery lag metric.
   */
  publish(db: FeedClient, first: Change, ...rest: Change[]) {
    return db.$executeRaw(PrismaNs.sql`SELECT ${changes.notification(first, ...rest)}`);
  },

  /**
   * The NOTIFY of `list` as a select list, for a statement of the change's own transaction:
   * publish's, or a statement that also writes (audit.record's), which saves a round trip.
   */
  notification(first: Change, ...rest: Change[]): PrismaNs.Sql {
    return PrismaNs.join(
      chunks([first, ...rest]).map(
        (json) =>
          PrismaNs.sql`pg_notify(${CHANGE_CHANNEL}, json_build_object('at', floor(extract(epoch FROM clock_timestamp()) * 1000), 'changes', ${json}::json)::text)`,
      ),
    );
  },
};

/** A change that reached a subscriber, with when it was committed (ms since the epoch, database clock). */
export interface Delivery<T> {
  at: number;
  value: T;
}

/** A subscriber's stream; `return()` ends it at once, even while a `next()` waits. */
export type LiveStream<T> = AsyncIterableIterator<Delivery<T>>;

export interface WatchOptions {
  /** Asked before each change is loaded: false skips it (the subscriber's session ended; its transport closes it). */
  authorize(): Promise<boolean>;
  /** Changes waiting for this subscriber beyond which it is too slow: the next one is dropped and `onOverflow` called. */
  maxPending: number;
  onOverflow(): void;
}

/**
 * A bounded queue read as an async iterator. Written here rather than taken from a library because
 * an overflow must be seen (and counted, and answered by closing the connection), not silently
 * dropped as the sliding and dropping buffers of Repeater-style libraries do.
 */
class Mailbox<T> implements AsyncIterableIterator<T> {
  private readonly queue: T[] = [];
  private waiting: ((result: IteratorResult<T>) => void) | undefined;
  private done = false;

  constructor(
    private readonly options: WatchOptions,
    private readonly onEnd: () => void,
  ) {}

  push(value: T): void {
    if (this.done) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      return resolve({ value, done: false });
    }
    if (this.queue.length >= this.options.maxPending) return this.options.onOverflow();
    this.queue.push(value);
  }

  next(): Promise<IteratorResult<T>> {
    if (this.queue.length) return Promise.resolve({ value: this.queue.shift() as T, done: false });
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<T>> {
    if (!this.done) {
      this.done = true;
      this.queue.length = 0;
      this.onEnd();
      this.waiting?.({ value: undefined, done: true });
      this.waiting = undefined;
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}

/** Whose changes of a type a user is told of: route keys `<type>:<owner>`, or `<type>:*` for every owner. */
function routeKey(type: WatchedType, user: AuthUser): string {
  switch (type) {
    case 'notification':
      return `${type}:${user.id}`;
    case 'investment_request':
    case 'withdrawal_request':
      // Admins and analysts follow every investor's requests (contract §3).
      return user.role === Role.INVESTOR ? `${type}:${user.investorId}` : `${type}:*`;
    case 'kyc_status':
      return `${type}:${user.investorId}`;
  }
}

type WatchedChange = Exclude<Change, { type: 'sessions_revoked' }>;

function ownerKey(c: WatchedChange): string {
  return `${c.type}:${c.type === 'notification' ? c.userId : c.investorId}`;
}

/** What a change of its type is loaded by: its record's id, or the investor's for a KYC state. */
const recordKey = (c: WatchedChange) => (c.type === 'kyc_status' ? c.investorId : c.id);

/** A changed record and whom it belongs to (a user id for notifications, an investor id otherwise). */
export interface Owned<V> {
  owner: number;
  view: V;
}

/**
 * How a service gives its changed records to live subscribers: loaded once per notification for
 * all of them, each then shown to a subscriber only if the service's own ownership rule (the one
 * its queries apply in their `where`) lets that user see the owner's records.
 */
export interface LiveSource<V> {
  /** The records of these keys (ids; investor ids for KYC states) in one query, on the primary (a replica may not have the commit yet). Missing ones are absent. */
  load(keys: number[]): Promise<Map<number, Owned<V>>>;
  /** Whether `user` may see a record of `owner`'s. */
  visible(user: AuthUser, owner: number): boolean;
}

/** An investor's records (requests) as a LiveSource answers them: by id, owned by their investor. */
export const ownedByInvestor = <V extends { id: number; investorId: number }>(rows: V[]): Map<number, Owned<V>> =>
  new Map(rows.map((view) => [view.id, { owner: view.investorId, view }]));

/**
 * The changes of one notification, loaded lazily once per source for every subscriber it reaches:
 * a commit fanned out to a thousand subscribers costs one query per type, not a thousand.
 */
class Batch {
  private readonly loads = new Map<LiveSource<unknown>, Promise<Map<number, Owned<unknown>>>>();

  constructor(
    readonly at: number,
    private readonly list: readonly WatchedChange[],
  ) {}

  rows<V>(type: WatchedType, source: LiveSource<V>): Promise<Map<number, Owned<V>>> {
    let rows = this.loads.get(source);
    if (!rows) {
      const keys = [...new Set(this.list.filter((c) => c.type === type).map(recordKey))];
      this.loads.set(source, (rows = source.load(keys)));
    }
    return rows as Promise<Map<number, Owned<V>>>;
  }
}

interface Pending {
  batch: Batch;
  change: WatchedChange;
}

/**
 * One per instance: takes the notifications its listener receives and hands each change to the
 * subscribers it may concern (an index by owner, so a change costs its own subscribers, not all).
 */
export class ChangeFeed {
  private readonly routes = new Map<string, Set<Mailbox<Pending>>>();
  private readonly revocationHandlers = new Set<(userId: number) => void>();

  /**
   * A notification from the listener; answers the changes it carried (for the metrics). Throws on a
   * payload that is not the feed's (nothing but `publish` writes on the channel).
   */
  receive(payload: string): Change[] {
    const { at, changes: list } = notification.parse(JSON.parse(payload));
    const watched: WatchedChange[] = [];
    for (const c of list) {
      if (c.type === 'sessions_revoked') for (const handler of this.revocationHandlers) handler(c.userId);
      else watched.push(c);
    }
    const batch = new Batch(at, watched);
    for (const change of watched) {
      for (const key of [ownerKey(change), `${change.type}:*`]) for (const box of this.routes.get(key) ?? []) box.push({ batch, change });
    }
    return list;
  }

  /** Calls `handler` with the user whose sessions ended, on every instance; answers the unsubscribe. */
  onSessionsRevoked(handler: (userId: number) => void): () => void {
    this.revocationHandlers.add(handler);
    return () => this.revocationHandlers.delete(handler);
  }

  /**
   * The changes of `type` that `user` may be told of, once `authorize` agrees: each loaded by
   * `source` with the rest of its notification (once for every subscriber) and skipped, never sent,
   * when it is gone or the source's ownership rule does not let `user` see it.
   */
  watch<V>(user: AuthUser, type: WatchedType, source: LiveSource<V>, options: WatchOptions): LiveStream<V> {
    const key = routeKey(type, user);
    let set = this.routes.get(key);
    if (!set) this.routes.set(key, (set = new Set()));
    const box: Mailbox<Pending> = new Mailbox(options, () => {
      set.delete(box);
      if (set.size === 0) this.routes.delete(key);
    });
    set.add(box);
    const stream: LiveStream<V> = {
      async next() {
        for (;;) {
          const item = await box.next();
          if (item.done) return { value: undefined, done: true };
          if (!(await options.authorize())) continue;
          const { batch, change } = item.value;
          const row = (await batch.rows(type, source)).get(recordKey(change));
          if (row && source.visible(user, row.owner)) return { value: { at: batch.at, value: row.view }, done: false };
        }
      },
      async return() {
        await box.return();
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]: () => stream,
    };
    return stream;
  }

  /** Subscribers registered now (the open subscriptions of this instance). */
  size(): number {
    let n = 0;
    for (const set of this.routes.values()) n += set.size;
    return n;
  }
}
