import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, type KeyObject } from 'node:crypto';
import type { Logger } from 'pino';
import type { AuthUser } from '../domain/auth-user';
import type { Prisma } from '../db/database';
import { ForbiddenError, ValidationError } from '../domain/errors';
import { Prisma as PrismaNs, type AuditEvent } from '../generated/prisma/client';
import { Role } from '../generated/prisma/enums';
import { pageQuery, pageWindow, paginate } from './pagination';
import { csvStream, type CsvCell } from './csv';
import type { DownloadFile, DownloadLink, DownloadService } from './download.service';
import type { FileStorage } from './storage/file-storage';
import { CHECKPOINT_PREFIX, checkpointKey, openCheckpoint, readAll, signCheckpoint, type Checkpoint } from './audit-checkpoints';

/**
 * The audit trail (docs/audit.md). Services call `audit.record(tx, …)` inside the transaction of the
 * action they record, so the event commits or rolls back with it. Inserting takes no lock: events
 * are chained afterwards by `AuditService.seal()`, in (xid, id) order, once their transactions
 * have certainly finished.
 */

/** Who acted: the event's actorId and actorRole. */
export interface AuditActor {
  id: NonNullable<AuditEvent['actorId']>;
  role: NonNullable<AuditEvent['actorRole']>;
}

/** Who is acting and from where: set once per GraphQL field from the request's context. */
export interface AuditOrigin {
  actor: AuditActor | null;
  requestId?: string;
  ip?: string;
  userAgent?: string;
}

const origins = new AsyncLocalStorage<AuditOrigin>();

/** Runs `fn` with `origin` as the origin of every event it records (each root field runs in one, see src/graphql/build.ts). */
export function withAuditOrigin<T>(origin: AuditOrigin, fn: () => T): T {
  return origins.run(origin, fn);
}

export interface AuditEntry {
  /** Stable dotted name, `<target type>.<past participle>`: `withdrawal_request.approved`. */
  action: string;
  target?: { type: string; id: number | bigint | string } | null;
  /** `{ before, after }` of the changed fields (see `changed`); a creation gives only `after`. */
  changes?: { before?: Record<string, unknown>; after?: Record<string, unknown> } | null;
  /** Defaults to the user of the request being served (none for a guest, a script or a worker). */
  actor?: AuditActor | null;
}

type AuditClient = Pick<PrismaNs.TransactionClient, '$executeRaw'>;

/**
 * The most characters an event keeps of the text a client chose: its User-Agent, and its IP where
 * `TRUST_PROXY=true` takes X-Forwarded-For as written. Any guest can send 8 kB of it per failed login.
 */
export const AUDIT_TEXT_MAX_CHARS = 512;

/** A client's text as PostgreSQL can store it (NUL as U+FFFD), cut to its first AUDIT_TEXT_MAX_CHARS code points. */
function clientText(text: string): string {
  const storable = text.includes('\0') ? text.replaceAll('\0', '\uFFFD') : text;
  if (storable.length <= AUDIT_TEXT_MAX_CHARS) return storable;
  // Counted in code points, so the cut never falls between the two halves of a surrogate pair.
  let end = 0;
  for (let n = 0; n < AUDIT_TEXT_MAX_CHARS && end < storable.length; n++) end += (storable.codePointAt(end) ?? 0) > 0xffff ? 2 : 1;
  return storable.slice(0, end);
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** Keys never stored, whatever a caller passes: credentials and secrets of any kind. */
const SECRET_KEY = /password|hash|token|secret/i;

/** Decimals, dates and big integers as strings; secret-looking keys dropped. */
function toJson(value: unknown): Json {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(toJson);
  if (typeof value === 'object') {
    // Decimal (decimal.js and Prisma's) has its own exact toString.
    if (!Object.getPrototypeOf(value) || Object.getPrototypeOf(value) === Object.prototype) {
      return Object.fromEntries(
        Object.entries(value)
          .filter(([k, v]) => !SECRET_KEY.test(k) && v !== undefined)
          .map(([k, v]) => [k, toJson(v)]),
      );
    }
    return String(value);
  }
  return value as Json;
}

const same = (a: unknown, b: unknown) => JSON.stringify(toJson(a)) === JSON.stringify(toJson(b));

/**
 * The fields of `after` whose value differs from `before`, as `{ before, after }`; `after` may name
 * only the fields that were written.
 */
export function changed(before: Record<string, unknown>, after: Record<string, unknown>): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const keys = Object.keys(after).filter((k) => after[k] !== undefined && !same(before[k], after[k]));
  return { before: Object.fromEntries(keys.map((k) => [k, before[k] ?? null])), after: Object.fromEntries(keys.map((k) => [k, after[k]])) };
}

