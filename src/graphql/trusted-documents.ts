import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ApolloServerOptions } from '@apollo/server';
import { PrefixingKeyValueCache, type KeyValueCache } from '@apollo/utils.keyvaluecache';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { GraphQLError } from 'graphql';
import type { Logger } from 'pino';
import type { TrustedDocumentsMode } from '../platform/config';
import { buildContext, requestMeta, type Context } from '../http/context';
import type { AuthUser } from '../domain/auth-user';
import { CodedError } from '../domain/errors';
import { HttpError, PersistedDocumentError, normalizeError } from '../http/errors';
import { isStaff } from './limits';
import { PERSISTED_QUERY_TTL_SECONDS } from './persisted-queries';
import { fromRoot } from '../platform/paths';
import type { Services } from '../services';

/** The client SDK's manifest (`npm run codegen`): `sha256:<hex>` → the document text that hashes to it. */
export const PERSISTED_DOCUMENTS_PATH = fromRoot('client', 'src', 'gql', 'persisted-documents.json');

/** The manifest as APQ ids (bare hex, as `extensions.persistedQuery.sha256Hash` carries them) → document. */
export function loadPersistedDocuments(file = PERSISTED_DOCUMENTS_PATH): Map<string, string> {
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  return new Map(Object.entries(manifest).map(([id, text]) => [id.replace(/^sha256:/, ''), text]));
}

/**
 * Apollo's APQ store with the manifest in front. `allow`: anything else a client registers goes to
 * the shared APQ store (Redis, or the in-process LRU without it). `only`: read-only, so no request
 * can make a document trusted.
 */
function manifestCache(documents: Map<string, string>, registered: KeyValueCache<string> | undefined): KeyValueCache<string> {
  // Apollo hands over bare ids (this store is marked as needing no prefix, so the manifest is looked
  // up by id); what clients register keeps Apollo's own "apq:" key in the shared store.
  const apq = registered && new PrefixingKeyValueCache(registered, 'apq:');
  return PrefixingKeyValueCache.cacheDangerouslyDoesNotNeedPrefixesForIsolation({
    get: async (key) => documents.get(key) ?? apq?.get(key),
    set: async (key, value, options) => void (documents.has(key) ? undefined : await apq?.set(key, value, options)),
    delete: async (key) => void (await apq?.delete(key)),
  });
}

type PersistedQuery = { version?: unknown; sha256Hash?: unknown };

/** `query` and `extensions` of a GraphQL request: the JSON (or multipart) body, or GET's query string. */
function requestSource(req: Request): { query?: unknown; extensions?: { persistedQuery?: PersistedQuery } } {
  if (req.method !== 'GET') return (req.body ?? {}) as ReturnType<typeof requestSource>;
  const { query, extensions } = req.query;
  try {
    return { query, extensions: typeof extensions === 'string' ? JSON.parse(extensions) : undefined };
  } catch {
    // Apollo answers a malformed `extensions` parameter itself.
    return { query, extensions: undefined };
  }
}

/**
 * A malformed automatic persisted query is the client's error, with its own code: a value that is
 * not an object, or a version other than 1 (400 BAD_REQUEST), a query text whose SHA-256 is not the
 * given hash (400 PERSISTED_QUERY_HASH_MISMATCH). Apollo answers all of them with a GraphQLError
 * without a code, which reads as INTERNAL_SERVER_ERROR (and counted as one). Hashing here costs a
 * registration only, the one request that sends both the hash and the text.
 */
function persistedQueryCheck(req: Request, _res: Response, next: NextFunction): void {
  const { query, extensions } = requestSource(req);
  try {
    persistedQueryId(typeof query === 'string' ? query : undefined, extensions?.persistedQuery);
    next();
  } catch (err) {
    next(err);
  }
}

/** The id an APQ extension names (undefined without one); throws the client's error for a malformed one (above). */
function persistedQueryId(query: string | undefined, persisted: unknown): unknown {
  if (persisted === undefined || persisted === null) return undefined;
  // Anything else names a persisted query: Apollo would take a string or a number for one and fail
  // its version check with an error without a code.
  if (typeof persisted !== 'object' || Array.isArray(persisted)) throw HttpError.persistedQueryNotObject();
  const { version, sha256Hash } = persisted as PersistedQuery;
  if (version !== 1) throw HttpError.persistedQueryVersion();
  if (query !== undefined && sha256(query) !== sha256Hash) throw HttpError.persistedQueryHashMismatch();
  return sha256Hash;
}

