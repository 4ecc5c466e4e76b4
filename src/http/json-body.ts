import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { HttpError } from './errors';

/**
 * How deeply a JSON body (or GraphQL's `variables` / `extensions` query parameter) may nest arrays
 * and objects. Everything downstream that walks client JSON (variable coercion, idempotency
 * fingerprints, logging) may then recurse safely; 64 is far beyond any operation's input type.
 */
export const MAX_JSON_DEPTH = 64;

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * The deepest nesting of `json`'s text, scanned byte by byte in one loop (no recursion, no parse):
 * brackets inside strings do not count. Malformed text gives some number; the parser refuses it next.
 */
export function jsonDepth(json: Buffer | string): number {
  const bytes = typeof json === 'string' ? Buffer.from(json) : json;
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    else if (b === OPEN_OBJECT || b === OPEN_ARRAY) deepest = Math.max(deepest, ++depth);
    else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) depth--;
  }
  return deepest;
}

/** 400 `JSON nested deeper than 64 levels.` for text nested past MAX_JSON_DEPTH (before it is parsed). */
export function checkDepth(json: Buffer | string): void {
  if (jsonDepth(json) > MAX_JSON_DEPTH) throw HttpError.jsonTooDeep(MAX_JSON_DEPTH);
}

/**
 * express.json with the nesting bound, checked on the raw bytes before they are parsed (body-parser's
 * `verify` hook): a body nested deeper is 400 and never becomes an object.
 */
export function jsonBody(limit: string): RequestHandler {
  return express.json({ limit, verify: (_req, _res, body) => checkDepth(body) });
}

/** The same bound for GraphQL over GET, whose `variables` and `extensions` are JSON in the query string. */
export function jsonQueryParameters(req: Request, _res: Response, next: NextFunction): void {
  if (req.method !== 'GET') return next();
  try {
    for (const name of ['variables', 'extensions']) {
      const value = req.query[name];
      if (typeof value === 'string') checkDepth(value);
    }
    next();
  } catch (err) {
    next(err);
  }
}
