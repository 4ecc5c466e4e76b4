import type { ApolloServerOptionsWithGateway } from '@apollo/server';
import { GraphQLError, Kind, execute, parse, print, type DocumentNode, type ExecutionResult, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { PromiseOrValue } from 'graphql/jsutils/PromiseOrValue';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Context } from '../http/context';
import { CACHE_BYTES, byteBoundedLru, hashKey } from '../platform/bounded-cache';
import { tracingEnabled } from '../platform/tracing';
import { documentBytes } from './document-cache';

export type CompiledExecution = (root: unknown, context: Context, variables: Record<string, unknown>) => PromiseOrValue<ExecutionResult>;

/**
 * A fixed document compiled once into a function (graphql-jit) rather than interpreted by
 * graphql-js on every request: the same resolvers (type-graphql's authorization, validation and
 * middlewares live in them), the same leaf serialization, and errors rebuilt as graphql-js's own
 * (same message, path, locations and original error, which the error boundary reads).
 * test/compiled-execution.test.ts runs every fixed document both ways and compares the answers.
 * With tracing on (src/platform/tracing.ts) every document runs on graphql-js.
 */
export function compileExecution(schema: GraphQLSchema, document: DocumentNode, name: string): CompiledExecution {
  let bySchema = compiledBySchema.get(schema);
  if (!bySchema) compiledBySchema.set(schema, (bySchema = new WeakMap()));
  let run = bySchema.get(document);
  if (!run) {
    const compiled = compile(schema, document);
    if (typeof compiled !== 'function') throw new Error(`${name}: ${compiled.refused}`);
    bySchema.set(document, (run = compiled));
  }
  return run;
}

/** Each fixed document compiled once per schema, whichever face asks first (the REST routes' documents serve both). */
const compiledBySchema = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, CompiledExecution>>();

/** graphql-js's execution of the document, as Apollo itself runs it. */
function interpreted(schema: GraphQLSchema, document: DocumentNode, operationName?: string): CompiledExecution {
  return (root, context, variables) => execute({ schema, document, rootValue: root, contextValue: context, variableValues: variables, operationName });
}

/** The document's operation compiled, or why graphql-jit refuses it (its messages). */
function compile(schema: GraphQLSchema, document: DocumentNode, operationName?: string): CompiledExecution | { refused: string } {
  // OpenTelemetry's GraphQL spans (execute, resolvers) come from patching graphql-js: traced, it runs there.
  if (tracingEnabled) return interpreted(schema, document, operationName);
  const compiled = compileQuery(schema, document, operationName);
  if (!isCompiledQuery(compiled)) return { refused: (compiled.errors ?? []).map((e) => e.message).join('; ') };
  const fallback = interpreted(schema, document, operationName);
  return async (root, context, variables) => {
    const result = await compiled.query(root, context, variables);
    if (!result.errors?.length) return result;
    // Errors without a path are request errors (variables that do not fit their types): nothing has
    // run yet, so graphql-js runs it again to report them in its own words, as on every other path.
    if (result.errors.every((e) => e.path === undefined)) return fallback(root, context, variables);
    return { ...result, errors: result.errors.map(asGraphQLJsError) };
  };
}

/** graphql-jit's error as graphql-js builds it (Apollo reads `extensions`, which jit leaves unset without an original error). */
function asGraphQLJsError(e: GraphQLError): GraphQLError {
  const error = new GraphQLError(e.message, { path: e.path, originalError: e.originalError ?? undefined, extensions: e.extensions });
  (error as { locations?: GraphQLError['locations'] }).locations = e.locations;
  return error;
}

/** A fixed document of one operation, compiled, as a client sends it. */
export interface FixedDocument {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  run: CompiledExecution;
}

/** Finds the fixed document a request names: its text, and its operation name if it gives one. */
export type FixedDocuments = (source: string | undefined, operationName: string | null | undefined) => FixedDocument | undefined;

/**
 * The gateway's fixed documents — the client SDK's persisted documents and the REST route table's
 * operations as printed — by their text, each compiled once: what POST /graphql (its executor,
 * below) and the WebSocket's per-event execution (src/graphql/subscriptions.ts) look a request up in.
 * A text with more than one operation is not fixed (graphql-js picks among them).
 */
export function fixedDocuments(schema: GraphQLSchema, documents: Iterable<string | DocumentNode>): FixedDocuments {
  const byText = new Map<string, FixedDocument>();
  for (const fixed of documents) {
    // A text as clients send it (the SDK's manifest); a parsed document (a REST route's) as graphql-js prints it.
    const [text, document] = typeof fixed === 'string' ? [fixed, parse(fixed)] : [print(fixed), fixed];
    const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    if (operations.length !== 1) continue;
    const [operation] = operations;
    byText.set(text, { document, operation, run: compileExecution(schema, document, operation.name?.value ?? text.slice(0, 40)) });
  }
  return (source, operationName) => {
    const fixed = source === undefined ? undefined : byText.get(source);
    return fixed && (!operationName || operationName === fixed.operation.name?.value) ? fixed : undefined;
  };
}

/**
 * A free-form entry's heap bytes per byte of its document (documentBytes, itself on the high side):
 * the compiled function and the document it keeps, which Apollo's document store may have dropped.
 * Measured once with `node --expose-gc`: heapUsed after two gc() calls before and after compiling 30
 * copies (a comment apart) of each SDK query and mutation against the gateway's schema: the compiled
 * functions alone 0.23–1.10 per documentBytes byte, parsed documents and their functions together 1.32.
 */
