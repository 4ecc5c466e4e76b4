import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { requestScope } from '../platform/logger';

/** What a caller may send as X-Request-Id; anything else is replaced, never echoed or logged. */
const WELL_FORMED = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * pino-http's genReqId: the caller's X-Request-Id when well formed (a proxy or client correlating
 * its own logs), else a fresh UUID; echoed in the response either way.
 */
export function requestIdFor(req: IncomingMessage, res: ServerResponse): string {
  const id = requestIdOf(req);
  res.setHeader('X-Request-Id', id);
  return id;
}

/** The caller's X-Request-Id when well formed, else a fresh UUID (a WebSocket upgrade has no response to echo it in). */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && WELL_FORMED.test(given) ? given : randomUUID();
}

/** Runs the rest of the request inside its id's log scope (after pino-http has assigned `req.id`). */
export function requestIdScope(req: Request, _res: Response, next: NextFunction): void {
  requestScope.run(String(req.id), next);
}
