import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import type { Logger } from 'pino';
import { CodedError, RateLimitedError, ValidationError } from '../domain/errors';
import { bearerChallenge, httpStatus, normalizeError } from '../http/errors';
import type { DownloadFile } from '../services/download.service';
import { snake } from './serialize';

/** Streams a file as an attachment; the name is given both plainly and RFC 5987-encoded. */
export async function sendDownload(res: Response, file: DownloadFile): Promise<void> {
  res.status(200).set({
    'Content-Type': file.contentType,
    'Content-Disposition': `attachment; filename="${file.fileName.replace(/[^\w.-]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
    'Cache-Control': 'no-store',
  });
  await pipeline(file.stream, res);
}

/** An answer as it goes on the wire: status, extra headers and the JSON text of the body. */
export interface WireAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Written on Node's response itself: the media type is always this one, so Express's `send` (charset
 * and mime lookups, a Buffer copy of the text) buys nothing. Node sends no body for HEAD.
 */
export function sendAnswer(res: Response, answer: WireAnswer): void {
  res.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(answer.body));
  res.end(answer.body);
}

/** The one mapping from errors to the contract's REST bodies, statuses and headers. */
export function errorAnswer(err: unknown, logger: Logger): WireAnswer {
  const e = normalizeError(err);
  if (!(e instanceof CodedError)) {
    // A GraphQL request error (the route's document no longer fits the schema): a bug on our side.
    logger.error({ err }, 'REST route produced a GraphQL request error');
    return { status: 500, headers: {}, body: JSON.stringify({ success: false, message: 'Server Error.' }) };
  }
  const status = httpStatus(e.code);
  if (status >= 500) logger.error({ err: err instanceof Error ? err : e }, e.message);
  const headers: Record<string, string> = {};
  if (e instanceof RateLimitedError) {
    Object.assign(headers, { 'Retry-After': String(e.retryAfterSeconds), 'X-RateLimit-Limit': String(e.limit), 'X-RateLimit-Remaining': '0' });
  }
  if (e.code === 'METHOD_NOT_ALLOWED') headers.Allow = (e.details.allow as string[]).join(', ');
  const challenge = bearerChallenge(e);
  if (challenge) headers['WWW-Authenticate'] = challenge;
  const body: Record<string, unknown> = { success: false, message: e.message };
  if (e instanceof ValidationError) {
    body.errors = Object.fromEntries(Object.entries(e.fields).map(([field, messages]) => [field.split('.').map(snake).join('.'), messages]));
  }
  return { status, headers, body: JSON.stringify(body) };
}

export function sendError(res: Response, err: unknown, logger: Logger): void {
  sendAnswer(res, errorAnswer(err, logger));
}
