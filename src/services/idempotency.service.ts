import { AsyncLocalStorage } from 'node:async_hooks';
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import stringify from 'safe-stable-stringify';
import type { Prisma } from '../db/database';
import { ConflictError, NotFoundError, ValidationError } from '../domain/errors';
import type { Prisma as PrismaNs } from '../generated/prisma/client';
import { present } from '../platform/invariant';

/** One request as the idempotency store sees it, whichever face it came through. */
export interface IdempotentRequest {
  /** Whose key it is: see `scopeOf`. */
  scope: string;
  /** The client's `Idempotency-Key`, already checked with `checkKey`. */
  key: string;
  method: string;
  path: string;
  /** Any JSON value; keys are sorted before hashing, so their order does not matter. */
  body: unknown;
  /**
   * A digest of what the body does not hold (uploaded files' bytes), known only once they have been
   * read to their end: asked for when the first request completes and when a retry meets its answer.
   */
  streamed?: () => Promise<string>;
}

/** A stored answer: the status and the exact bytes of the body. */
export interface StoredAnswer {
  status: number;
  body: string;
}

export interface IdempotencyOptions {
  ttlSeconds: number;
  lockSeconds: number;
  /**
   * How long after the claim an answer may wait for its key to be stored or released (0 = as long
   * as that takes): past it the answer goes out and the store goes on in the background.
   */
  settleWithinMs: number;
}

/** printable ASCII, 1..255 characters (contract §1). */
const KEY = /^[\x20-\x7e]{1,255}$/;
/** Housekeeping: expired rows are deleted at most this often per instance, in batches. */
const PURGE_EVERY_MS = 60_000;
const PURGE_BATCH = 1000;

const keyReused = () => ValidationError.field('idempotencyKey', 'This idempotency key was already used with a different request.');
const stillRunning = () => new ConflictError('A request with this idempotency key is still being processed.');

/** Keys belong to the authenticated user; requests without one (register) share the guest scope. */
export const scopeOf = (user: { id: number } | null | undefined) => (user ? `user:${user.id}` : 'guest');

interface KeyRow {
  fingerprint: string;
  state: 'IN_PROGRESS' | 'DONE';
  leased: boolean;
  response_status: number | null;
  response_body: string | null;
}

/** The key row a claim holds, as the domain's writes see it (no HTTP, no GraphQL): see `writeOnce`. */
export interface IdempotencyScope {
  scope: string;
  keyHash: string;
  /** The claim's id: only the request holding the key may write under it. */
  claim: string;
}

/**
 * The claim a first request holds on its key: exactly one of `complete` (the answer is final and
 * will be replayed) or `release` (the answer is not final: the lease ends at once, what the
 * request's writes committed stays with the key) ends it.
 */
export class IdempotencyClaim {
  constructor(
    private readonly store: IdempotencyService,
    readonly request: IdempotentRequest,
    readonly id: string,
    /** What the request's writes need to record their outcome with the key. */
    readonly scope: IdempotencyScope,
  ) {}

  /** When the key was claimed (this instance's clock: it only times this request). */
  readonly since = Date.now();

  complete(answer: StoredAnswer): Promise<void> {
    return this.store.complete(this, answer);
  }

  release(): Promise<void> {
    return this.store.release(this);
  }

  /** `complete(answer)`, or `release()` without one, within the request's bound: see IdempotencyService.settle. */
  settle(answer: StoredAnswer | null): Promise<void> {
    return this.store.settle(this, answer);
  }
}

/**
 * Idempotency-Key storage in PostgreSQL, so every gateway instance sees the same keys: a unique
 * (scope, key hash) row, claimed atomically by one INSERT … ON CONFLICT, completed with the answer
 * or released. Domain-agnostic: the REST router and the GraphQL plugin are its adapters. The
 * request's writes record what they committed on the same row, in their own transaction
 * (`writeOnce`): a key whose request committed keeps that outcome for `ttlSeconds`, whatever
 * became of the answer. Times come from the database's clock, never an instance's.
 */
export class IdempotencyService {
  private lastPurge = 0;

