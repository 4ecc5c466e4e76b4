import cors from 'cors';
import type { Express, NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { Config } from '../platform/config';
import type { Metrics } from './metrics';
import { requestIdFor, requestIdScope } from './request-id';

/** Response headers a browser client may read cross-origin (what each means: docs/api.md). */
const CORS_EXPOSED_HEADERS = [
  'X-Request-Id',
  'Idempotent-Replayed',
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'WWW-Authenticate',
  'Content-Disposition',
];

/**
 * What every request goes through before either face, health or metrics: the app's settings, security
 * headers, the request id (and pino-http's request line), CORS and the request timer.
 */
export function useSharedMiddleware(
  app: Express,
  config: Pick<Config, 'trustProxy' | 'corsOrigins'>,
  logger: Logger,
  metrics: Pick<Metrics, 'middleware'>,
): void {
  app.disable('x-powered-by');
  // No ETags: every answer is per-user data built per request (GraphQL's no-store, REST's envelopes),
  // which no contract or client revalidates; Express would hash each body (sha1) to make one.
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);
  // CSP is off here: this serves JSON, plus Apollo Sandbox and the API reference page, which load their
  // own scripts. /graphiql sets its own strict one (src/graphql/graphiql.ts).
  // HSTS only on requests that came over TLS (directly, or per X-Forwarded-Proto from a proxy that
  // TRUST_PROXY trusts): on plain HTTP it means nothing (RFC 6797 §7.2) and misleads.
  app.use(helmet({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false, strictTransportSecurity: false }));
  const hsts = helmet.strictTransportSecurity();
  app.use((req, res, next) => (req.secure ? hsts(req, res, next) : next()));
  // pino-http writes its one line per request at info (5xx included); below that level it would only
  // build a child logger per request (serializing and redacting the request) that nothing writes to.
  // The request id, which it would assign, is assigned alike either way.
  app.use(
    logger.isLevelEnabled('info')
      ? pinoHttp({
          logger,
          genReqId: requestIdFor,
          autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' || req.url === '/metrics' },
        })
      : (req: Request, res: Response, next: NextFunction) => ((req.id = requestIdFor(req, res)), next()),
  );
  app.use(requestIdScope);
  // CORS for the dashboard's origins only (none by default). Bearer tokens, not cookies: no credentials.
  // Mounted with an empty list too, so every preflight is answered (204) here rather than reaching
  // Apollo's CSRF check (400) or the REST router (405); an origin not listed gets no Allow-Origin.
  app.use(cors({ origin: config.corsOrigins, credentials: false, maxAge: 600, exposedHeaders: CORS_EXPOSED_HEADERS }));
  app.use(metrics.middleware);
}