const COMPILED_BYTES_PER_DOCUMENT_BYTE = 2;

interface FreeFormEntry {
  run: CompiledExecution;
  /** graphql-jit compiled it (it refused otherwise, and `run` is graphql-js). */
  compiled: boolean;
  bytes: number;
}

/** How the free-form documents ran so far: how many executions compiled, how many on graphql-js (tests read it). */
export interface FreeFormRuns {
  compiled: number;
  interpreted: number;
}

/** The execution of a free-form document (any text that is not fixed), as POST /graphql sent and Apollo parsed it. */
export interface FreeFormDocuments {
  execution(document: DocumentNode, source: string, operationName: string | undefined): CompiledExecution;
  readonly runs: Readonly<FreeFormRuns>;
  /** The kept entries' bytes as counted against the bound (tests read it). */
  cachedBytes(): number;
}

/**
 * Compilations of free-form documents a process starts per second at most, in bursts of as many. A
 * compilation costs a few milliseconds: a client cycling through more distinct documents than the
 * compiled documents' bound holds would otherwise make every request compile. Past the budget a
 * document runs on graphql-js and is compiled on a later execution.
 */
export const FREE_FORM_COMPILATIONS_PER_SECOND = 20;

export interface FreeFormOptions {
  /** The compiled documents' bound (default CACHE_BYTES.compiledDocuments). */
  maxBytes?: number;
  /** Default FREE_FORM_COMPILATIONS_PER_SECOND. */
  compilationsPerSecond?: number;
  /** Milliseconds, for the budget's refill (default performance.now). */
  now?: () => number;
}

/** A token bucket: `perSecond` tokens a second, at most `perSecond` saved; true while one is left to take. */
function rateBudget(perSecond: number, now: () => number): () => boolean {
  let tokens = perSecond;
  let at = now();
  return () => {
    const t = now();
    tokens = Math.min(perSecond, tokens + ((t - at) / 1000) * perSecond);
    at = t;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}

/**
 * Free-form documents compiled once and kept by SHA-256 of (text, operation name) in an LRU of at
 * most `maxBytes`. A document is compiled on its second execution only, the first runs on
 * graphql-js and leaves its hash in a small LRU of hashes seen once: a client sending endless
 * distinct documents costs a hash each, no compilation. Compilations are rate-bounded
 * (FREE_FORM_COMPILATIONS_PER_SECOND).
 * A document graphql-jit refuses is kept as refused and runs on graphql-js; with tracing on, all do.
 */
export function freeFormDocuments(schema: GraphQLSchema, options: FreeFormOptions = {}): FreeFormDocuments {
  const entries = byteBoundedLru<FreeFormEntry>(options.maxBytes ?? CACHE_BYTES.compiledDocuments, (entry) => entry.bytes);
  const seenOnce = byteBoundedLru<true>(CACHE_BYTES.documentsSeenOnce, () => 0);
  const mayCompile = rateBudget(options.compilationsPerSecond ?? FREE_FORM_COMPILATIONS_PER_SECOND, options.now ?? (() => performance.now()));
  const runs: FreeFormRuns = { compiled: 0, interpreted: 0 };
  /** The document's entry, made on an execution after its first when the budget allows (the first leaves only its hash); none with tracing on. */
  function entry(key: string, document: DocumentNode, operationName: string | undefined): FreeFormEntry | undefined {
    const kept = entries.get(key);
    if (kept || tracingEnabled) return kept;
    if (!seenOnce.get(key)) {
      seenOnce.set(key, true);
      return undefined;
    }
    if (!mayCompile()) return undefined;
    seenOnce.delete(key);
    const compiled = compile(schema, document, operationName);
    const bytes = COMPILED_BYTES_PER_DOCUMENT_BYTE * documentBytes(document);
    const made =
      typeof compiled === 'function' ? { run: compiled, compiled: true, bytes } : { run: interpreted(schema, document, operationName), compiled: false, bytes };
    entries.set(key, made);
    return made;
  }
  return {
    runs,
    cachedBytes: () => entries.calculatedSize,
    execution(document, source, operationName) {
      const found = entry(hashKey(source, operationName ?? ''), document, operationName);
      if (found?.compiled) runs.compiled++;
      else runs.interpreted++;
      return found?.run ?? interpreted(schema, document, operationName);
    },
  };
}

/**
 * Apollo Server's executor (its `gateway` hook, the one place it lets the executor be chosen; listed
 * with the upstream request in patches/README.md, as every reach past a dependency's intended use): a
 * request whose text is one of the gateway's fixed documents runs compiled, any other document
 * (free-form queries) as `freeForm` says: graphql-js as Apollo itself would run it, compiled from
 * its second execution on. Limits, validation, plugins, context and formatError are Apollo's as
 * before: only the execution step is chosen here.
 * (Subscriptions never get here: subscriptionsOverWebSocketOnly refuses them first.)
 */
export function fixedDocumentsExecutor(
  schema: GraphQLSchema,
  fixed: FixedDocuments,
  freeForm: FreeFormDocuments = freeFormDocuments(schema),
): ApolloServerOptionsWithGateway<Context>['gateway'] {
  return {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => undefined;
    },
    async load() {
      return {
        async executor(request) {
          const { variables, operationName } = request.request;
          const context = request.context as Context;
          const found = fixed(request.source, operationName);
          if (found) return found.run(undefined, context, variables ?? {});
          return freeForm.execution(request.document, request.source, operationName ?? undefined)(undefined, context, variables ?? {});
        },
      };
    },
    async stop() {},
  };
}
