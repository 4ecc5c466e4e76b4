import type { Request, Response } from 'express';
import type { Context } from '../http/context';
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER, isFinalStatus } from '../http/idempotency-key';
import type { Services } from '../services';
import { scopeOf } from '../services/idempotency.service';
import { errorAnswer, sendAnswer, type WireAnswer } from './respond';
import type { RouteResult } from './route';

/**
 * The REST adapter of the idempotency store: claim the key, run the route once, store its answer
 * (errors included, in the contract's format) and send it; or replay what the first request left.
 * The route's GraphQL operation runs in-process with `execute`, not through Apollo, so the GraphQL
 * plugin never sees this request and nothing is recorded twice. `streamed` digests an upload's bytes
 * (a multipart route's file), which the fingerprint covers too.
 */
export async function sendIdempotent(
  req: Request,
  res: Response,
  services: Services,
  ctx: Context,
  body: unknown,
  run: () => Promise<RouteResult>,
  streamed?: () => Promise<string>,
): Promise<void> {
  const key = services.idempotency.checkKey(req.get(IDEMPOTENCY_HEADER) ?? '');
  const path = `${req.baseUrl}${req.path.replace(/\/$/, '')}`;
  const started = await services.idempotency.begin({ scope: scopeOf(ctx.user), key, method: req.method, path, body, streamed });
  if ('replay' in started) return sendAnswer(res, { ...started.replay, headers: { [REPLAYED_HEADER]: 'true' } });
  ctx.idempotency = started.claim.scope;

  let answer: WireAnswer;
  try {
    const result = await run();
    // Idempotent routes are POSTs that answer an envelope, never a download.
    if ('file' in result) throw new Error(`${req.method} ${path}: an idempotent route cannot answer a download`);
    answer = { status: result.status, headers: {}, body: result.body };
  } catch (err) {
    answer = errorAnswer(err, services.logger);
  }
  await started.claim.settle(isFinalStatus(answer.status) ? answer : null);
  sendAnswer(res, answer);
}