  constructor(
    private readonly prisma: Prisma,
    /** Server secret: key hashes and answer encryption depend on it, so a database copy alone reveals neither. */
    private readonly secret: string,
    private readonly options: IdempotencyOptions,
    private readonly logger: Logger,
  ) {}

  /** The header's value, or a 422 on `idempotency_key` (`idempotencyKey` on GraphQL). */
  checkKey(raw: string): string {
    if (!KEY.test(raw)) throw ValidationError.field('idempotencyKey', 'The idempotency key must be 1 to 255 printable ASCII characters.');
    return raw;
  }

  /**
   * Claims the key for this request, or answers what an earlier request with it left: its stored
   * answer (same body), a 422 (another body) or a 409 (still running). An expired key, or one whose
   * holder's lease ran out, is claimed afresh in the same statement; what that holder's writes
   * committed (`outcomes`, within `ttlSeconds`) stays with the key, and only the same request may
   * take it over.
   */
  async begin(request: IdempotentRequest): Promise<{ claim: IdempotencyClaim } | { replay: StoredAnswer }> {
    await this.purgeNowAndThen();
    const keyHash = this.keyHash(request.key);
    const fingerprint = fingerprintOf(request);
    const ttl = this.options.ttlSeconds;
    for (let attempt = 0; attempt < 3; attempt++) {
      const claim = randomUUID();
      // A committed outcome younger than the TTL is kept (only for the same request); an older one is forgotten.
      const claimed = await this.prisma.$queryRaw<{ id: number }[]>`
        INSERT INTO idempotency_keys (scope, key_hash, fingerprint, state, claim, expires_at)
        VALUES (${request.scope}, ${keyHash}, ${fingerprint}, 'IN_PROGRESS', ${claim}::uuid, now() + ${this.options.lockSeconds}::int * interval '1 second')
        ON CONFLICT (scope, key_hash) DO UPDATE
          SET fingerprint = EXCLUDED.fingerprint, state = 'IN_PROGRESS', claim = EXCLUDED.claim,
              response_status = NULL, response_body = NULL, expires_at = EXCLUDED.expires_at, created_at = now(),
              outcomes = CASE WHEN idempotency_keys.committed_at > now() - ${ttl}::int * interval '1 second' THEN idempotency_keys.outcomes END,
              committed_at = CASE WHEN idempotency_keys.committed_at > now() - ${ttl}::int * interval '1 second' THEN idempotency_keys.committed_at END
          WHERE idempotency_keys.expires_at <= now()
            AND (idempotency_keys.committed_at IS NULL OR idempotency_keys.committed_at <= now() - ${ttl}::int * interval '1 second'
                 OR idempotency_keys.fingerprint = EXCLUDED.fingerprint)
        RETURNING id`;
      if (claimed.length) return { claim: new IdempotencyClaim(this, request, claim, { scope: request.scope, keyHash, claim }) };

      const [row] = await this.prisma.$queryRaw<KeyRow[]>`
        SELECT fingerprint, state::text AS state, expires_at > now() AS leased, response_status, response_body FROM idempotency_keys
        WHERE scope = ${request.scope} AND key_hash = ${keyHash}
          AND (expires_at > now() OR committed_at > now() - ${ttl}::int * interval '1 second')`;
      if (!row) continue; // expired or purged in between: claim again
      // A completed key's fingerprint covers the files too (see complete): the retry reads its own to compare.
      const expected = row.state === 'DONE' && request.streamed ? fingerprintOf(request, await request.streamed()) : fingerprint;
      if (row.fingerprint !== expected) {
        throw keyReused();
      }
      if (row.state === 'IN_PROGRESS') {
        if (row.leased) throw stillRunning();
        continue; // its lease ended in between: claim again
      }
      return { replay: { status: present(row.response_status, 'response_status'), body: this.open(request.key, present(row.response_body, 'response_body')) } };
    }
    throw stillRunning();
  }