/** The named fields of a row, e.g. the created values of a new record. */
export function pick<T extends object, K extends keyof T>(row: T, ...keys: K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((k) => [k, row[k]])) as Pick<T, K>;
}

export const audit = {
  /**
   * Writes one event with `db` — pass the action's transaction client. Returns Prisma's lazy
   * promise, so it also fits a batch `$transaction([...])`. A plain INSERT rather than
   * `auditEvent.create`: `occurred_at` then comes from the database's clock (Prisma computes
   * `@default(now())` in the client), and money writes pay one cheap statement inside their lock,
   * with no RETURNING to map back. `also` is a select list run by the same statement (the change
   * feed's `changes.notification(…)`): a write that is audited and published pays one round trip.
   */
  record(db: AuditClient, entry: AuditEntry, also?: PrismaNs.Sql) {
    const origin = origins.getStore();
    const actor = entry.actor === undefined ? (origin?.actor ?? null) : entry.actor;
    const changes = entry.changes ? JSON.stringify(toJson(entry.changes)) : null;
    const ip = origin?.ip ? clientText(origin.ip) : null;
    const userAgent = origin?.userAgent === undefined ? null : clientText(origin.userAgent);
    const insert = PrismaNs.sql`
      INSERT INTO audit_events (actor_id, actor_role, action, target_type, target_id, changes, request_id, ip, user_agent)
      VALUES (${actor?.id ?? null}, ${actor?.role ?? null}::"Role", ${entry.action}, ${entry.target?.type ?? null},
              ${entry.target ? String(entry.target.id) : null}, ${changes}::jsonb, ${origin?.requestId ?? null}, ${ip}, ${userAgent})`;
    // A data-modifying WITH runs once and to completion whether or not the SELECT reads it.
    return db.$executeRaw(also ? PrismaNs.sql`WITH event AS (${insert}) SELECT ${also}` : insert);
  },

  /** A status transition `from` → `to` of a `type` row: action `<type>.<to>`, e.g. `payout.paid`; `also` as in `record`. */
  transition(db: AuditClient, type: string, id: number, from: string, to: string, data: Record<string, unknown> = {}, also?: PrismaNs.Sql) {
    return audit.record(
      db,
      {
        action: `${type}.${to.toLowerCase()}`,
        target: { type, id },
        changes: { before: { status: from }, after: { status: to, ...data } },
      },
      also,
    );
  },

  /**
   * For the `admin:create` script: an account made administrator, created (`created: true`) or
   * promoted from `previousRole`. Call it with the transaction that writes the user.
   */
  adminGranted(db: AuditClient, user: { id: number; created: boolean; previousRole?: Role | null }) {
    return audit.record(db, {
      actor: null,
      action: user.created ? 'user.admin_created' : 'user.admin_promoted',
      target: { type: 'user', id: user.id },
      changes: user.created ? { after: { role: Role.ADMIN } } : { before: { role: user.previousRole ?? null }, after: { role: Role.ADMIN } },
    });
  },
};

export interface AuditEventFilterInput {
  action?: string | null;
  actorId?: number | null;
  targetType?: string | null;
  targetId?: string | null;
  from?: Date | null;
  to?: Date | null;
}

/** An event's columns, with its id as text and the actor and target columns grouped. */
export type AuditEventView = Pick<AuditEvent, 'occurredAt' | 'action' | 'changes' | 'requestId' | 'ip' | 'userAgent'> & {
  id: string;
  actor: AuditActor | null;
  target: { type: NonNullable<AuditEvent['targetType']>; id: NonNullable<AuditEvent['targetId']> } | null;
};

