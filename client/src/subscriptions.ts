import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { CloseCode, createClient as createWsClient } from 'graphql-ws';
import { RefreshSessionDocument, type SessionFieldsFragment } from './gql/graphql.js';
import { GraphQLRequestError, operationOf, type GraphQLErrorEntry, type RequestOptions } from './request.js';

/** The signed-in session whose subscriptions share one socket. */
export interface LiveSession {
  accessToken: string;
  /** Lets the SDK refresh the access token when the gateway closes the socket with 4401 (expiry). Without it, 4401 ends every subscription. */
  refreshToken?: string;
  /** Called with each refreshed session: store its tokens (the refresh token rotates: the old one no longer works). */
  onRefresh?(session: SessionFieldsFragment): void;
}

export interface SubscriptionHandlers<TResult> {
  /** Each event's typed data (`errors`: any the event carried next to its data). */
  next(data: TResult, errors?: readonly GraphQLErrorEntry[]): void;
  /**
   * The subscription ended with an error: a GraphQLRequestError (the gateway's `error` message, e.g.
   * FORBIDDEN; or UNAUTHENTICATED when the session ended and could not be refreshed), or a
   * SubscriptionClosedError (the socket closed for good).
   */
  error?(error: Error): void;
  /** The gateway completed the subscription. */
  complete?(): void;
}

/** The socket closed with a code graphql-ws does not retry (or its retries ran out). */
export class SubscriptionClosedError extends Error {
  override name = 'SubscriptionClosedError';
  constructor(
    readonly code: number,
    readonly reason: string,
  ) {
    super(`The subscription socket closed: ${code} ${reason}`.trim());
  }
}

type Request = <TData, TVariables>(document: TypedDocumentNode<TData, TVariables>, variables: TVariables, options?: RequestOptions) => Promise<TData>;

const isCloseEvent = (value: unknown): value is { code: number; reason: string } =>
  typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'number' && 'reason' in value;

const graphQLError = (errors: readonly GraphQLErrorEntry[]) =>
  new GraphQLRequestError(errors[0]?.message ?? 'Subscription failed', String(errors[0]?.extensions?.code ?? 'INTERNAL_SERVER_ERROR'), 0, errors);

/**
 * Subscriptions over graphql-ws (`graphql-transport-ws`, docs/api.md "Subscriptions"): one lazy socket
 * for the session, opened by the first subscription and closed after the last. graphql-ws treats a
 * 4401 close as final (no `shouldRetry` can change that), so the refresh is here: on 4401 the access
 * token is refreshed once with RefreshSession and the subscription resubscribes, the socket's next
 * connection_init carrying the new token; a second 4401 before that token was ever acknowledged, or a
 * refresh that fails, ends the subscription with the error. With `persisted` (a gateway with
 * TRUSTED_DOCUMENTS=only requires it on the socket too) a subscribe message names its document by
 * id, as over HTTP: `extensions.persistedQuery` and an empty `query`.
 */
