import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NotificationType, PushStatus } from '../src/generated/prisma/enums';
import { createLogger } from '../src/platform/logger';
import { notify } from '../src/services/notification.service';
import { FirebasePushSender, classifyFirebaseError, type MessagingLike } from '../src/services/push/firebase-sender';
import { createPushSender } from '../src/services/push/factory';
import { LogPushSender } from '../src/services/push/log-sender';
import { CRASH_ERROR, PushOutbox } from '../src/services/push/outbox';
import type { PushMessage, PushResult, PushSender } from '../src/services/push/sender';
import { startTestGateway, type TestGateway } from './support/harness';

let t: TestGateway;
let userId: number;
let counter = 0;
const logger = createLogger('silent');

/** Records every send; answers what `decide` says for it (sent by default). */
class FakeSender implements PushSender {
  readonly name = 'fake';
  readonly sent: PushMessage[] = [];
  constructor(private readonly decide: (m: PushMessage) => PushResult | Promise<PushResult> = () => ({ status: 'sent' })) {}
  async send(m: PushMessage): Promise<PushResult> {
    this.sent.push(m);
    return this.decide(m);
  }
}

beforeAll(async () => {
  t = await startTestGateway();
  userId = (await t.db.prisma.user.findFirstOrThrow({ where: { role: 'INVESTOR', deletedAt: null } })).id;
  await t.db.prisma.userSettings.upsert({ where: { userId }, create: { userId }, update: { pushEnabled: true } });
});
afterAll(() => t.close());

/** Every test starts from an empty outbox (and the rows it queues itself). */
beforeEach(() => t.db.prisma.pushDelivery.deleteMany());

const prisma = () => t.db.prisma;
const BACKOFF_MS = 600_000;
const LEASE_MS = 60_000;
const outbox = (sender: PushSender, maxAttempts = 3) =>
  new PushOutbox(prisma(), sender, logger, { maxAttempts, baseBackoffMs: BACKOFF_MS, leaseMs: LEASE_MS, batchSize: 50 });

/**
 * The outbox reads only the database's clock, so the tests move the token's rows into the past
 * instead of moving a clock forward: due times and leases `ms` earlier are `ms` later for the worker.
 */
const elapse = (token: string, ms: number) =>
  prisma().$executeRaw`UPDATE push_deliveries SET next_attempt_at = next_attempt_at - ${ms}::int * interval '1 millisecond',
    locked_until = locked_until - ${ms}::int * interval '1 millisecond' WHERE token = ${token}`;
/** How far ahead of the database's now a row's time is, ms. */
const aheadOfDb = async (time: 'next_attempt_at' | 'locked_until', id: number) => {
  const [row] = await prisma().$queryRawUnsafe<{ ms: number }[]>(
    `SELECT (extract(epoch FROM ${time} - now()) * 1000)::float8 AS ms FROM push_deliveries WHERE id = $1`,
    id,
  );
  return row.ms;
};
/** A time set from the database's now `ms` ahead, read back a moment later (a busy machine: up to 10 s). */
const expectAhead = (actual: number, ms: number) => {
  expect(actual).toBeLessThanOrEqual(ms);
  expect(actual).toBeGreaterThan(ms - 10_000);
};

/** Queues `n` SYSTEM notifications through notify() for the user's only device token (a fresh one); answers the token. */
async function queue(n = 1): Promise<string> {
  const token = `outbox-token-${++counter}`;
  await prisma().deviceToken.deleteMany({ where: { userId } });
  await prisma().deviceToken.create({ data: { userId, token, platform: 'ANDROID' } });
  await prisma().$transaction((tx) =>
    notify(
      tx,
      ...Array.from({ length: n }, (_, i) => ({ userId, type: NotificationType.SYSTEM, title: `Hello ${i}`, body: 'Body', data: { payoutId: 7, note: null } })),
    ),
  );
  return token;
}
const rows = (token: string) => prisma().pushDelivery.findMany({ where: { token }, orderBy: { id: 'asc' } });