function toView(e: AuditEvent): AuditEventView {
  return {
    id: e.id.toString(),
    occurredAt: e.occurredAt,
    actor: e.actorId !== null && e.actorRole !== null ? { id: e.actorId, role: e.actorRole } : null,
    action: e.action,
    target: e.targetType !== null ? { type: e.targetType, id: e.targetId ?? '' } : null,
    changes: e.changes,
    requestId: e.requestId,
    ip: e.ip,
    userAgent: e.userAgent,
  };
}

function whereOf(f: AuditEventFilterInput | null | undefined): PrismaNs.AuditEventWhereInput {
  const filter = f ?? {};
  if (filter.from && filter.to && filter.from > filter.to) throw ValidationError.field('to', 'The to field must be a date after or equal to from.');
  return {
    ...(filter.action ? { action: filter.action } : {}),
    ...(filter.actorId ? { actorId: filter.actorId } : {}),
    ...(filter.targetType ? { targetType: filter.targetType } : {}),
    ...(filter.targetId ? { targetId: filter.targetId } : {}),
    ...(filter.from || filter.to ? { occurredAt: { ...(filter.from ? { gte: filter.from } : {}), ...(filter.to ? { lte: filter.to } : {}) } } : {}),
  };
}

/** Newest first; the same order for the list and the export (each filter has an index ending in it). */
const NEWEST_FIRST: PrismaNs.AuditEventOrderByWithRelationInput[] = [{ occurredAt: 'desc' }, { id: 'desc' }];

// ---- the hash chain ----------------------------------------------------------------------------

export const GENESIS_HASH = '0'.repeat(64);
/** The sealer's lock (also taken by audit_prune()): one sealer at a time, never a writer. */
const SEAL_LOCK = 'audit_seal';

/** JSON with object keys sorted at every depth: the same bytes for the same content. */
function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** SHA-256 over the previous hash, the chain position and every stored field of the event. */
export function chainHash(previous: string, seq: bigint, e: AuditEvent): string {
  const content = [
    e.id.toString(),
    e.xid.toString(),
    e.occurredAt.toISOString(),
    e.actorId,
    e.actorRole,
    e.action,
    e.targetType,
    e.targetId,
    e.changes ?? null,
    e.requestId,
    e.ip,
    e.userAgent,
  ];
  return createHash('sha256')
    .update(`${previous}\n${seq}\n${canonicalJson(content)}`)
    .digest('hex');
}

/**
 * An xid below which every transaction of this database has finished, so that every event with a
 * smaller xid is already visible to the next statement. Three statements, in this order:
 * 1. `next`: the next xid to be assigned; any transaction below it already had its xid.
 * 2. the xids of this database's transactions still running (pg_stat_activity, plus prepared
 *    transactions), widened from 32 to 64 bits relative to `next`.
 * 3. (the caller) reads the events below the bound with a newer snapshot.
 * A transaction with xid below the bound was assigned before (1) and is not running at (2), so it
 * has committed or aborted before (3) looks. Unlike the snapshot's xmin, writers in other databases
 * of the cluster (or sessions left idle in a transaction there) do not hold sealing back.
 */
async function finishedBelow(tx: PrismaNs.TransactionClient): Promise<string> {
  const [{ next }] = await tx.$queryRaw<{ next: string }[]>`SELECT (pg_snapshot_xmax(pg_current_snapshot()))::text AS next`;
  const [{ bound }] = await tx.$queryRaw<{ bound: string | null }[]>`
    WITH running AS (
      SELECT (backend_xid::text::bigint - (${next}::bigint % 4294967296) + 4294967296) % 4294967296 AS d
      FROM pg_stat_activity WHERE datname = current_database() AND backend_xid IS NOT NULL
      UNION ALL
      SELECT (transaction::text::bigint - (${next}::bigint % 4294967296) + 4294967296) % 4294967296
      FROM pg_prepared_xacts WHERE database = current_database()
    )
    SELECT min(CASE WHEN d >= 2147483648 THEN ${next}::bigint - (4294967296 - d) ELSE ${next}::bigint + d END)::text AS bound FROM running`;
  return bound !== null && BigInt(bound) < BigInt(next) ? bound : next;
}

