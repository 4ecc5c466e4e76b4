import { ApolloServer, type ApolloServerOptions, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault, ApolloServerPluginLandingPageProductionDefault } from '@apollo/server/plugin/landingPage/default';
import { expressMiddleware } from '@as-integrations/express5';
import bytes from 'bytes';
import type { IRouter, RequestHandler } from 'express';
import type { GraphQLFormattedError, GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import { buildContext, requestMeta, type Context } from '../http/context';
import { CodedError, ServiceUnavailableError } from '../domain/errors';
import { HttpError, errorCode, httpStatus, normalizeError, toGraphQLError } from '../http/errors';
import { jsonBody, jsonQueryParameters } from '../http/json-body';
import type { Metrics } from '../http/metrics';
import type { UploadLimits } from '../http/multipart';
import type { Services } from '../services';
import { fixedDocumentsExecutor, type FixedDocuments } from './compiled-execution';
import { documentStore } from './document-cache';
import { graphiqlRouter, withGraphiqlFallback } from './graphiql';
import { idempotencyPlugin } from './idempotency.plugin';
import { GRAPHQL_LIMITS, answerSizeCap, limitValidationRules, limitsPlugin } from './limits';
import { subscriptionsOverWebSocketOnly } from './subscriptions';
import { graphqlUploads } from './uploads';

/**
 * GraphQL answers an unreachable database with HTTP 503 (Apollo otherwise sends resolver errors
 * with 200); the body keeps the GraphQL shape with `extensions.code: SERVICE_UNAVAILABLE`. So does a
 * multipart body that broke after its file began (its own 400 or 413, `BAD_REQUEST`/`PAYLOAD_TOO_LARGE`).
 */
const unavailableStatus: ApolloServerPlugin<Context> = {
  async requestDidStart() {
    return {
      async didEncounterErrors({ errors, response }) {
        const mapped = errors.map(normalizeError);
        const transport = mapped.find((e) => e instanceof HttpError);
        if (transport) response.http.status = httpStatus(transport.code);
        if (mapped.some((e) => e instanceof ServiceUnavailableError)) response.http.status = 503;
      },
    };
  },
};

/**
 * Every GraphQL answer is `Cache-Control: no-store`, as Apollo's default cache-control plugin says
 * when no field carries a cache hint (none does here). That plugin is disabled: it hooks every
 * resolved field of every request (REST's in-process executions included, they share the schema)
 * to collect hints that do not exist.
 */
const noStore: ApolloServerPlugin<Context> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        response.http.headers.set('cache-control', 'no-store');
      },
    };
  },
};

/** An error thrown while building the context: Apollo takes its HTTP status from `extensions.http` (else 500). */
export function withHttpStatus(err: unknown): unknown {
  const e = normalizeError(err);
  return e instanceof CodedError ? toGraphQLError(e, { http: { status: httpStatus(e.code) } }) : err;
}

/** One formatter for GraphQL errors: our codes as they are, anything unexpected masked and logged. */
export function formatError(logger: Logger, onError: (code: string) => void) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const e = normalizeError(error);
    onError(errorCode(e));
    if (e instanceof CodedError) {
      if (httpStatus(e.code) >= 500) logger.error({ err: (error as { originalError?: unknown }).originalError ?? error }, 'GraphQL resolver failed');
      return { message: e.message, locations: formatted.locations, path: formatted.path, extensions: toGraphQLError(e).extensions };
    }
    return formatted;
  };
}

export interface GatewayApolloOptions {
  /** The gateway's fixed documents (the SDK's persisted ones, the REST routes'), run compiled. */
  fixed: FixedDocuments;
  persistedQueries: ApolloServerOptions<Context>['persistedQueries'];
  production: boolean;
  logger: Logger;
  metrics: Pick<Metrics, 'graphqlErrors' | 'apolloPlugin'>;
}

/** The /graphql server (not yet started): limits, error formatting and status, metrics, idempotency, landing page. */
export function createApolloServer(schema: GraphQLSchema, options: GatewayApolloOptions): ApolloServer<Context> {
  const { logger, metrics, production } = options;
  return new ApolloServer<Context>({
    gateway: fixedDocumentsExecutor(schema, options.fixed),
    persistedQueries: options.persistedQueries,
    // Analysts explore in Apollo Sandbox, in production too; limitsPlugin refuses introspection to others there.
    introspection: true,
    parseOptions: { maxTokens: GRAPHQL_LIMITS.maxTokens },
    documentStore: documentStore(),
    validationRules: limitValidationRules(),
    allowBatchedHttpRequests: false,
    csrfPrevention: true,
    includeStacktraceInErrorResponses: false,
    // main.ts owns SIGTERM/SIGINT (grace, drain, then close the database); the HTTP drain is ours (http-drain.ts).
    stopOnTerminationSignals: false,
    formatError: formatError(logger, (code) => metrics.graphqlErrors.inc({ code })),
    plugins: [
      ApolloServerPluginCacheControlDisabled(),
      noStore,
      unavailableStatus,
      subscriptionsOverWebSocketOnly,
      limitsPlugin(schema, production),
      idempotencyPlugin(),
      metrics.apolloPlugin,
      withGraphiqlFallback(
        production ? ApolloServerPluginLandingPageProductionDefault({ footer: false }) : ApolloServerPluginLandingPageLocalDefault({ footer: false }),
      ),
    ],
  });
}

export interface GraphqlMount {
  services: Services;
  /** Answers 503 until the gateway is ready. */
  whenReady: RequestHandler;
  /** TRUSTED_DOCUMENTS' handlers (src/graphql/trusted-documents.ts), before Apollo. */
  trusted: RequestHandler[];
  uploads: UploadLimits;
  /** The one JSON body limit of /graphql: a document and its variables, never file contents. */
  bodyLimit: string;
}

/** POST/GET /graphql (a started `apollo`) behind its body parsers and document checks, and GraphiQL at /graphiql. */
export function mountGraphql(router: IRouter, apollo: ApolloServer<Context>, mount: GraphqlMount): void {
  const { services } = mount;
  router.use(
    '/graphql',
    mount.whenReady,
    graphqlUploads(services, { ...mount.uploads, maxOperationsBytes: bytes.parse(mount.bodyLimit) ?? 0 }),
    jsonBody(mount.bodyLimit),
    jsonQueryParameters,
    ...mount.trusted,
    answerSizeCap(),
    expressMiddleware(apollo, {
      // A context built before Apollo (graphqlUploads for multipart, TRUSTED_DOCUMENTS=only) is reused.
      context: async ({ req, res }) =>
        (res.locals.context as Context | undefined) ??
        buildContext(services, req.headers.authorization, requestMeta(req)).catch((err: unknown) => Promise.reject(withHttpStatus(err))),
    }),
  );
  // GraphiQL from the gateway's own files (offline, firewalls); Apollo Sandbox stays at /graphql.
  router.use('/graphiql', graphiqlRouter());
}
