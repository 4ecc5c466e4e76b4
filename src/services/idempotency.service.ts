import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import stringify from 'safe-stable-stringify';
import type { Prisma } from '../db/database';
import { ConflictError, ValidationError } from '../domain/errors';
import { present } from '../invariant';

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
}

/** printable ASCII, 1..255 characters (contract §1). */
const KEY = /^[\x20-\x7e]{1,255}$/;
/** Housekeeping: expired rows are deleted at most this often per instance, in batches. */
const PURGE_EVERY_MS = 60_000;
const PURGE_BATCH = 1000;

/** Keys belong to the authenticated user; requests without one (register) share the guest scope. */
export const scopeOf = (user: { id: number } | null | undefined) => (user ? `user:${user.id}` : 'guest');

interface KeyRow {
  fingerprint: string;
  state: 'IN_PROGRESS' | 'DONE';
  response_status: number | null;
  response_body: string | null;
}

/**
 * The claim a first request holds on its key: exactly one of `complete` (the answer is final and
 * will be replayed) or `release` (nothing was done that a retry must not redo) ends it.
 */
export class IdempotencyClaim {
  constructor(
    private readonly store: IdempotencyService,
    readonly request: IdempotentRequest,
    readonly id: string,
  ) {}

  complete(answer: StoredAnswer): Promise<void> {
    return this.store.complete(this, answer);
  }

  release(): Promise<void> {
    return this.store.release(this);
  }
}

/**
 * Idempotency-Key storage in PostgreSQL, so every gateway instance sees the same keys: a unique
 * (scope, key hash) row, claimed atomically by one INSERT … ON CONFLICT, completed with the answer
 * or released. Domain-agnostic: the REST router and the GraphQL plugin are its adapters.
 * Times come from the database's clock, never an instance's.
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
   * holder's lease ran out, is claimed afresh in the same statement.
   */
  async begin(request: IdempotentRequest): Promise<{ claim: IdempotencyClaim } | { replay: StoredAnswer }> {
    await this.purgeNowAndThen();
    const keyHash = this.keyHash(request.key);
    const fingerprint = fingerprintOf(request);
    for (let attempt = 0; attempt < 3; attempt++) {
      const claim = randomUUID();
      const claimed = await this.prisma.$queryRaw<{ id: number }[]>`
        INSERT INTO idempotency_keys (scope, key_hash, fingerprint, state, claim, expires_at)
        VALUES (${request.scope}, ${keyHash}, ${fingerprint}, 'IN_PROGRESS', ${claim}::uuid, now() + ${this.options.lockSeconds}::int * interval '1 second')
        ON CONFLICT (scope, key_hash) DO UPDATE
          SET fingerprint = EXCLUDED.fingerprint, state = 'IN_PROGRESS', claim = EXCLUDED.claim,
              response_status = NULL, response_body = NULL, expires_at = EXCLUDED.expires_at, created_at = now()
          WHERE idempotency_keys.expires_at <= now()
        RETURNING id`;
      if (claimed.length) return { claim: new IdempotencyClaim(this, request, claim) };

      const [row] = await this.prisma.$queryRaw<KeyRow[]>`
        SELECT fingerprint, state::text AS state, response_status, response_body FROM idempotency_keys
        WHERE scope = ${request.scope} AND key_hash = ${keyHash} AND expires_at > now()`;
      if (!row) continue; // expired or purged in between: claim again
      // A completed key's fingerprint covers the files too (see complete): the retry reads its own to compare.
      const expected = row.state === 'DONE' && request.streamed ? fingerprintOf(request, await request.streamed()) : fingerprint;
      if (row.fingerprint !== expected) {
        throw ValidationError.field('idempotencyKey', 'This idempotency key was already used with a different request.');
      }
      if (row.state === 'IN_PROGRESS') throw new ConflictError('A request with this idempotency key is still being processed.');
      return { replay: { status: present(row.response_status, 'response_status'), body: this.open(request.key, present(row.response_body, 'response_body')) } };
    }
    throw new ConflictError('A request with this idempotency key is still being processed.');
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

  /** Frees the key: the next request with it runs as a first one. */
  async release(claim: IdempotencyClaim): Promise<void> {
    const { scope, key } = claim.request;
    await this.prisma.$executeRaw`
      DELETE FROM idempotency_keys WHERE scope = ${scope} AND key_hash = ${this.keyHash(key)} AND claim = ${claim.id}::uuid`;
  }

  /** Deletes expired rows (a batch at a time); expired rows are already ignored, this only keeps the table small. */
  async purgeExpired(): Promise<number> {
    return this.prisma.$executeRaw`
      DELETE FROM idempotency_keys WHERE id IN (SELECT id FROM idempotency_keys WHERE expires_at <= now() LIMIT ${PURGE_BATCH})`;
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
