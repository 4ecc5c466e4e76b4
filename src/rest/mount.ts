import type { IRouter, RequestHandler } from 'express';
import type { DocumentNode, GraphQLSchema } from 'graphql';
// The package's main module also loads its 1 MB browser bundle; this one only says where the files are.
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path';
import { jsonBody } from '../http/json-body';
import type { UploadLimits } from '../http/multipart';
import type { Services } from '../services';
import { buildOpenApi } from './openapi';
import { createDownloadHandler, createRestHandler } from './router';
import { routeTable } from './routes';

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Investment platform REST API</title>
<link rel="stylesheet" href="/api/v1/docs/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/api/v1/docs/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/api/v1/openapi.json', dom_id: '#swagger-ui', deepLinking: true });</script>
</body></html>`;

/** The only swagger-ui-dist files DOCS_PAGE loads; nothing else of the package is served. */
const DOCS_ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js']);

export interface RestMount {
  services: Services;
  /** Answers 503 until the gateway is ready. */
  whenReady: RequestHandler;
  uploads: UploadLimits;
  /** The JSON body limit of /api/v1. */
  bodyLimit: string;
}

/** /api/v1: the OpenAPI document and its reference page, signed downloads, and the route table's routes. */
export function mountRest(router: IRouter, schema: GraphQLSchema, operations: Map<string, DocumentNode>, mount: RestMount): void {
  const { services, whenReady } = mount;
  const openapi = buildOpenApi(schema, operations, routeTable);
  router.get('/api/v1/openapi.json', (_req, res) => void res.json(openapi));
  // Interactive reference: Swagger UI from the installed swagger-ui-dist package, no CDN.
  router.get('/api/v1/docs', (_req, res) => void res.type('html').send(DOCS_PAGE));
  router.get('/api/v1/docs/:file', (req, res, next) =>
    DOCS_ASSETS.has(req.params.file) ? res.sendFile(req.params.file, { root: getAbsoluteFSPath() }) : next(),
  );
  router.get('/api/v1/downloads/:token', whenReady, createDownloadHandler(services));
  router.use('/api/v1', whenReady, jsonBody(mount.bodyLimit), createRestHandler(schema, operations, services, mount.uploads));
}
