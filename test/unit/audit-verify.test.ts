import type { Checkpoint } from '../../src/services/audit-checkpoints';
import { ChainWalk, CheckpointMatcher, GENESIS_HASH, chainHash, verifyResult } from '../../src/services/audit.service';
import type { AuditEvent } from '../../src/generated/prisma/client';

const event = (id: number): AuditEvent => ({
  id: BigInt(id),
  xid: BigInt(1000 + id),
  occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, id)),
  actorId: 7,
  actorRole: 'ADMIN',
  action: 'payout.paid',
  targetType: 'payout',
  targetId: String(id),
  changes: { before: { status: 'APPROVED' }, after: { status: 'PAID' } },
  requestId: null,
  ip: null,
  userAgent: null,
});

/** Events 11, 12, … sealed at positions 1, 2, … from the genesis hash. */
function chain(length: number) {
  const events = Array.from({ length }, (_, i) => event(11 + i));
  let hash = GENESIS_HASH;
  const seals = events.map((e, i) => {
    hash = chainHash(hash, BigInt(i + 1), e);
    return { seq: BigInt(i + 1), eventId: e.id, hash };
  });
  return { events, seals };
}

/** Walks seals and events as verify does: the first problem, or none. */
function walkAll(walk: ChainWalk, links: [ReturnType<typeof chain>['seals'][number], AuditEvent | undefined][], checks?: CheckpointMatcher) {
  for (const [seal, e] of links) {
    const problem = walk.check(seal, e) ?? checks?.match(seal.seq, seal.eventId.toString(), seal.hash);
    if (problem) return problem;
    walk.advance(seal);
  }
  return undefined;
}

const checkpoint = (seal: { seq: bigint; eventId: bigint; hash: string }): Checkpoint => ({
  seq: seal.seq.toString(),
  eventId: seal.eventId.toString(),
  hash: seal.hash,
  at: '2026-01-02T00:00:00.000Z',
  keyId: 'k1',
  signature: 'unchecked here',
});

describe('audit chain walk', () => {
  it('passes an intact chain and ends on its last seal', () => {
    const { events, seals } = chain(3);
    const walk = new ChainWalk(null);
    expect(
      walkAll(
        walk,
        seals.map((s, i) => [s, events[i]]),
      ),
    ).toBeUndefined();
    expect(walk.count).toBe(3);
    expect(walk.headSeq).toBe(3n);
    expect(walk.previous).toBe(seals[2].hash);
  });

  it('starts from a retention anchor, at the position after it', () => {
    const { events, seals } = chain(3);
    const walk = new ChainWalk(seals[0]);
    expect(walk.expected).toBe(2n);
    expect(
      walkAll(walk, [
        [seals[1], events[1]],
        [seals[2], events[2]],
      ]),
    ).toBeUndefined();
    expect(walk.count).toBe(2);
  });

  it('names a changed event, and does not move past it', () => {
    const { events, seals } = chain(3);
    const walk = new ChainWalk(null);
    const changed = { ...events[1], action: 'payout.cancelled' };
    expect(
      walkAll(walk, [
        [seals[0], events[0]],
        [seals[1], changed],
      ]),
    ).toEqual({
      eventId: '12',
      message: 'event 12 was changed: its content no longer matches its seal',
    });
    expect(walk.headSeq).toBe(1n);
    expect(walk.previous).toBe(seals[0].hash);
  });

  it('names a removed event whose seal is left', () => {
    const { events, seals } = chain(2);
    expect(
      walkAll(new ChainWalk(null), [
        [seals[0], events[0]],
        [seals[1], undefined],
      ]),
    ).toEqual({ eventId: '12', message: 'event 12 was removed' });
  });

  it('names a missing position between the events around it, or before the first', () => {
    const { events, seals } = chain(3);
    expect(
      walkAll(new ChainWalk(null), [
        [seals[0], events[0]],
        [seals[2], events[2]],
      ]),
    ).toEqual({
      eventId: '13',
      message: 'chain position 2 is missing: an event between event 11 and event 13 was removed',
    });
    expect(walkAll(new ChainWalk(null), [[seals[1], events[1]]])).toEqual({
      eventId: '12',
      message: 'chain position 1 is missing: an event before event 12 was removed',
    });
  });

  it('sees a seal recomputed over a changed event through the next seal, which no longer follows', () => {
    const { events, seals } = chain(2);
    const changed = { ...events[0], targetId: '99' };
    const forged = { ...seals[0], hash: chainHash(GENESIS_HASH, 1n, changed) };
    expect(
      walkAll(new ChainWalk(null), [
        [forged, changed],
        [seals[1], events[1]],
      ]),
    ).toMatchObject({ eventId: '12' });
  });
});