export function liveClient(options: { url: string; webSocketImpl?: unknown; persisted?: boolean; request: Request }, session: LiveSession) {
  let accessToken = session.accessToken;
  let refreshToken = session.refreshToken;
  /** The token the socket sent in its latest connection_init: the one a 4401 refused. */
  let sentToken = accessToken;
  /** From a refresh until the gateway acknowledges the new token: a 4401 meanwhile is not retried. */
  let unproven = false;
  let refreshing: Promise<void> | undefined;

  const socket = createWsClient({
    url: options.url,
    webSocketImpl: options.webSocketImpl,
    connectionParams: () => {
      sentToken = accessToken;
      return { authorization: `Bearer ${accessToken}` };
    },
    on: { connected: () => void (sentToken === accessToken && (unproven = false)) },
  });

  /** A fresh access token after `refused` got 4401; concurrent subscriptions share one refresh. */
  async function renew(refused: string): Promise<void> {
    if (refused !== accessToken) return; // another subscription's 4401 refreshed it already
    const token = refreshToken;
    if (!token || unproven) throw new GraphQLRequestError('The session ended: sign in again.', 'UNAUTHENTICATED', 0);
    refreshing ??= options
      .request(RefreshSessionDocument, { refreshToken: token })
      .then(({ refreshToken: renewed }) => {
        accessToken = renewed.accessToken;
        refreshToken = renewed.refreshToken;
        unproven = true;
        session.onRefresh?.(renewed);
      })
      .finally(() => (refreshing = undefined));
    await refreshing;
  }

  /** Subscribes; answers the function that unsubscribes. */
  function subscribe<TResult, TVariables>(
    document: TypedDocumentNode<TResult, TVariables>,
    variables: TVariables,
    handlers: SubscriptionHandlers<TResult>,
  ): () => void {
    const { id, query, operationName } = operationOf(document as TypedDocumentNode<unknown, never>, 'subscribe()');
    const extensions = { persistedQuery: { version: 1, sha256Hash: id.replace(/^sha256:/, '') } };
    /** Persisted: the id alone (graphql-ws wants a string query: empty), until the gateway says it does not know it. */
    let withText = !options.persisted;
    let stopped = false;
    let stop = () => {};
    const fail = (error: Error) => {
      stopped = true;
      stop();
      handlers.error?.(error);
    };
    const start = () => {
      const payload = { query: withText ? query : '', operationName, variables: variables as Record<string, unknown> };
      stop = socket.subscribe<TResult>(options.persisted ? { ...payload, extensions } : payload, {
        next: (result) => {
          if (stopped) return;
          const errors = result.errors as readonly GraphQLErrorEntry[] | undefined;
          if (result.data == null) return fail(graphQLError(errors ?? []));
          handlers.next(result.data, errors);
        },
        error: (error) => {
          if (stopped) return;
          if (isCloseEvent(error) && error.code === CloseCode.Unauthorized) {
            renew(sentToken).then(
              () => void (stopped || start()),
              (e: unknown) => fail(e instanceof Error ? e : new Error(String(e))),
            );
            return;
          }
          if (Array.isArray(error)) {
            // A gateway with TRUSTED_DOCUMENTS=off knows only the ids clients registered: send the text with the id, as over HTTP.
            if (!withText && (error as GraphQLErrorEntry[])[0]?.extensions?.code === 'PERSISTED_QUERY_NOT_FOUND') {
              withText = true;
              return start();
            }
            return fail(graphQLError(error as GraphQLErrorEntry[]));
          }
          fail(isCloseEvent(error) ? new SubscriptionClosedError(error.code, error.reason) : error instanceof Error ? error : new Error(String(error)));
        },
        complete: () => {
          if (stopped) return;
          stopped = true;
          handlers.complete?.();
        },
      });
    };
    start();
    return () => {
      stopped = true;
      stop();
    };
  }

  /** The same as an async iterator of each event's data; `return()` (leaving a for-await loop) unsubscribes. */
  function iterate<TResult, TVariables>(document: TypedDocumentNode<TResult, TVariables>, variables: TVariables): AsyncIterableIterator<TResult> {
    const queue: TResult[] = [];
    let ended = false;
    let failure: Error | undefined;
    let wake = () => {};
    const stop = subscribe(document, variables, {
      next: (data) => (queue.push(data), wake()),
      error: (error) => ((failure = error), (ended = true), wake()),
      complete: () => ((ended = true), wake()),
    });
    const iterator: AsyncIterableIterator<TResult> = {
      async next() {
        while (!queue.length && !ended) await new Promise<void>((resolve) => (wake = resolve));
        if (queue.length) return { value: queue.shift() as TResult, done: false };
        if (failure) throw failure;
        return { value: undefined, done: true };
      },
      async return() {
        ended = true;
        queue.length = 0;
        stop();
        wake();
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  return {
    subscribe,
    iterate,
    /** Closes the socket; every subscription completes. */
    dispose: () => socket.dispose(),
  };
}

export type LiveClient = ReturnType<typeof liveClient>;
