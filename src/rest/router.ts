import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { NextFunction, Request, Response } from 'express';
import { buildContext, requestMeta } from '../http/context';
import { NotFoundError, UnauthenticatedError } from '../domain/errors';
import { HttpError } from '../http/errors';
import { present } from '../platform/invariant';
import type { Services } from '../services';
import { IDEMPOTENCY_HEADER } from '../http/idempotency-key';
import { sendIdempotent } from './idempotency';
import { Upload, readForm, uploadsDigest, type UploadLimits } from '../http/multipart';
import { sendAnswer, sendDownload, sendError } from './respond';
import { compileRoute, type CompiledRoute, type RawValue, type RestRoute } from './route';
import { routeTable } from './routes';

function queryStrings(query: Request['query']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) {
    const first = Array.isArray(v) ? v[0] : v;
    if (typeof first === 'string') out[k] = first;
  }
  return out;
}

/** Every path parameter names a resource: one whose %-escapes do not decode names none. */
function decodeParam(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new NotFoundError();
  }
}

/**
 * Whether a request whose body nobody parsed has at least one byte of it: a chunked body (what a
 * client sends for a POST without data and without Content-Length) may well be empty. Waits for
 * the first chunk only; the rest is discarded, as Node does with any body nobody reads.
 */
function carriesBytes(req: Request): Promise<boolean> {
  const length = req.headers['content-length'];
  if (length !== undefined) return Promise.resolve(Number(length) > 0);
  return new Promise((resolve) => {
    const settle = (value: boolean) => {
      req.off('data', onData).off('end', onEnd).off('error', onEnd);
      req.resume();
      resolve(value);
    };
    const onData = (chunk: Buffer) => chunk.length > 0 && settle(true);
    const onEnd = () => settle(false);
    req.on('data', onData).on('end', onEnd).on('error', onEnd);
  });
}

/**
 * Express handler for /api/v1: match → 404 / 405, else run the route's GraphQL operation in-process.
 * `routes` is the route table (tests pass their own).
 */
export function createRestHandler(
  schema: GraphQLSchema,
  operations: Map<string, DocumentNode>,
  services: Services,
  uploads: UploadLimits,
  routes: RestRoute<unknown>[] = routeTable,
) {
  const compiled: CompiledRoute[] = routes.map((r) => compileRoute(schema, operations, r));
  return async (req: Request, res: Response, _next: NextFunction) => {
    const matches = compiled.filter((c) => c.pattern.test(req.path));
    if (matches.length === 0) return sendError(res, HttpError.routeNotFound(), services.logger);
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const hit = matches.find((c) => c.route.method === method);
    if (!hit) {
      const allow = [...new Set(matches.flatMap((c) => (c.route.method === 'GET' ? ['GET', 'HEAD'] : [c.route.method])))];
      return sendError(res, HttpError.methodNotAllowed(allow), services.logger);
    }
    res.locals.route = `${req.baseUrl}${hit.route.path}`; // the pattern, for /metrics
    if (hit.route.noStore) res.set('Cache-Control', 'no-store');
    for (const [name, value] of Object.entries(hit.headers)) res.setHeader(name, value);
    try {
      const ctx = await buildContext(services, req.headers.authorization, requestMeta(req));
      // As Laravel's auth middleware does, authentication answers before any input is looked at.
      if (hit.route.auth !== 'guest' && !ctx.user) throw new UnauthenticatedError(ctx.authFailure);
      // A body the route cannot read is refused as such, not read as no body. `req.is` is null
      // without a body (that is fine) and false for a body of another type.
      if (req.is(hit.route.multipartFile ? 'multipart/form-data' : 'application/json') === false && (await carriesBytes(req)))
        throw HttpError.unsupportedMediaType();
      const values = present(hit.pattern.exec(req.path), 'the matched path').slice(1);
      const params = Object.fromEntries(hit.paramNames.map((name, i) => [name, decodeParam(values[i])]));
      // Raw until the route's coercer types it against the operation's variables.
      const body = (
        hit.route.multipartFile
          ? await readForm(req, res, hit.route.multipartFile, uploads)
          : req.body && typeof req.body === 'object' && !Array.isArray(req.body)
            ? req.body
            : {}
      ) as Record<string, RawValue>;
      const path = `${req.protocol}://${req.get('host')}${req.baseUrl}${req.path.replace(/\/$/, '')}`;
      const run = () => hit.run(ctx, { params, query: queryStrings(req.query), body }, { path });
      if (hit.idempotent && req.get(IDEMPOTENCY_HEADER) !== undefined) {
        const uploads = Object.values(body).filter((v) => v instanceof Upload);
        return await sendIdempotent(req, res, services, ctx, body, run, uploadsDigest(uploads));
      }
      const result = await run();
      if ('file' in result) return await sendDownload(res, await services.downloads.open(result.file));
      sendAnswer(res, { status: result.status, headers: {}, body: result.body });
    } catch (err) {
      if (res.headersSent) return void res.destroy(err as Error); // failed mid-stream: cut the download short
      sendError(res, err, services.logger);
    }
  };
}

/** GET /api/v1/downloads/{token}: the signed links that GraphQL's `Download` fields hand out. */
export function createDownloadHandler(services: Services) {
  return async (req: Request, res: Response) => {
    try {
      await sendDownload(res, await services.downloads.openToken(String(req.params.token)));
    } catch (err) {
      if (res.headersSent) return void res.destroy(err as Error);
      sendError(res, err, services.logger);
    }
  };
}