interface ChainHead {
  seq: bigint;
  eventId: bigint;
  eventXid: bigint;
  hash: string;
}

export interface VerifyResult {
  ok: boolean;
  /** Events checked on the chain. */
  count: number;
  /** Events not sealed yet (their transactions were still running). */
  pending: number;
  head: { seq: string; hash: string };
  /** Events removed by retention (the anchor the chain starts from). */
  pruned: number;
  /** The first problem found, naming the event ('' for a problem of the checkpoints themselves). */
  problem?: { eventId: string; message: string };
  /** With `checkpoints`: how many signed checkpoints matched, the newest, and the events after it (no checkpoint covers them yet). */
  checkpoints?: { matched: number; beforeRetention: number; last: Checkpoint | undefined; eventsAfter: number };
}

/** Signed checkpoints of the chain's head (docs/audit.md "Checkpoints"). */
export interface AuditCheckpointOptions {
  /** Where they are written (the file store: S3 or the local directory). */
  storage?: FileStorage;
  /** AUDIT_SIGNING_KEY; unset → no checkpoints. */
  signingKey?: KeyObject;
  /** How often the gateway's sealer writes one (0: only on demand). */
  intervalMs?: number;
  /** S3 Object Lock (compliance mode) for this many days on each. */
  retentionDays?: number;
  /** The checkpoints also go to this log (and, in production, their absence is warned about). */
  logger?: Logger;
  production?: boolean;
}

export interface VerifyOptions {
  /** Seal what is finished first (a write: the operator's run); off for a read-only auditor. Default true. */
  seal?: boolean;
  /** Check the chain against the signed checkpoints in `storage`, with these public keys by key id. */
  checkpoints?: { storage: FileStorage; keys: ReadonlyMap<string, KeyObject> };
}

type AuditProblem = NonNullable<VerifyResult['problem']>;
/** A position on the chain: a seal, or the anchor retention left in place of the removed prefix. */
type ChainLink = Pick<ChainHead, 'seq' | 'eventId' | 'hash'>;

/**
 * A walk along the chain from its anchor (or its start): each seal must come at the next position,
 * its event still there, and the event's content must still give the seal's hash.
 */
export class ChainWalk {
  /** The hash of the last position passed (the anchor's, the genesis hash at the start). */
  previous: string;
  /** The position the next seal must have. */
  expected: bigint;
  private lastEvent: bigint | null;
  /** Events passed. */
  count = 0;

  constructor(anchor: ChainLink | null) {
    this.previous = anchor?.hash ?? GENESIS_HASH;
    this.expected = (anchor?.seq ?? 0n) + 1n;
    this.lastEvent = anchor?.eventId ?? null;
  }

  /** The last position passed. */
  get headSeq(): bigint {
    return this.expected - 1n;
  }

  /** What is wrong with the next seal and its event (undefined: removed), if anything; the walk stays where it is. */
  check(seal: ChainLink, event: AuditEvent | undefined): AuditProblem | undefined {
    const id = seal.eventId.toString();
    if (seal.seq !== this.expected) {
      const where = this.lastEvent === null ? `before event ${id}` : `between event ${this.lastEvent} and event ${id}`;
      return { eventId: id, message: `chain position ${this.expected} is missing: an event ${where} was removed` };
    }
    if (!event) return { eventId: id, message: `event ${id} was removed` };
    if (chainHash(this.previous, seal.seq, event) !== seal.hash)
      return { eventId: id, message: `event ${id} was changed: its content no longer matches its seal` };
    return undefined;
  }

  /** Past a seal that checked out. */
  advance(seal: ChainLink): void {
    this.previous = seal.hash;
    this.lastEvent = seal.eventId;
    this.expected += 1n;
    this.count += 1;
  }
}

/**
 * The signed checkpoints (in seq order) a walk of the chain meets: those before the anchor cover
 * events removed by retention (one exactly on it is checked against the anchor's hash); each later
 * one must match the chain's hash at its position.
 */