describe('audit checkpoints on the walk', () => {
  it('counts those matched, and those before the anchor as covering removed events', () => {
    const { events, seals } = chain(4);
    const checks = new CheckpointMatcher([checkpoint(seals[0]), checkpoint(seals[1]), checkpoint(seals[2])], seals[1].seq);
    expect(checks.beforeRetention).toBe(1);
    // The one on the anchor is checked against the anchor's hash.
    expect(checks.match(seals[1].seq, seals[1].eventId.toString(), seals[1].hash)).toBeUndefined();
    const walk = new ChainWalk(seals[1]);
    expect(
      walkAll(
        walk,
        [
          [seals[2], events[2]],
          [seals[3], events[3]],
        ],
        checks,
      ),
    ).toBeUndefined();
    expect(checks.end(walk.headSeq, walk.count)).toBeUndefined();
    expect(checks.summary(walk.headSeq, walk.count)).toEqual({ matched: 2, beforeRetention: 1, last: checkpoint(seals[2]), eventsAfter: 1 });
  });

  it('names the event at a checkpoint the chain no longer matches, and the last one that still does', () => {
    const { events, seals } = chain(3);
    const signed = { ...checkpoint(seals[2]), hash: 'f'.repeat(64) };
    const checks = new CheckpointMatcher([checkpoint(seals[0]), signed], undefined);
    const walk = new ChainWalk(null);
    expect(
      walkAll(
        walk,
        seals.map((s, i) => [s, events[i]]),
        checks,
      ),
    ).toEqual({
      eventId: '13',
      message:
        'event 13 no longer matches signed checkpoint #3 (event 13, signed 2026-01-02T00:00:00.000Z by key k1): ' +
        'the history up to it was rewritten and its seals recomputed; the change lies after checkpoint #1 (event 11, which still matches)',
    });
    expect(walk.headSeq).toBe(2n);
  });

  it('names a checkpoint whose position holds another event, from the start of the chain', () => {
    const { seals } = chain(1);
    const checks = new CheckpointMatcher([{ ...checkpoint(seals[0]), eventId: '99' }], undefined);
    expect(checks.match(1n, '11', seals[0].hash)?.message).toMatch(
      /^event 11 no longer matches signed checkpoint #1 \(event 99, .* after the start of the chain$/,
    );
  });

  it('names a checkpoint beyond the chain’s end: events removed from the end', () => {
    const { seals } = chain(3);
    const checks = new CheckpointMatcher([checkpoint(seals[2])], undefined);
    expect(checks.end(2n, 2)).toEqual({
      eventId: '13',
      message:
        'the chain ends at position 2, but signed checkpoint #3 (event 13, signed 2026-01-02T00:00:00.000Z) is beyond it: events were removed from the end',
    });
  });

  it('refuses a chain with events and no checkpoint at all, not an empty one', () => {
    const checks = new CheckpointMatcher([], undefined);
    expect(checks.end(2n, 2)).toEqual({
      eventId: '',
      message: 'no signed checkpoint found under audit-checkpoints/ in the file store: the chain cannot be checked against one',
    });
    expect(checks.end(0n, 0)).toBeUndefined();
    expect(checks.summary(0n, 0)).toEqual({ matched: 0, beforeRetention: 0, last: undefined, eventsAfter: 0 });
  });
});

describe('audit verify result', () => {
  it('reports the walk up to where it stopped, the problem, and checkpoints only when checked', () => {
    const { events, seals } = chain(2);
    const walk = new ChainWalk(null);
    walkAll(walk, [[seals[0], events[0]]]);
    const problem = { eventId: '12', message: 'event 12 was removed' };
    expect(verifyResult(walk, 5n, undefined, problem)).toEqual({
      ok: false,
      count: 1,
      pending: 0,
      pruned: 5,
      head: { seq: '1', hash: seals[0].hash },
      problem,
    });
    const checks = new CheckpointMatcher([], undefined);
    expect(verifyResult(walk, 0n, checks)).toMatchObject({ ok: true, checkpoints: { matched: 0, eventsAfter: 1 } });
  });

  it('reports an empty chain at the genesis hash', () => {
    expect(verifyResult(new ChainWalk(null), 0n, undefined)).toMatchObject({ ok: true, count: 0, head: { seq: '0', hash: GENESIS_HASH } });
  });
});