describe('PushOutbox.drainOnce', () => {
  it('sends each due delivery once and marks it SENT', async () => {
    const token = await queue(2);
    const sender = new FakeSender();
    const result = await outbox(sender).drainOnce();
    expect(result).toMatchObject({ claimed: 2, sent: 2, retried: 0, failed: 0 });
    expect(sender.sent.map((m) => m.token)).toEqual([token, token]);
    expect(sender.sent[0]).toMatchObject({
      type: 'SYSTEM',
      title: 'Hello 0',
      body: 'Body',
      data: { payoutId: '7', type: 'system', notificationId: expect.any(String) },
    });
    for (const r of await rows(token)) expect(r).toMatchObject({ status: PushStatus.SENT, attempts: 1, sentAt: expect.any(Date), lockedUntil: null });
    await elapse(token, 3_600_000);
    expect(await outbox(sender).drainOnce()).toMatchObject({ claimed: 0 });
    expect(sender.sent).toHaveLength(2);
  });

  it('retries a transient failure with exponential back-off (on the database clock), then FAILED after the max attempts', async () => {
    const token = await queue();
    const sender = new FakeSender(() => ({ status: 'retry', error: 'unavailable' }));
    const box = outbox(sender, 3);
    expect(await box.drainOnce()).toMatchObject({ retried: 1 });
    let [row] = await rows(token);
    expect(row).toMatchObject({ status: PushStatus.PENDING, attempts: 1, lastError: 'unavailable', lockedUntil: null });
    expectAhead(await aheadOfDb('next_attempt_at', row.id), BACKOFF_MS);
    // Not due yet: nothing is sent before the back-off is over.
    await elapse(token, BACKOFF_MS - 20_000);
    expect(await box.drainOnce()).toMatchObject({ claimed: 0 });
    await elapse(token, 20_000);
    expect(await box.drainOnce()).toMatchObject({ retried: 1 });
    [row] = await rows(token);
    expect(row).toMatchObject({ status: PushStatus.PENDING, attempts: 2 });
    expectAhead(await aheadOfDb('next_attempt_at', row.id), 2 * BACKOFF_MS);
    await elapse(token, 2 * BACKOFF_MS);
    expect(await box.drainOnce()).toMatchObject({ failed: 1 });
    [row] = await rows(token);
    expect(row).toMatchObject({ status: PushStatus.FAILED, attempts: 3, lastError: 'unavailable', sentAt: null });
    expect(sender.sent).toHaveLength(3);
    await elapse(token, 86_400_000);
    expect(await box.drainOnce()).toMatchObject({ claimed: 0 });
  });

  it('a thrown error is a transient failure; a later success is SENT', async () => {
    const token = await queue();
    let calls = 0;
    const sender = new FakeSender(() => {
      if (++calls === 1) throw new Error('socket hang up');
      return { status: 'sent' };
    });
    await outbox(sender).drainOnce();
    expect((await rows(token))[0]).toMatchObject({ status: PushStatus.PENDING, lastError: 'socket hang up' });
    await elapse(token, BACKOFF_MS);
    await outbox(sender).drainOnce();
    expect((await rows(token))[0]).toMatchObject({ status: PushStatus.SENT, attempts: 2, sentAt: expect.any(Date) });
  });

  it('an invalid token fails the delivery at once, forgets the token and fails its other queued pushes', async () => {
    const token = await queue(3);
    const sender = new FakeSender(() => ({ status: 'failed', error: 'messaging/registration-token-not-registered', invalidToken: true }));
    await new PushOutbox(prisma(), sender, logger, { batchSize: 1 }).drainOnce();
    expect(sender.sent).toHaveLength(1);
    expect((await rows(token)).map((r) => r.status)).toEqual([PushStatus.FAILED, PushStatus.FAILED, PushStatus.FAILED]);
    expect(await prisma().deviceToken.count({ where: { token } })).toBe(0);
  });

  it('a permanent failure that is not about the token keeps the token', async () => {
    const token = await queue();
    await outbox(new FakeSender(() => ({ status: 'failed', error: 'messaging/invalid-argument', invalidToken: false }))).drainOnce();
    expect((await rows(token))[0]).toMatchObject({ status: PushStatus.FAILED, attempts: 1 });
    expect(await prisma().deviceToken.count({ where: { token } })).toBe(1);
  });

  it('does not push to a token removed (logout) after the push was queued', async () => {
    const token = await queue();
    await prisma().deviceToken.deleteMany({ where: { token } });
    const sender = new FakeSender();
    expect(await outbox(sender).drainOnce()).toMatchObject({ claimed: 1, failed: 1 });
    expect(sender.sent).toHaveLength(0);
    expect((await rows(token))[0]).toMatchObject({ status: PushStatus.FAILED, lastError: 'device token no longer registered to the user' });
  });
});

/** A sender whose first send never settles, as if its process stopped mid-send; `started` resolves when it is called. */
function dyingSender() {
  let started!: () => void;
  const sending = new Promise<void>((resolve) => (started = resolve));
  const sender = new FakeSender(() => {
    started();
    return new Promise<PushResult>(() => undefined);
  });
  return { sender, sending };
}

