import path from 'node:path';
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import express, { type Router } from 'express';
import helmet from 'helmet';

/**
 * GraphiQL at /graphiql from the installed npm packages (graphiql 4's UMD build on React 18's), for
 * machines that cannot reach Apollo's CDN. Only these files are served; the page's own script is a
 * file too, so the page runs under a CSP that allows nothing but this origin.
 */
const packageDir = (name: string) => path.dirname(require.resolve(`${name}/package.json`));

const ASSETS: Record<string, string> = {
  'react.js': path.join(packageDir('react'), 'umd', 'react.production.min.js'),
  'react-dom.js': path.join(packageDir('react-dom'), 'umd', 'react-dom.production.min.js'),
  'graphiql.js': path.join(packageDir('graphiql'), 'dist', 'index.umd.js'),
  'graphiql.css': path.join(packageDir('graphiql'), 'dist', 'style.css'),
};

/** The bearer token goes in GraphiQL's headers editor; headers are not persisted in localStorage. */
export const GRAPHIQL_DEFAULT_HEADERS = '{"Authorization": "Bearer "}';

const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>GraphiQL · Investment platform</title>
<link rel="icon" href="/graphiql/icon.svg">
<link rel="stylesheet" href="/graphiql/graphiql.css">
<link rel="stylesheet" href="/graphiql/page.css"></head>
<body><div id="graphiql">Loading GraphiQL…</div>
<script src="/graphiql/react.js"></script>
<script src="/graphiql/react-dom.js"></script>
<script src="/graphiql/graphiql.js"></script>
<script src="/graphiql/init.js"></script>
</body></html>`;

const PAGE_CSS = 'html, body, #graphiql { height: 100%; margin: 0; }';

const INIT = `'use strict';
ReactDOM.createRoot(document.getElementById('graphiql')).render(
  React.createElement(GraphiQL, {
    // Subscriptions over WebSocket on the same path; the headers editor's Authorization goes in connection_init.
    fetcher: GraphiQL.createFetcher({ url: '/graphql', subscriptionUrl: (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/graphql' }),
    defaultHeaders: ${JSON.stringify(GRAPHIQL_DEFAULT_HEADERS)},
    isHeadersEditorEnabled: true,
    shouldPersistHeaders: false,
    defaultEditorToolsVisibility: 'headers',
  }),
);
`;

const ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#e10098"/></svg>';

export function graphiqlRouter(): Router {
  const router = express.Router();
  router.use(
    helmet.contentSecurityPolicy({
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // GraphiQL and CodeMirror set element styles at run time; its fonts and icons are data: URLs.
        styleSrc: ["'self'", "'unsafe-inline'"],
        fontSrc: ["'self'", 'data:'],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'none'"],
        frameAncestors: ["'none'"],
      },
    }),
  );
  router.get('/', (_req, res) => void res.type('html').send(PAGE));
  router.get('/init.js', (_req, res) => void res.type('js').send(INIT));
  router.get('/page.css', (_req, res) => void res.type('css').send(PAGE_CSS));
  // The page names its own icon: otherwise the browser asks for /favicon.ico, a 404 in its console.
  router.get('/icon.svg', (_req, res) => void res.type('svg').send(ICON));
  router.get('/:file', (req, res, next) => (Object.hasOwn(ASSETS, req.params.file) ? res.sendFile(ASSETS[req.params.file], { maxAge: '1d' }) : next()));
  return router;
}

/** What Apollo's landing page shows when its CDN is out of reach: where the offline explorer is. */
const OFFLINE_NOTE =
  '<p>Apollo Sandbox loads from Apollo&rsquo;s CDN, which this browser cannot reach. <a href="/graphiql">GraphiQL</a> is served by this gateway itself and works offline.</p>';

/**
 * Apollo's landing page (Sandbox outside production, the production page in it) with its offline
 * fallback ("… cannot be loaded; it appears that you might be offline.") pointing to /graphiql. The
 * embed's empty full-page box would cover the link: while it is empty (nothing loaded) it lets
 * clicks through (a rule added to the page's own nonce'd style block, which its CSP allows).
 */
export function withGraphiqlFallback<T extends BaseContext>(landingPage: ApolloServerPlugin<T>): ApolloServerPlugin<T> {
  return {
    async serverWillStart(service) {
      const listener = await landingPage.serverWillStart?.(service);
      const render = listener?.renderLandingPage;
      if (!render) return listener;
      return {
        ...listener,
        async renderLandingPage() {
          const page = await render();
          const html = typeof page.html === 'string' ? page.html : await page.html();
          return {
            html: html
              .replace(/<p>[^<]*cannot be loaded[^<]*<\/p>/g, OFFLINE_NOTE)
              .replace(/(#embeddable(?:Sandbox|Explorer)) \{/g, '$1:empty { pointer-events: none; }\n  $1 {'),
          };
        },
      };
    },
  };
}