  /**
   * Stores the answer for replay (`ttlSeconds` from now); only the claim's own attempt can. The
   * fingerprint then takes in the streamed files; a file that cannot be read to its end (the body
   * broke) leaves nothing a retry could be compared with, so the key is released instead.
   */
  async complete(claim: IdempotencyClaim, answer: StoredAnswer): Promise<void> {
    const { scope, key, streamed } = claim.request;
    let fingerprint = fingerprintOf(claim.request);
    if (streamed) {
      try {
        fingerprint = fingerprintOf(claim.request, await streamed());
      } catch {
        return this.release(claim);
      }
    }
    await this.prisma.$executeRaw`
      UPDATE idempotency_keys
      SET state = 'DONE', fingerprint = ${fingerprint}, response_status = ${answer.status}, response_body = ${this.seal(key, answer.body)},
          expires_at = now() + ${this.options.ttlSeconds}::int * interval '1 second'
      WHERE scope = ${scope} AND key_hash = ${this.keyHash(key)} AND claim = ${claim.id}::uuid`;
  }

  /**
   * Ends the claim's lease at once: the next request with the key runs as a first one. The row is
   * not deleted: a write whose answer was lost may have committed its outcome on it, and a retry
   * must find it (the purge deletes the row once that outcome is older than `ttlSeconds`).
   */
  async release(claim: IdempotencyClaim): Promise<void> {
    const { scope, key } = claim.request;
    await this.prisma.$executeRaw`
      UPDATE idempotency_keys SET expires_at = now()
      WHERE scope = ${scope} AND key_hash = ${this.keyHash(key)} AND claim = ${claim.id}::uuid AND state = 'IN_PROGRESS'`;
  }

  /**
   * Ends a claim before its answer is sent: stores a final answer or releases the key. The answer
   * waits for it at most until `settleWithinMs` after the claim, so a request whose database went
   * away (its statement already waited that long) is answered at once instead of waiting a second
   * time for a connection; the store then goes on in the background. Never throws: the work is
   * done and its answer still goes out; if the store fails, the key stays claimed until its lease
   * ends, and what the request's writes committed stays recorded with it (writeOnce).
   */
  async settle(claim: IdempotencyClaim, answer: StoredAnswer | null): Promise<void> {
    const work = (answer ? this.complete(claim, answer) : this.release(claim)).catch((err: unknown) =>
      this.logger.error({ err }, answer ? 'storing the idempotent answer failed' : 'releasing the idempotency key failed'),
    );
    if (!this.options.settleWithinMs) return work;
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, claim.since + this.options.settleWithinMs - Date.now())));
    await Promise.race([work, bound]);
    clearTimeout(timer);
  }

  /**
   * Deletes expired rows (a batch at a time) whose outcome, if any, is older than `ttlSeconds`;
   * expired rows are already ignored, this only keeps the table small.
   */
  async purgeExpired(): Promise<number> {
    return this.prisma.$executeRaw`
      DELETE FROM idempotency_keys WHERE id IN (
        SELECT id FROM idempotency_keys
        WHERE expires_at <= now() AND (committed_at IS NULL OR committed_at <= now() - ${this.options.ttlSeconds}::int * interval '1 second')
        LIMIT ${PURGE_BATCH})`;
  }

  private async purgeNowAndThen(): Promise<void> {
    if (Date.now() - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = Date.now();
    await this.purgeExpired().catch((err: unknown) => this.logger.warn({ err }, 'purging expired idempotency keys failed'));
  }

  private keyHash(key: string): string {
    return createHmac('sha256', this.secret).update(key).digest('hex');
  }

  /** AES-256-GCM under a key derived from the client's key: stored token answers (register) are unreadable without it. */
  private seal(key: string, text: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.answerKey(key), iv);
    const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
  }

  private open(key: string, stored: string): string {
    const raw = Buffer.from(stored, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.answerKey(key), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }

  private answerKey(key: string): Buffer {
    return Buffer.from(hkdfSync('sha256', key, this.secret, 'idempotency-answer', 32));
  }
}