describe('crash safety (at most once)', () => {
  it('a SENDING delivery whose lease expired is FAILED, never sent again; one still leased is left alone', async () => {
    const token = await queue(2);
    const [expired, leased] = await rows(token);
    await prisma()
      .$executeRaw`UPDATE push_deliveries SET status = 'SENDING', attempts = 1, locked_until = now() - interval '1 second' WHERE id = ${expired.id}`;
    await prisma().$executeRaw`UPDATE push_deliveries SET status = 'SENDING', attempts = 1, locked_until = now() + interval '1 minute' WHERE id = ${leased.id}`;
    const sender = new FakeSender();
    expect(await outbox(sender).drainOnce()).toMatchObject({ abandoned: 1, claimed: 0 });
    expect(sender.sent).toHaveLength(0);
    const after = await rows(token);
    expect(after[0]).toMatchObject({ status: PushStatus.FAILED, lastError: CRASH_ERROR, attempts: 1 });
    expect(after[1]).toMatchObject({
      status: PushStatus.SENDING,
      lockedUntil: (await prisma().pushDelivery.findUniqueOrThrow({ where: { id: leased.id } })).lockedUntil,
    });
  });

  // Issue 22, finding 13: a push service that never answers held the whole pass (and the shutdown waiting for it).
  it('a send with no answer within sendTimeoutMs ends the pass: that delivery is FAILED as of unknown outcome, the others are recorded', async () => {
    const token = await queue(2);
    let sends = 0;
    const sender = new FakeSender(() => (++sends === 1 ? new Promise<PushResult>(() => undefined) : { status: 'sent' }));
    const box = new PushOutbox(prisma(), sender, logger, { baseBackoffMs: BACKOFF_MS, leaseMs: LEASE_MS, sendTimeoutMs: 200 });
    expect(await box.drainOnce()).toMatchObject({ claimed: 2, sent: 1, retried: 0, failed: 1 });
    const [silent, answered] = await rows(token);
    expect(silent).toMatchObject({ status: PushStatus.FAILED, lockedUntil: null, lastError: 'outcome unknown: the push service did not answer within 200 ms' });
    expect(answered).toMatchObject({ status: PushStatus.SENT });
    // At most once: it may have reached the device, so it is not sent again.
    await elapse(token, 3_600_000);
    expect(await box.drainOnce()).toMatchObject({ claimed: 0 });
    expect(sender.sent).toHaveLength(2);
  });

  it('a worker that dies between claiming and recording leaves the row to be failed, not resent', async () => {
    const token = await queue();
    const dying = dyingSender();
    // Its pass stands for a dead process; it ends on its own (sendTimeoutMs) long after the test, on a closed database.
    void outbox(dying.sender)
      .drainOnce()
      .catch(() => undefined);
    await dying.sending;
    const [claimed] = await rows(token);
    expect(claimed).toMatchObject({ status: PushStatus.SENDING, attempts: 1 });
    expectAhead(await aheadOfDb('locked_until', claimed.id), LEASE_MS);
    const survivor = new FakeSender();
    await elapse(token, LEASE_MS / 2);
    expect(await outbox(survivor).drainOnce()).toMatchObject({ abandoned: 0, claimed: 0 });
    await elapse(token, LEASE_MS / 2 + 1);
    expect(await outbox(survivor).drainOnce()).toMatchObject({ abandoned: 1, claimed: 0 });
    expect(survivor.sent).toHaveLength(0);
    expect((await rows(token))[0]).toMatchObject({ status: PushStatus.FAILED, lastError: CRASH_ERROR });
  });

  // PostgreSQL only: PGlite runs inside this process and reads this process's Date, so there the
  // database's clock is the worker's (and only one process can open it anyway).
  if (process.env.TEST_DATABASE_URL) {
    it("a worker whose clock runs a day ahead cannot take over a live lease: leases are on the database's clock", async () => {
      const token = await queue();
      const dying = dyingSender();
      // As above: the dead worker's pass ends after the file, on a closed database; unhandled, its
      // rejection failed whichever file this Jest worker ran next (seen in lost-commit and tracing).
      void outbox(dying.sender)
        .drainOnce()
        .catch(() => undefined);
      await dying.sending;
      // Only Date is faked (timers stay real, the database driver needs them): this process now believes it is tomorrow.
      jest.useFakeTimers({
        now: Date.now() + 86_400_000,
        doNotFake: [
          'hrtime',
          'nextTick',
          'performance',
          'queueMicrotask',
          'setImmediate',
          'clearImmediate',
          'setInterval',
          'clearInterval',
          'setTimeout',
          'clearTimeout',
        ],
      });
      try {
        expect(new Date().getTime()).toBeGreaterThan((await rows(token))[0].lockedUntil!.getTime() + 3_600_000);
        const skewed = new FakeSender();
        expect(await outbox(skewed).drainOnce()).toMatchObject({ abandoned: 0, claimed: 0 });
        expect(skewed.sent).toHaveLength(0);
        expect((await rows(token))[0]).toMatchObject({ status: PushStatus.SENDING, attempts: 1 });
      } finally {
        jest.useRealTimers();
      }
    });
  }

  it('two workers with their own connection pools draining concurrently send each push exactly once', async () => {
    const token = await queue(60);
    const twin = await t.twin();
    try {
      const a = new FakeSender();
      const b = new FakeSender();
      const opts = { batchSize: 7, leaseMs: 60_000 };
      const boxA = new PushOutbox(prisma(), a, logger, opts);
      const boxB = new PushOutbox(twin.db.prisma, b, logger, opts);
      // Both drain until the outbox is empty; neither waits for the other's pass.
      const drain = async (box: PushOutbox) => {
        while ((await box.drainOnce()).claimed > 0);
      };
      await Promise.all([drain(boxA), drain(boxB), drain(boxA), drain(boxB)]);
      const sent = [...a.sent, ...b.sent].map((m) => m.data.notificationId);
      expect(sent).toHaveLength(60);
      expect(new Set(sent).size).toBe(60);
      expect((await rows(token)).every((r) => r.status === PushStatus.SENT && r.attempts === 1)).toBe(true);
    } finally {
      await twin.close();
    }
  });
});

