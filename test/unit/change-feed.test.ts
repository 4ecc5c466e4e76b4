import fc from 'fast-check';
import type { AuthUser } from '../../src/domain/auth-user';
import { NotFoundError } from '../../src/domain/errors';
import type { Prisma } from '../../src/generated/prisma/client';
import { ChangeFeed, changes, type Change } from '../../src/services/change-feed';

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

describe('ChangeFeed', () => {
  it('routes a change to its owner’s subscribers and to staff, never to another investor', async () => {
    const feed = new ChangeFeed();
    const load = async (c: { id: number }) => c.id;
    const mine = feed.watch(investor(1, 10), 'investment_request', load, noOverflow);
    const theirs = feed.watch(investor(2, 20), 'investment_request', load, noOverflow);
    const staff = feed.watch(analyst, 'investment_request', load, noOverflow);
    feed.receive(payload({ type: 'investment_request', id: 5, investorId: 20 }, { type: 'investment_request', id: 6, investorId: 10 }));
    expect((await mine.next()).value?.value).toBe(6);
    expect((await theirs.next()).value?.value).toBe(5);
    expect((await staff.next()).value?.value).toBe(5);
    expect((await staff.next()).value?.value).toBe(6);
  });

  it('skips what the loader does not find (another’s record), and return() ends a next() that waits', async () => {
    const feed = new ChangeFeed();
    const stream = feed.watch(
      investor(1, 10),
      'notification',
      async (c) => {
        if (c.id === 1) throw new NotFoundError();
        return c.id;
      },
      noOverflow,
    );
    feed.receive(payload({ type: 'notification', id: 1, userId: 1 }, { type: 'notification', id: 2, userId: 1 }));
    expect((await stream.next()).value?.value).toBe(2);
    const waiting = stream.next();
    await stream.return?.();
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(feed.size()).toBe(0);
  });

  it('asks authorize before loading each change: a refused one is never loaded', async () => {
    const feed = new ChangeFeed();
    const loaded: number[] = [];
    let allowed = false;
    const stream = feed.watch(investor(1, 10), 'notification', async (c) => (loaded.push(c.id), c.id), { ...noOverflow, authorize: async () => allowed });
    feed.receive(payload({ type: 'notification', id: 1, userId: 1 }));
    const next = stream.next();
    await new Promise((resolve) => setImmediate(resolve));
    allowed = true;
    feed.receive(payload({ type: 'notification', id: 2, userId: 1 }));
    expect((await next).value?.value).toBe(2);
    expect(loaded).toEqual([2]);
  });

  it('calls onOverflow once the backlog is full, and drops the change', async () => {
    const feed = new ChangeFeed();
    const overflows: number[] = [];
    const stream = feed.watch(investor(1, 10), 'kyc_status', async () => 'state', { ...noOverflow, maxPending: 2, onOverflow: () => overflows.push(1) });
    feed.receive(payload(...Array.from({ length: 4 }, (): Change => ({ type: 'kyc_status', investorId: 10 }))));
    expect(overflows).toHaveLength(2);
    expect((await stream.next()).done).toBe(false);
    expect((await stream.next()).done).toBe(false);
  });

  it('refuses a payload that is not the feed’s', () => {
    expect(() => new ChangeFeed().receive('{"at": 1, "changes": [{"type": "drop_tables"}]}')).toThrow();
  });
});