/** SHA-256 of method, path, the body with its object keys sorted (so key order is not a difference) and the streamed files' digest. */
export function fingerprintOf(request: Pick<IdempotentRequest, 'method' | 'path' | 'body'>, streamed?: string): string {
  const hash = createHash('sha256').update(`${request.method.toUpperCase()} ${request.path}\n${stringify(request.body ?? null)}`);
  if (streamed !== undefined) hash.update(`\n${streamed}`);
  return hash.digest('hex');
}

/** One root field of a keyed request: its claim, and the field's name in the answer (its alias). */
export interface IdempotencyStep extends IdempotencyScope {
  field: string;
}

/**
 * The step being served, set around each idempotent root field (src/graphql/build.ts) from the
 * claim the transport put on the context. An AsyncLocalStorage, as the audit trail's origin: the
 * services' signatures stay as they are, no resolver can forget to pass the claim, and the domain
 * still sees only this plain record, never a request.
 */
const steps = new AsyncLocalStorage<IdempotencyStep>();

export function withIdempotencyStep<T>(step: IdempotencyStep, fn: () => T): T {
  return steps.run(step, fn);
}

/** What writeOnce needs from the write: its kind, and how to name its result and read it back. */
export interface OnceOptions<T> {
  /** `investment_request`: the outcome is recorded as `investment_request:<ref>`. */
  kind: string;
  /** What names the result in its outcome (`904`); never empty. */
  ref: (result: T) => string;
  /** The result as the write would have answered it, from its ref, for a retry after its answer was lost. */
  existing: (ref: string) => Promise<T>;
}

/**
 * The usual OnceOptions: a record named by its id and read back by it (`read`, in the write's
 * transaction), as it now stands. A record gone since (a device token removed) is a 404.
 */
export function recordOnce<T extends { id: number }>(kind: string, read: (id: number) => Promise<T | null>): OnceOptions<T> {
  return {
    kind,
    ref: (result) => String(result.id),
    existing: async (ref) => {
      const record = await read(Number(ref));
      if (!record) throw new NotFoundError();
      return record;
    },
  };
}

/**
 * Runs a keyed request's write at most once, inside the write's own transaction `tx`: the key row is
 * locked first (`SELECT … FOR UPDATE`, before any row the write locks); if this field's outcome is
 * already recorded (an earlier attempt committed, and its answer was lost) the recorded record is
 * answered, else the write runs and its outcome is recorded in the same transaction. So a committed
 * write always carries its key, and a retry never writes twice. Without a key, just the write.
 * Checks that a retry would fail because the first attempt succeeded (a name taken, a state moved
 * on) belong inside `write`, after the lock, not before the transaction.
 */
export async function writeOnce<T>(tx: PrismaNs.TransactionClient, options: OnceOptions<T>, write: () => Promise<T>): Promise<T> {
  const step = steps.getStore();
  if (!step) return write();
  const [row] = await tx.$queryRaw<{ claim: string; outcome: string | null }[]>`
    SELECT claim::text AS claim, outcomes ->> ${step.field} AS outcome FROM idempotency_keys
    WHERE scope = ${step.scope} AND key_hash = ${step.keyHash} FOR UPDATE`;
  // Our lease ran out and a retry took the key over: that one writes.
  if (row?.claim !== step.claim) throw stillRunning();
  if (row.outcome) {
    const at = row.outcome.indexOf(':');
    // An outcome outlives a re-claim only for the same fingerprint (method, path, document and
    // variables), so the same field is the same operation. Only a release that renamed a kind, or a
    // field whose service wrote twice under one key, could get here: the key then named another
    // write, which the contract answers as it answers any other request under a used key (422),
    // writing nothing.
    if (row.outcome.slice(0, at) !== options.kind) throw keyReused();
    return options.existing(row.outcome.slice(at + 1));
  }
  const result = await write();
  await tx.$executeRaw`
    UPDATE idempotency_keys
    SET outcomes = coalesce(outcomes, '{}'::jsonb) || jsonb_build_object(${step.field}::text, ${`${options.kind}:${options.ref(result)}`}::text),
        committed_at = coalesce(committed_at, now())
    WHERE scope = ${step.scope} AND key_hash = ${step.keyHash}`;
  return result;
}
