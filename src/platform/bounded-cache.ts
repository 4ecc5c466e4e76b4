import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/**
 * Every in-process cache that client input can fill is one of these: an LRU (lru-cache) bounded in
 * bytes of heap, evicting the least recently used entry. Sizes are estimates of what V8 keeps,
 * on the high side (docs/api.md "Limits", checked by test/memory.test.ts).
 */
export const CACHE_BYTES = {
  /**
   * Apollo's parsed and validated documents (its `documentStore`), keyed by the text's SHA-256. The
   * SDK's 17 documents take ~0.3 MiB; under a loop of distinct documents the process's peak RSS
   * grows by two to three times what this and the compiled documents hold (docs/benchmarks.md).
   */
  documents: 4 * 1024 * 1024,
  /** Automatic persisted queries registered without Redis (or while it is down). */
  persistedQueries: 8 * 1024 * 1024,
  /** Free-form documents compiled (graphql-jit) on their second execution, by (text, operation name) hash. */
  compiledDocuments: 4 * 1024 * 1024,
  /** The hashes of free-form documents executed once, not yet compiled. */
  documentsSeenOnce: 256 * 1024,
  /** Costs already computed, per (document, operation, variables) hash. */
  costs: 1024 * 1024,
  /** Each in-memory rate limiter (no Redis, or Redis down): counters per hashed key. */
  rateLimiter: 2 * 1024 * 1024,
  /** Access tokens already verified, keyed by the token (only tokens our keys signed go in). */
  verifiedTokens: 2 * 1024 * 1024,
} as const;

/** lru-cache's own bookkeeping per entry, beyond its key and value (measured ~140 bytes on Node 20). */
const ENTRY_OVERHEAD_BYTES = 160;

/** Heap bytes of a string: V8 keeps one or two bytes a character. */
export const stringBytes = (s: string) => 2 * s.length;

/** An entry's size for lru-cache's `sizeCalculation`: its key, its value (`valueBytes`) and the LRU's overhead. */
export function entryBytes<V>(valueBytes: (value: V) => number): (value: V, key: string) => number {
  return (value, key) => stringBytes(key) + valueBytes(value) + ENTRY_OVERHEAD_BYTES;
}

/** A fixed-size key for anything a client chose (SHA-256, base64url: 43 characters). */
export function hashKey(...parts: string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('base64url');
}

/** An LRU of at most `maxBytes`, each entry counted by `entryBytes`. */
export function byteBoundedLru<V extends NonNullable<unknown>>(maxBytes: number, valueBytes: (value: V) => number, ttlMs?: number): LRUCache<string, V> {
  return new LRUCache<string, V>({
    maxSize: maxBytes,
    sizeCalculation: entryBytes(valueBytes),
    ...(ttlMs ? { ttl: ttlMs } : {}),
  });
}