export class CheckpointMatcher {
  private readonly pending: Checkpoint[];
  readonly beforeRetention: number;
  matched = 0;
  /** The newest checkpoint matched so far. */
  last: Checkpoint | undefined;

  constructor(
    private readonly list: Checkpoint[],
    anchorSeq: bigint | undefined,
  ) {
    this.pending = list.filter((c) => BigInt(c.seq) >= (anchorSeq ?? 1n));
    this.beforeRetention = list.length - this.pending.length;
  }

  /** The chain has event `eventId` with `hash` at `seq`: a problem when a checkpoint there says otherwise. */
  match(seq: bigint, eventId: string, hash: string): AuditProblem | undefined {
    while (this.pending.length && BigInt(this.pending[0].seq) === seq) {
      const c = this.pending[0];
      if (c.hash !== hash || c.eventId !== eventId) return this.mismatch(c, eventId);
      this.pending.shift();
      this.matched += 1;
      this.last = c;
    }
    return undefined;
  }

  private mismatch(c: Checkpoint, eventId: string): AuditProblem {
    const since = this.last ? `checkpoint #${this.last.seq} (event ${this.last.eventId}, which still matches)` : 'the start of the chain';
    return {
      eventId,
      message:
        `event ${eventId} no longer matches signed checkpoint #${c.seq} (event ${c.eventId}, signed ${c.at} by key ${c.keyId}): ` +
        `the history up to it was rewritten and its seals recomputed; the change lies after ${since}`,
    };
  }

  /** Once the walk reached the chain's end at `headSeq` after `count` events: a checkpoint beyond it, or none at all for a chain with events. */
  end(headSeq: bigint, count: number): AuditProblem | undefined {
    const c = this.pending.at(0);
    if (c)
      return {
        eventId: c.eventId,
        message: `the chain ends at position ${headSeq}, but signed checkpoint #${c.seq} (event ${c.eventId}, signed ${c.at}) is beyond it: events were removed from the end`,
      };
    if (!this.list.length && count)
      return {
        eventId: '',
        message: `no signed checkpoint found under ${CHECKPOINT_PREFIX}/ in the file store: the chain cannot be checked against one`,
      };
    return undefined;
  }

  summary(headSeq: bigint, count: number): NonNullable<VerifyResult['checkpoints']> {
    return {
      matched: this.matched,
      beforeRetention: this.beforeRetention,
      last: this.last,
      eventsAfter: this.last ? Number(headSeq - BigInt(this.last.seq)) : count,
    };
  }
}

/** What a walk found, up to where it stopped (`pending` is the caller's to count). */
export function verifyResult(walk: ChainWalk, pruned: bigint, checks: CheckpointMatcher | undefined, problem?: AuditProblem): VerifyResult {
  return {
    ok: !problem,
    count: walk.count,
    pending: 0,
    pruned: Number(pruned),
    head: { seq: walk.headSeq.toString(), hash: walk.previous },
    problem,
    ...(checks ? { checkpoints: checks.summary(walk.headSeq, walk.count) } : {}),
  };
}

const BATCH = 500;

export class AuditService {
  private sealer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private lastPrune = 0;
  private lastCheckpoint = 0;
  private lastCheckpointSeq = 0n;

  constructor(
    private readonly prisma: Prisma,
    private readonly downloads: DownloadService,
    private readonly checkpoints: AuditCheckpointOptions = {},
  ) {
    downloads.register('audit-events', (user, p) => this.exportCsv(user, p));
  }

  /** Admin listing, newest first. */
  async list(filter: AuditEventFilterInput | null | undefined, page?: number | null, perPage?: number | null) {
    const w = pageWindow(page, perPage);
    const where = whereOf(filter);
    return paginate(w, pageQuery(this.prisma.auditEvent, { where, orderBy: NEWEST_FIRST }), (rows) => rows.map(toView));
  }

  /** A signed link to the CSV of the filtered events (checked now, streamed on GET). */
  exportLink(user: AuthUser, filter: AuditEventFilterInput | null | undefined): DownloadLink {
    whereOf(filter);
    const params = { ...filter, from: filter?.from?.toISOString(), to: filter?.to?.toISOString() };
    return this.downloads.link(user, 'audit-events', params, 'audit-events.csv', 'text/csv; charset=utf-8');
  }

