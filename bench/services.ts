/**
 * The gateway's data work alone, as a ceiling for the lists' req/s: the same services the gateway runs for
 * `GET /api/v1/distributions` (`auth.authenticate` — the token and the session statement — then
 * `distributions.list` — the page and the count through Prisma, the pg adapter and its prepared
 * statements, on a pool opened by `openDatabase` exactly as `main` opens it), behind bare `node:http`:
 * no Express, no GraphQL, no REST shaper, no logging. Whatever a transport costs comes on top, so
 * its req/s bounds what any REST or GraphQL layer over these services can reach on this machine.
 *
 * Forked by bench/run.ts (DATABASE_URL and JWT_SECRET in the environment): listens on 127.0.0.1 at a
 * free port, reports `{ port }` over IPC, answers `'queries'` with the SQL statements sent so far,
 * and exits when the parent disconnects or on SIGTERM. Answers `{ data: [items], meta: { total } }`.
 */
import http from 'node:http';
import { loadConfig } from '../src/platform/config';
import { databaseTimeouts, openDatabase } from '../src/db/database';
import { createLogger } from '../src/platform/logger';
import { createServices } from '../src/services';
import { serveForked } from './forked-server';

const ROUTE = '/api/v1/distributions';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, { format: config.logFormat, env: config.env });
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    poolSize: config.dbPoolSize,
    timeouts: databaseTimeouts(config),
    logger,
  });
  const services = createServices(db, config, logger);
  const answer = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (req.method !== 'GET' || req.url !== ROUTE || !token) return answer(res, 404, { success: false });
    services.auth
      .authenticate(token)
      .then(async (user) => {
        if (!user) return answer(res, 401, { success: false });
        const page = await services.distributions.list(user, null, 1, 15);
        answer(res, 200, { success: true, data: page.items, meta: { total: page.pageInfo.total } });
      })
      .catch((err: unknown) => {
        console.error('[services]', err);
        answer(res, 500, { success: false });
      });
  });
  serveForked(server, db.queryCount, db.close);
}

main().catch((err: unknown) => {
  console.error('[services]', err);
  process.exit(1);
});
