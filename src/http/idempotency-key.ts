/** The Idempotency-Key protocol on the wire, the same on both faces (REST's adapter and the GraphQL plugin). */

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** Set on an answer that was replayed from the store instead of being produced again. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * Answers that are not final and free the key instead of being stored: the request was not carried
 * out (server failure, unavailable database, rate limit, no valid token), so a retry must run it.
 */
export const isFinalStatus = (status: number) => status < 500 && status !== 429 && status !== 401;
