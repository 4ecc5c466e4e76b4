import type { ApolloServerOptionsWithGateway } from '@apollo/server';
import { GraphQLError, Kind, execute, parse, print, type DocumentNode, type ExecutionResult, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { PromiseOrValue } from 'graphql/jsutils/PromiseOrValue';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Context } from '../http/context';
import { tracingEnabled } from '../platform/tracing';

export type CompiledExecution = (root: unknown, context: Context, variables: Record<string, unknown>) => PromiseOrValue<ExecutionResult>;

/**
 * A fixed document compiled once into a function (graphql-jit) rather than interpreted by
 * graphql-js on every request: the same resolvers (type-graphql's authorization, validation and
 * middlewares live in them), the same leaf serialization, and errors rebuilt as graphql-js's own
 * (same message, path, locations and original error, which the error boundary reads).
 * test/compiled-execution.test.ts runs every fixed document both ways and compares the answers.
 * With tracing on (src/platform/tracing.ts) fixed documents run on graphql-js like the rest.
 */
export function compileExecution(schema: GraphQLSchema, document: DocumentNode, name: string): CompiledExecution {
  let bySchema = compiledBySchema.get(schema);
  if (!bySchema) compiledBySchema.set(schema, (bySchema = new WeakMap()));
  let run = bySchema.get(document);
  if (!run) bySchema.set(document, (run = compile(schema, document, name)));
  return run;
}

/** Each fixed document compiled once per schema, whichever face asks first (the REST routes' documents serve both). */
const compiledBySchema = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, CompiledExecution>>();

function compile(schema: GraphQLSchema, document: DocumentNode, name: string): CompiledExecution {
  // OpenTelemetry's GraphQL spans (execute, resolvers) come from patching graphql-js: traced, it runs there.
  if (tracingEnabled) return (root, context, variables) => execute({ schema, document, rootValue: root, contextValue: context, variableValues: variables });
  const compiled = compileQuery(schema, document);
  if (!isCompiledQuery(compiled)) throw new Error(`${name}: ${(compiled.errors ?? []).map((e) => e.message).join('; ')}`);
  return async (root, context, variables) => {
    const result = await compiled.query(root, context, variables);
    if (!result.errors?.length) return result;
    // Errors without a path are request errors (variables that do not fit their types): nothing has
    // run yet, so graphql-js runs it again to report them in its own words, as on every other path.
    if (result.errors.every((e) => e.path === undefined))
      return execute({ schema, document, rootValue: root, contextValue: context, variableValues: variables });
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
 * Apollo Server's executor (its `gateway` hook, the one place it lets the executor be chosen): a
 * request whose text is one of the gateway's fixed documents runs compiled; every other document
 * (free-form queries) runs on graphql-js, as Apollo itself would run it. Limits, validation,
 * plugins, context and formatError are Apollo's as before: only the execution step is chosen here.
 * (Subscriptions never get here: subscriptionsOverWebSocketOnly refuses them first.)
 */
export function fixedDocumentsExecutor(schema: GraphQLSchema, fixed: FixedDocuments): ApolloServerOptionsWithGateway<Context>['gateway'] {
  return {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => undefined;
    },
    async load() {
      return {
        async executor(request) {
          const { variables, operationName } = request.request;
          const found = fixed(request.source, operationName);
          if (found) return found.run(undefined, request.context as Context, variables ?? {});
          return execute({ schema, document: request.document, contextValue: request.context, variableValues: variables, operationName });
        },
      };
    },
    async stop() {},
  };
}
