import fc from 'fast-check';
import type { AuthUser } from '../../src/domain/auth-user';
import type { Prisma } from '../../src/generated/prisma/client';
import { mayRead } from '../../src/services/access';
import { ChangeFeed, changes, type Change, type LiveSource } from '../../src/services/change-feed';

const investor = (id: number, investorId: number): AuthUser => ({ id, role: 'INVESTOR', investorId, sessionId: 's' });
const analyst: AuthUser = { id: 99, role: 'ANALYST', investorId: null, sessionId: 's' };
const noOverflow = { authorize: async () => true, maxPending: 10, onOverflow: () => undefined };
const payload = (...list: Change[]) => JSON.stringify({ at: Date.now(), changes: list });

/** The NOTIFY payload texts (JSON arrays of changes) one publish() would send. */
function published(list: Change[]): string[] {
  let sent: Prisma.Sql | undefined;
  const db = { $executeRaw: (sql: Prisma.Sql) => ((sent = sql), Promise.resolve(0)) };
  void changes.publish(db as never, list[0], ...list.slice(1));
  return (sent?.values ?? []).filter((v): v is string => typeof v === 'string' && v.startsWith('['));
}

describe('changes.publish', () => {
  it('splits any list into NOTIFY payloads PostgreSQL accepts (under 8000 bytes), in order, nothing lost', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ id: fc.nat(), userId: fc.nat() }), { minLength: 1, maxLength: 3000 }), (rows) => {
        const list: Change[] = rows.map((r) => ({ type: 'notification', ...r }));
        const chunks = published(list);
        for (const c of chunks) expect(Buffer.byteLength(c)).toBeLessThan(7100);
        expect(chunks.flatMap((c) => JSON.parse(c) as Change[])).toEqual(list);
      }),
      { numRuns: 30 },
    );
  });
});

/**
 * A service's live source over rows `id -> owner` (investor or user id), with ownerScope's rule;
 * records each load's keys.
 */
function source(rows: Record<number, number>) {
  const loads: number[][] = [];
  const live: LiveSource<number> = {
    load: async (keys) => {
      loads.push(keys);
      return new Map(keys.filter((k) => k in rows).map((k) => [k, { owner: rows[k], view: k }]));
    },
    visible: mayRead,
  };
  return { live, loads };
}

describe('ChangeFeed', () => {
  it('routes a change to its owner’s subscribers and to staff, never to another investor', async () => {
    const feed = new ChangeFeed();
    const { live } = source({ 5: 20, 6: 10 });
    const mine = feed.watch(investor(1, 10), 'investment_request', live, noOverflow);
    const theirs = feed.watch(investor(2, 20), 'investment_request', live, noOverflow);
    const staff = feed.watch(analyst, 'investment_request', live, noOverflow);
    feed.receive(payload({ type: 'investment_request', id: 5, investorId: 20 }, { type: 'investment_request', id: 6, investorId: 10 }));
    expect((await mine.next()).value?.value).toBe(6);
    expect((await theirs.next()).value?.value).toBe(5);
    expect((await staff.next()).value?.value).toBe(5);
    expect((await staff.next()).value?.value).toBe(6);
  });

  it('loads a notification’s changes of a type once for all its subscribers, each shown only what the ownership rule lets it see', async () => {
    const feed = new ChangeFeed();
    const { live, loads } = source({ 5: 20, 6: 10, 7: 10, 100: 10, 101: 20 });
    const owners = [investor(1, 10), investor(2, 20), investor(3, 10)];
    const streams = [...owners, analyst, analyst].map((user) => feed.watch(user, 'withdrawal_request', live, noOverflow));
    // The NOTIFY names investor 20 as owner of id 7, but the record says 10: the rule goes by the record.
    feed.receive(
      payload(
        { type: 'withdrawal_request', id: 5, investorId: 20 },
        { type: 'withdrawal_request', id: 6, investorId: 10 },
        { type: 'withdrawal_request', id: 7, investorId: 20 },
      ),
    );
    // Then one change each investor may see, so that what comes before it is all they were sent.
    feed.receive(payload({ type: 'withdrawal_request', id: 100, investorId: 10 }, { type: 'withdrawal_request', id: 101, investorId: 20 }));
    const received = await Promise.all(
      streams.map(async (stream) => {
        const got: number[] = [];
        for (;;) {
          const value = (await stream.next()).value?.value;
          if (value === undefined || value >= 100) return got;
          got.push(value);
        }
      }),
    );
    expect(received).toEqual([[6], [5], [6], [5, 6, 7], [5, 6, 7]]);
    expect(loads).toEqual([
      [5, 6, 7],
      [100, 101],
    ]);
  });

  it('skips what the source does not find (deleted since), and return() ends a next() that waits', async () => {
    const feed = new ChangeFeed();
    const stream = feed.watch(investor(1, 10), 'investment_request', source({ 2: 10 }).live, noOverflow);
    feed.receive(payload({ type: 'investment_request', id: 1, investorId: 10 }, { type: 'investment_request', id: 2, investorId: 10 }));
    expect((await stream.next()).value?.value).toBe(2);
    const waiting = stream.next();
    await stream.return?.();
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(feed.size()).toBe(0);
  });

  it('asks authorize before loading each change: a refused one is never loaded', async () => {
    const feed = new ChangeFeed();
    const { live, loads } = source({ 1: 10, 2: 10 });
    let allowed = false;
    const stream = feed.watch(investor(1, 10), 'investment_request', live, { ...noOverflow, authorize: async () => allowed });
    feed.receive(payload({ type: 'investment_request', id: 1, investorId: 10 }));
    const next = stream.next();
    await new Promise((resolve) => setImmediate(resolve));
    allowed = true;
    feed.receive(payload({ type: 'investment_request', id: 2, investorId: 10 }));
    expect((await next).value?.value).toBe(2);
    expect(loads).toEqual([[2]]);
  });

  it('calls onOverflow once the backlog is full, and drops the change', async () => {
    const feed = new ChangeFeed();
    const overflows: number[] = [];
    const stream = feed.watch(investor(1, 10), 'kyc_status', source({ 10: 10 }).live, { ...noOverflow, maxPending: 2, onOverflow: () => overflows.push(1) });
    feed.receive(payload(...Array.from({ length: 4 }, (): Change => ({ type: 'kyc_status', investorId: 10 }))));
    expect(overflows).toHaveLength(2);
    expect((await stream.next()).done).toBe(false);
    expect((await stream.next()).done).toBe(false);
  });

  it('refuses a payload that is not the feed’s', () => {
    expect(() => new ChangeFeed().receive('{"at": 1, "changes": [{"type": "drop_tables"}]}')).toThrow();
  });
});
