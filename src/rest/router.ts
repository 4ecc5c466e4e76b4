import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { NextFunction, Request, Response } from 'express';
import { buildContext, requestMeta } from '../context';
import { HttpError, UnauthenticatedError } from '../errors';
import type { Services } from '../services';
import { IDEMPOTENCY_HEADER, sendIdempotent } from './idempotency';
import type { UploadLimits } from '../uploads';
import { readMultipart } from './multipart';
import { sendDownload, sendError, sendJson } from './respond';
import { compileRoute, type CompiledRoute } from './route';
import { routeTable } from './routes';

function queryStrings(query: Request['query']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) {
    const first = Array.isArray(v) ? v[0] : v;
    if (typeof first === 'string') out[k] = first;
  }
  return out;
}

/** Express handler for /api/v1: match → 404 / 405, else run the route's GraphQL operation in-process. */
export function createRestHandler(schema: GraphQLSchema, operations: Map<string, DocumentNode>, services: Services, uploads: UploadLimits) {
  const compiled: CompiledRoute[] = routeTable.map((r) => compileRoute(schema, operations, r));
  return async (req: Request, res: Response, _next: NextFunction) => {
    const matches = compiled.filter((c) => c.pattern.test(req.path));
    if (matches.length === 0) return sendError(res, HttpError.routeNotFound(), services.logger);
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const hit = matches.find((c) => c.route.method === method);
    if (!hit) {
      const allow = [...new Set(matches.flatMap((c) => (c.route.method === 'GET' ? ['GET', 'HEAD'] : [c.route.method])))];
      return sendError(res, HttpError.methodNotAllowed(allow), services.logger);
    }
    res.locals.route = `${hit.route.method} ${hit.route.path}`;
    if (hit.route.noStore) res.set('Cache-Control', 'no-store');
    const values = hit.pattern.exec(req.path)!.slice(1);
    const params = Object.fromEntries(hit.paramNames.map((name, i) => [name, decodeURIComponent(values[i])]));
    try {
      const ctx = await buildContext(services, req.headers.authorization, requestMeta(req));
      // As Laravel's auth middleware does, authentication answers before any input is looked at.
      if (hit.route.auth !== 'guest' && !ctx.user) throw new UnauthenticatedError();
      const body = hit.route.multipartFile
        ? await readMultipart(req, res, hit.route.multipartFile, uploads)
        : req.body && typeof req.body === 'object' && !Array.isArray(req.body)
          ? (req.body as Record<string, unknown>)
          : {};
      const path = `${req.protocol}://${req.get('host')}${req.baseUrl}${req.path.replace(/\/$/, '')}`;
      const run = () => hit.run(ctx, { params, query: queryStrings(req.query), body }, { path });
      if (hit.idempotent && req.get(IDEMPOTENCY_HEADER) !== undefined) return await sendIdempotent(req, res, services, ctx.user, body, run);
      const result = await run();
      if ('file' in result) return await sendDownload(res, await services.downloads.open(result.file));
      sendJson(res, result.status, result.body);
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