describe('senders', () => {
  const message: PushMessage = { token: 'tok', type: 'SYSTEM', title: 'T', body: 'B', data: { a: '1' } };
  const stub = (fail?: unknown): MessagingLike & { calls: unknown[] } => {
    const calls: unknown[] = [];
    return {
      calls,
      send: async (m: unknown) => {
        calls.push(m);
        if (fail) throw fail;
        return 'projects/x/messages/1';
      },
    } as MessagingLike & { calls: unknown[] };
  };
  const firebaseError = (code: string) => Object.assign(new Error(code), { code });

  it('the factory picks the log sender without credentials, Firebase with them (JSON or a file path)', () => {
    const messagingFor = jest.fn(() => stub());
    expect(createPushSender(undefined, logger, messagingFor)).toBeInstanceOf(LogPushSender);
    expect(messagingFor).not.toHaveBeenCalled();
    const account = { type: 'service_account', project_id: 'demo-project', client_email: 'x@demo.iam.gserviceaccount.com' };
    expect(createPushSender(JSON.stringify(account), logger, messagingFor)).toBeInstanceOf(FirebasePushSender);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'fcm-')), 'service-account.json');
    writeFileSync(file, JSON.stringify(account));
    expect(createPushSender(file, logger, messagingFor)).toBeInstanceOf(FirebasePushSender);
    expect(messagingFor.mock.calls).toEqual([[account], [account]]);
  });

  it('the Firebase sender sends a notification message and maps errors to retry / permanent / invalid token', async () => {
    const ok = stub();
    expect(await new FirebasePushSender(ok).send(message)).toEqual({ status: 'sent' });
    expect(ok.calls).toEqual([{ token: 'tok', notification: { title: 'T', body: 'B' }, data: { a: '1' } }]);
    const cases: Array<[string, PushResult['status'], boolean?]> = [
      ['messaging/registration-token-not-registered', 'failed', true],
      ['messaging/invalid-registration-token', 'failed', true],
      ['messaging/invalid-argument', 'failed', false],
      ['messaging/message-rate-exceeded', 'retry'],
      ['messaging/server-unavailable', 'retry'],
      ['messaging/internal-error', 'retry'],
      ['app/network-error', 'retry'],
    ];
    for (const [code, status, invalidToken] of cases) {
      const result = await new FirebasePushSender(stub(firebaseError(code))).send(message);
      expect(result.status).toBe(status);
      if (invalidToken !== undefined) expect(result).toMatchObject({ invalidToken });
      expect(classifyFirebaseError(firebaseError(code))).toEqual(result);
    }
    expect(classifyFirebaseError(new Error('boom'))).toMatchObject({ status: 'retry' });
  });

  it('the log sender reports every push as sent', async () => {
    expect(await new LogPushSender(logger).send(message)).toEqual({ status: 'sent' });
  });
});
