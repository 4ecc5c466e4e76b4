import { InMemoryLRUCache } from '@apollo/utils.keyvaluecache';
import type { DocumentNode } from 'graphql';
import { CACHE_BYTES, entryBytes, stringBytes } from '../platform/bounded-cache';

/** A graphql-js lexer token, all of which a parsed document keeps through its locations (~120 bytes measured). */
const TOKEN_BYTES = 128;

/**
 * Heap bytes of a parsed document: its AST (about three times its JSON), every token the lexer
 * made (comments included; walked in a loop over their links) and the source text it refers to.
 */
export function documentBytes(document: DocumentNode): number {
  let tokens = 0;
  for (let token = document.loc?.startToken ?? null; token; token = token.next) tokens++;
  return 3 * JSON.stringify(document).length + tokens * TOKEN_BYTES + stringBytes(document.loc?.source.body ?? '');
}

/** platform/bounded-cache.ts's bound for Apollo's caches (its KeyValueCache over lru-cache); TTLs come with each `set`. */
export function byteBoundedApolloCache<V extends NonNullable<unknown>>(maxBytes: number, valueBytes: (value: V) => number): InMemoryLRUCache<V> {
  return new InMemoryLRUCache<V>({ maxSize: maxBytes, sizeCalculation: entryBytes(valueBytes) });
}

/** Apollo's `documentStore`: parsed and validated documents by their text's hash, bounded by their size in memory (not Apollo's 30 MiB of JSON). */
export const documentStore = () => byteBoundedApolloCache<DocumentNode>(CACHE_BYTES.documents, documentBytes);