  /** Streams the CSV (header row first) in keyset batches (occurred_at, id descending): never all rows in memory. */
  private async exportCsv(user: AuthUser, params: Record<string, unknown>): Promise<DownloadFile> {
    if (user.role !== Role.ADMIN) throw new ForbiddenError();
    const str = (v: unknown) => (typeof v === 'string' && v ? v : null);
    const where = whereOf({
      action: str(params.action),
      targetType: str(params.targetType),
      targetId: str(params.targetId),
      actorId: typeof params.actorId === 'number' ? params.actorId : null,
      from: str(params.from) ? new Date(params.from as string) : null,
      to: str(params.to) ? new Date(params.to as string) : null,
    });
    const prisma = this.prisma;
    async function* rows(): AsyncGenerator<CsvCell[]> {
      yield ['id', 'occurred_at', 'actor_id', 'actor_role', 'action', 'target_type', 'target_id', 'changes', 'request_id', 'ip', 'user_agent'];
      let after: { occurredAt: Date; id: bigint } | null = null;
      for (;;) {
        const cursor: PrismaNs.AuditEventWhereInput = after
          ? { OR: [{ occurredAt: { lt: after.occurredAt } }, { occurredAt: after.occurredAt, id: { lt: after.id } }] }
          : {};
        const batch = await prisma.auditEvent.findMany({ where: { AND: [where, cursor] }, orderBy: NEWEST_FIRST, take: BATCH });
        for (const e of batch) {
          yield [
            e.id.toString(),
            e.occurredAt.toISOString(),
            e.actorId,
            e.actorRole?.toLowerCase(),
            e.action,
            e.targetType,
            e.targetId,
            e.changes === null ? '' : canonicalJson(e.changes),
            e.requestId,
            e.ip,
            e.userAgent,
          ];
        }
        if (batch.length < BATCH) return;
        after = { occurredAt: batch[batch.length - 1].occurredAt, id: batch[batch.length - 1].id };
      }
    }
    // The one CSV writer (src/services/csv.ts): a user agent or any other recorded text that a
    // spreadsheet would run as a formula is neutralised.
    return { fileName: 'audit-events.csv', contentType: 'text/csv; charset=utf-8', stream: csvStream(rows()) };
  }

  /** The last seal, else the retention anchor, else the start of the chain. */
  private async head(db: PrismaNs.TransactionClient | Prisma): Promise<ChainHead> {
    const seal = await db.auditSeal.findFirst({ orderBy: { seq: 'desc' } });
    if (seal) return seal;
    const anchor = await db.auditAnchor.findFirst({ orderBy: { seq: 'desc' } });
    return anchor ?? { seq: 0n, eventId: -1n, eventXid: -1n, hash: GENESIS_HASH };
  }

  /**
   * Chains every event whose transaction has finished, in (xid, id) order, and returns how many it
   * sealed. Only events with xid below `finishedBelow` are taken: every transaction that could
   * still commit an event has an xid at or above it, so the sealed set is always a prefix of the
   * final (xid, id) order and no event can later appear behind the head (docs/audit.md).
   */
  seal(): Promise<number> {
    // One sealing at a time in this process; the advisory lock covers other processes.
    const run = this.running.then(() => this.sealAll());
    this.running = run.catch(() => undefined);
    return run;
  }

