import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import type { Readable } from 'node:stream';

/**
 * Signed checkpoints of the audit hash chain (docs/audit.md "Checkpoints"): the chain's head (seq,
 * event, hash, time) signed with an Ed25519 key the database never holds, and stored outside it (the
 * file store: S3, with Object Lock where configured, or the local directory) and in the log. Anyone
 * with the public key can check the chain against them; rewriting history then needs the private key.
 */

/** Where checkpoints live in the file store: `audit-checkpoints/<seq, 20 digits>`, so names sort by seq. */
export const CHECKPOINT_PREFIX = 'audit-checkpoints';

export interface Checkpoint {
  /** Chain position of the head when signed. */
  seq: string;
  /** The event at that position. */
  eventId: string;
  /** The chain hash at that position. */
  hash: string;
  /** When it was signed (ISO 8601, the gateway's clock). */
  at: string;
  /** Which key signed it (keyIdOf its public key). */
  keyId: string;
  /** Ed25519 signature over checkpointMessage(), base64. */
  signature: string;
}

export const checkpointKey = (seq: bigint | string): string => `${CHECKPOINT_PREFIX}/${seq.toString().padStart(20, '0')}`;

/** The public half of a key (a public key as it is). */
const publicOf = (key: KeyObject): KeyObject => (key.type === 'public' ? key : createPublicKey(key));

/** A short stable name for a key: the first 16 hex digits of SHA-256 over its public key (SPKI DER). */
export function keyIdOf(key: KeyObject): string {
  const spki = publicOf(key).export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('hex').slice(0, 16);
}

/** The exact bytes signed: every field but the signature, one per line, after a version tag. */
function checkpointMessage(c: Omit<Checkpoint, 'signature'>): Buffer {
  return Buffer.from(['audit-checkpoint v1', c.seq, c.eventId, c.hash, c.at, c.keyId].join('\n'));
}

export function signCheckpoint(head: { seq: bigint; eventId: bigint; hash: string }, key: KeyObject, at = new Date()): Checkpoint {
  const body = { seq: head.seq.toString(), eventId: head.eventId.toString(), hash: head.hash, at: at.toISOString(), keyId: keyIdOf(key) };
  return { ...body, signature: sign(null, checkpointMessage(body), key).toString('base64') };
}

/**
 * A stored checkpoint checked against the auditor's public keys: the checkpoint when its signature
 * verifies with the key it names, else why not.
 */
export function openCheckpoint(raw: string, keys: ReadonlyMap<string, KeyObject>): { checkpoint: Checkpoint } | { problem: string } {
  let c: Partial<Record<keyof Checkpoint, unknown>>;
  try {
    c = JSON.parse(raw) as typeof c;
  } catch {
    return { problem: 'is not JSON' };
  }
  const fields = ['seq', 'eventId', 'hash', 'at', 'keyId', 'signature'] as const;
  const missing = fields.filter((f) => typeof c[f] !== 'string' || !c[f]);
  if (missing.length) return { problem: `has no ${missing.join(', ')}` };
  const checkpoint = c as Checkpoint;
  if (!/^\d+$/.test(checkpoint.seq) || !/^[0-9a-f]{64}$/.test(checkpoint.hash)) return { problem: 'has a malformed seq or hash' };
  const key = keys.get(checkpoint.keyId);
  if (!key) return { problem: `is signed by key ${checkpoint.keyId}, which is not among the public keys given` };
  if (!verify(null, checkpointMessage(checkpoint), key, Buffer.from(checkpoint.signature, 'base64')))
    return { problem: `has a signature that does not verify with key ${checkpoint.keyId}` };
  return { checkpoint };
}

/** Public keys by key id. */
export function keyring(keys: KeyObject[]): Map<string, KeyObject> {
  return new Map(keys.map((k) => [keyIdOf(k), publicOf(k)]));
}

export async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