/** `only`'s rule for a request that is not staff's: it names a manifest document by id. */
function requireManifestDocument(documents: Map<string, string>, id: unknown): void {
  if (typeof id !== 'string') throw PersistedDocumentError.required();
  if (!documents.has(id)) throw PersistedDocumentError.notFound();
}

/**
 * With `only`: a request whose token is not an admin's or an analyst's must name a manifest document
 * by id, checked before Apollo parses anything, so a refused document is never parsed, validated or
 * costed. The context built here (the one context builder) is the one the operation runs with.
 */
function onlyManifestDocuments(documents: Map<string, string>, services: Services, logger: Logger): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const context: Context = res.locals.context ?? (await buildContext(services, req.headers.authorization, requestMeta(req)));
      res.locals.context = context;
      // Staff explore freely (Apollo Sandbox, GraphiQL): the people introspection is open to in production.
      if (isStaff(context.user)) return next();
      const { query, extensions } = requestSource(req);
      // Nothing to run (the landing page, a malformed request): Apollo answers as usual.
      if (query === undefined && extensions === undefined) return next();
      requireManifestDocument(documents, extensions?.persistedQuery?.sha256Hash);
      next();
    } catch (err) {
      // Authentication failed (the database, say): answered as Apollo's context builder would be.
      const e = normalizeError(err);
      if (!(err instanceof CodedError)) logger.error({ err }, 'trusted documents: building the context failed');
      next(e);
    }
  };
}

/** What a graphql-ws `subscribe` message carries that names its document. */
export interface SocketOperation {
  /** graphql-ws requires a string: a message that names its document by id sends `''`. */
  query: string;
  extensions?: Record<string, unknown> | null;
}

/** The document text a WebSocket `subscribe` message runs; throws the error its `error` message carries. */
export type SocketDocuments = (operation: SocketOperation, user: AuthUser | null) => Promise<string>;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The same policy for a `subscribe` message over WebSocket, in the same order and with the same
 * codes as POST /graphql (persistedQueryCheck, then onlyManifestDocuments, then Apollo's APQ
 * lookup): a malformed id, then `only`'s refusal of non-staff free documents, then the id looked up
 * in the store Apollo reads (the manifest; with `off`/`allow` also what clients registered over HTTP).
 * The socket registers nothing: a client whose id is unknown sends the text with it.
 */
function socketDocuments(mode: TrustedDocumentsMode, documents: Map<string, string>, store: KeyValueCache<string>): SocketDocuments {
  return async ({ query, extensions }, user) => {
    const text = query === '' ? undefined : query;
    const id = persistedQueryId(text, extensions?.persistedQuery);
    if (mode === 'only' && !isStaff(user)) requireManifestDocument(documents, id);
    if (text !== undefined || id === undefined) return query;
    const found = typeof id === 'string' ? await store.get(id) : undefined;
    // Apollo's own answer to an unknown id (an APQ client then sends the text with it).
    if (found === undefined) throw new GraphQLError('PersistedQueryNotFound', { extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } });
    return found;
  };
}

/**
 * TRUSTED_DOCUMENTS (docs/api.md "Persisted queries and trusted documents"): Apollo's APQ store,
 * the handlers that go before Apollo on /graphql, and the same policy for subscriptions over
 * WebSocket (`socketDocuments`). The REST face runs its own fixed documents in-process
 * (src/rest/route.ts), outside Apollo, and is not affected.
 */
export function trustedDocuments(
  mode: TrustedDocumentsMode,
  registered: KeyValueCache<string>,
  services: Services,
  logger: Logger,
): Pick<ApolloServerOptions<Context>, 'persistedQueries'> & { handlers: RequestHandler[]; socketDocuments: SocketDocuments } {
  // `registered` is the shared APQ store (Redis when configured: src/graphql/persisted-queries.ts).
  const ttl = PERSISTED_QUERY_TTL_SECONDS;
  if (mode === 'off') {
    return { persistedQueries: { cache: registered, ttl }, handlers: [persistedQueryCheck], socketDocuments: socketDocuments(mode, new Map(), registered) };
  }
  const documents = loadPersistedDocuments();
  const cache = manifestCache(documents, mode === 'allow' ? registered : undefined);
  return {
    persistedQueries: { cache, ttl },
    handlers: [persistedQueryCheck, ...(mode === 'only' ? [onlyManifestDocuments(documents, services, logger)] : [])],
    socketDocuments: socketDocuments(mode, documents, cache),
  };
}