  private async sealAll(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.prisma.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${SEAL_LOCK}))`;
        const head = await this.head(tx);
        const bound = await finishedBelow(tx);
        const ids = await tx.$queryRaw<{ id: string }[]>`
          SELECT id::text AS id FROM audit_events
          WHERE xid < ${bound}::bigint AND (xid, id) > (${head.eventXid.toString()}::bigint, ${head.eventId.toString()}::bigint)
          ORDER BY xid, id LIMIT ${BATCH}`;
        if (!ids.length) return 0;
        const events = await tx.auditEvent.findMany({ where: { id: { in: ids.map((r) => BigInt(r.id)) } }, orderBy: [{ xid: 'asc' }, { id: 'asc' }] });
        let { seq, hash } = head;
        const seals = events.map((e) => {
          seq += 1n;
          hash = chainHash(hash, seq, e);
          return { seq, eventId: e.id, eventXid: e.xid, hash };
        });
        await tx.auditSeal.createMany({ data: seals });
        return seals.length;
      });
      total += n;
      if (n < BATCH) return total;
    }
  }

  /**
   * Seals what is finished, then walks the chain from its anchor: the first event that was
   * changed, removed, or inserted behind the head is named.
   */
  async verify(options: VerifyOptions = {}): Promise<VerifyResult> {
    if (options.seal ?? true) await this.seal();
    const signed = options.checkpoints ? await this.loadCheckpoints(options.checkpoints) : undefined;
    if (signed && 'problem' in signed) return { ok: false, count: 0, pending: 0, pruned: 0, head: { seq: '0', hash: GENESIS_HASH }, problem: signed.problem };
    const anchor = await this.prisma.auditAnchor.findFirst({ orderBy: { seq: 'desc' } });
    const pruned = (await this.prisma.auditAnchor.aggregate({ _sum: { removedEvents: true } }))._sum.removedEvents ?? 0n;
    const walk = new ChainWalk(anchor);
    const checks = signed && new CheckpointMatcher(signed.list, anchor?.seq);
    const problem = (await this.walkChain(walk, anchor, checks)) ?? checks?.end(walk.headSeq, walk.count) ?? (await this.insertedBehindHead());
    const result = verifyResult(walk, pruned, checks, problem);
    if (problem) return result;
    const sealed = await this.prisma.auditSeal.count();
    return { ...result, pending: (await this.prisma.auditEvent.count()) - sealed };
  }

  /** Walks the sealed chain from the anchor, meeting the signed checkpoints on the way; the first problem. */
  private async walkChain(walk: ChainWalk, anchor: ChainLink | null, checks: CheckpointMatcher | undefined): Promise<AuditProblem | undefined> {
    const onAnchor = anchor && checks?.match(anchor.seq, anchor.eventId.toString(), anchor.hash);
    if (onAnchor) return onAnchor;
    for await (const [seal, event] of this.sealsFrom(walk.expected)) {
      const problem = walk.check(seal, event) ?? checks?.match(seal.seq, seal.eventId.toString(), seal.hash);
      if (problem) return problem;
      walk.advance(seal);
    }
    return undefined;
  }

  /** The seals from chain position `from` on, in order, each with its event (undefined once removed): a page at a time. */
  private async *sealsFrom(from: bigint): AsyncGenerator<[ChainLink, AuditEvent | undefined]> {
    for (let next = from; ;) {
      const seals = await this.prisma.auditSeal.findMany({ where: { seq: { gte: next } }, orderBy: { seq: 'asc' }, take: BATCH });
      const events = new Map((await this.prisma.auditEvent.findMany({ where: { id: { in: seals.map((s) => s.eventId) } } })).map((e) => [e.id, e]));
      for (const seal of seals) yield [seal, events.get(seal.eventId)];
      if (seals.length < BATCH) return;
      next = seals[seals.length - 1].seq + 1n;
    }
  }

  /** An unsealed event behind the head: everything finished was just sealed, so it was written in afterwards. */
  private async insertedBehindHead(): Promise<AuditProblem | undefined> {
    const head = await this.head(this.prisma);
    const [behind] = await this.prisma.$queryRaw<{ id: string }[]>`
      SELECT e.id::text AS id FROM audit_events e
      WHERE (e.xid, e.id) < (${head.eventXid.toString()}::bigint, ${head.eventId.toString()}::bigint)
        AND NOT EXISTS (SELECT 1 FROM audit_seals s WHERE s.event_id = e.id)
      ORDER BY e.xid, e.id LIMIT 1`;
    return behind
      ? { eventId: behind.id, message: `event ${behind.id} was inserted out of order: it is not on the chain, behind sealed event ${head.eventId}` }
      : undefined;
  }

  /** Every checkpoint in the store, signature checked, in seq order; or the first that does not verify. */
  private async loadCheckpoints(
    from: NonNullable<VerifyOptions['checkpoints']>,
  ): Promise<{ list: Checkpoint[] } | { problem: NonNullable<VerifyResult['problem']> }> {
    const list: Checkpoint[] = [];
    for (const key of await from.storage.list(CHECKPOINT_PREFIX)) {
      const opened = openCheckpoint(await readAll(await from.storage.get(key)), from.keys);
      if ('checkpoint' in opened && checkpointKey(opened.checkpoint.seq) !== key)
        return {
          problem: {
            eventId: opened.checkpoint.eventId,
            message: `checkpoint ${key} is stored under another position than its own (#${opened.checkpoint.seq})`,
          },
        };
      if ('problem' in opened) return { problem: { eventId: '', message: `checkpoint ${key} ${opened.problem}` } };
      list.push(opened.checkpoint);
    }
    list.sort((a, b) => (BigInt(a.seq) < BigInt(b.seq) ? -1 : BigInt(a.seq) > BigInt(b.seq) ? 1 : 0));
    return { list };
  }

  /**
   * Seals what is finished, then signs the chain's head into a checkpoint written to the file store
   * (`audit-checkpoints/<seq>`, with Object Lock when a retention is set) and to the log. Null
   * without a signing key or before the first event.
   */
  async checkpoint(options: { ifMoved?: boolean } = {}): Promise<Checkpoint | null> {
    const { signingKey, storage, retentionDays, logger } = this.checkpoints;
    if (!signingKey || !storage) return null;
    await this.seal();
    const head = await this.head(this.prisma);
    if (head.seq === 0n || (options.ifMoved && head.seq === this.lastCheckpointSeq)) return null;
    const checkpoint = signCheckpoint(head, signingKey);
    const retainUntil = retentionDays ? new Date(Date.now() + retentionDays * 86_400_000) : undefined;
    await storage.put(checkpointKey(head.seq), Buffer.from(`${JSON.stringify(checkpoint, null, 2)}\n`), { retainUntil });
    this.lastCheckpointSeq = head.seq;
    logger?.info({ auditCheckpoint: checkpoint }, 'audit checkpoint signed');
    return checkpoint;
  }

  /**
   * Retention: removes the sealed prefix older than `days` days through audit_prune(), the one
   * path the append-only trigger lets through; returns the number of events removed. The cutoff is
   * on the database's clock, so workers whose clocks drift agree on it.
   */
  async prune(days: number): Promise<number> {
    const [row] = await this.prisma.$queryRaw<{ removed: string }[]>`SELECT audit_prune(now() - ${days}::int * interval '1 day')::text AS removed`;
    return Number(row.removed);
  }

  /** The gateway's background sealer (and hourly retention when `retentionDays` is set). */
  start(intervalMs: number, retentionDays: number | undefined, logger: Logger): void {
    if (intervalMs <= 0) return;
    const { signingKey, intervalMs: checkpointMs = 0 } = this.checkpoints;
    if (!signingKey && this.checkpoints.production)
      logger.warn(
        'AUDIT_SIGNING_KEY is not set: no signed audit checkpoints are written, and a database owner can rewrite the audit trail undetected (docs/audit.md)',
      );
    const tick = async () => {
      try {
        await this.seal();
        if (signingKey && checkpointMs > 0 && Date.now() - this.lastCheckpoint >= checkpointMs) {
          this.lastCheckpoint = Date.now();
          // Tried again at the next interval (a store without Object Lock refuses every one: not every 5 s in the log).
          await this.checkpoint({ ifMoved: true }).catch((err: unknown) =>
            logger.error({ err, retryInMs: checkpointMs }, 'audit checkpoint failed: the chain is sealed but not signed outside the database'),
          );
        }
        if (retentionDays && Date.now() - this.lastPrune >= 3_600_000) {
          this.lastPrune = Date.now();
          const removed = await this.prune(retentionDays);
          if (removed) logger.info({ removed, retentionDays }, 'audit retention: old events removed');
        }
      } catch (err) {
        logger.error({ err }, 'audit sealer failed');
      }
    };
    this.sealer = setInterval(() => void tick(), intervalMs);
    this.sealer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.sealer);
    this.sealer = undefined;
    await this.running;
  }
}
