import { HeaderMap, type ApolloServerPlugin, type GraphQLRequestContext } from '@apollo/server';
import { print, type GraphQLFormattedError } from 'graphql';
import type { Context } from '../http/context';
import { uploadsDigest } from '../http/multipart';
import { CodedError } from '../domain/errors';
import { httpStatus } from '../http/errors';
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER, isFinalStatus } from '../http/idempotency-key';
import { selectsIdempotentField } from '../schema/idempotent';
import { scopeOf, type IdempotencyClaim, type StoredAnswer } from '../services/idempotency.service';

/** Codes that mean the request was not carried out: the key is released, as for the statuses in isFinalStatus. */
const NOT_CARRIED_OUT = new Set(['INTERNAL_SERVER_ERROR', 'SERVICE_UNAVAILABLE', 'RATE_LIMITED', 'UNAUTHENTICATED']);

const notCarriedOut = (errors: readonly GraphQLFormattedError[] | undefined) => (errors ?? []).some((e) => NOT_CARRIED_OUT.has(String(e.extensions?.code)));

/**
 * The GraphQL adapter of the idempotency store. A POST /graphql whose mutation selects a field
 * marked @Idempotent() and that carries an `Idempotency-Key` header claims the key once the
 * operation is known (after authentication, parsing and validation); the whole HTTP answer is
 * stored before it is sent, and replayed (same status and body, plus `Idempotent-Replayed: true`)
 * for a retry. Key errors are request errors: HTTP 422 (BAD_USER_INPUT on `idempotencyKey`) or
 * 409 (CONFLICT) without `data`.
 */
export function idempotencyPlugin(): ApolloServerPlugin<Context> {
  return {
    async requestDidStart({ request }) {
      const header = request.http?.headers.get(IDEMPOTENCY_HEADER.toLowerCase());
      if (header === undefined) return;
      let claim: IdempotencyClaim | undefined;
      let replay: StoredAnswer | undefined;
      return {
        async didResolveOperation(rc: GraphQLRequestContext<Context>) {
          const { document, operation } = rc;
          if (!document || !operation || !selectsIdempotentField(rc.schema, document, operation)) return;
          const { idempotency } = rc.contextValue.services;
          try {
            const key = idempotency.checkKey(header);
            const body = { query: print(document), operationName: rc.request.operationName ?? null, variables: rc.request.variables ?? {} };
            const streamed = uploadsDigest(rc.contextValue.uploads ?? []);
            const started = await idempotency.begin({ scope: scopeOf(rc.contextValue.user), key, method: 'POST', path: '/graphql', body, streamed });
            if ('claim' in started) {
              claim = started.claim;
              rc.contextValue.idempotency = claim.scope;
            } else replay = started.replay;
          } catch (err) {
            // Thrown from here Apollo answers 500 unless the status is already set.
            if (err instanceof CodedError) rc.response.http.status = httpStatus(err.code);
            throw err;
          }
        },
        async responseForOperation() {
          if (!replay) return null;
          return {
            http: { status: replay.status, headers: new HeaderMap([[REPLAYED_HEADER.toLowerCase(), 'true']]) },
            body: { kind: 'single', singleResult: JSON.parse(replay.body) as Record<string, unknown> },
          };
        },
        async willSendResponse(rc) {
          if (!claim) return;
          const status = rc.response.http.status ?? 200;
          const { body } = rc.response;
          const final = body.kind === 'single' && isFinalStatus(status) && !notCarriedOut(body.singleResult.errors);
          await claim.settle(final ? { status, body: JSON.stringify(body.singleResult) } : null);
        },
      };
    },
  };
}
