import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * The id of the request being served. Every log line written while serving it — through the
 * request's own logger or through a service's — carries it as `reqId`.
 */
export const requestScope = new AsyncLocalStorage<string>();

export interface LoggerOptions {
  /** `pretty` (pino-pretty, for people) or `json`; unset → pretty in development on a terminal. */
  format?: 'json' | 'pretty';
  env?: string;
  /** Where JSON lines go (tests capture them); stdout by default. */
  destination?: DestinationStream;
}

const REDACTED = '[redacted]';

/**
 * Fields that grant access, whatever logs them: credentials in headers and bodies, and the request
 * URL (pino-http's `req.url`), which is cleaned rather than dropped (see redactUrl); its parsed
 * copies (`req.query`, `req.params`: a download link's token is a path parameter) are dropped whole.
 */
const REDACT_PATHS = [
  'req.url',
  'req.query',
  'req.params',
  'req.headers.authorization',
  'req.headers.cookie',
  '*.password',
  '*.token',
  '*.accessToken',
  '*.access_token',
  '*.refreshToken',
  '*.refresh_token',
];

/**
 * A URL with what grants access cut out: a download link's token (a live credential for its
 * lifetime: /api/v1/downloads/<token>) and token-like query parameters. The route stays readable.
 */
export function redactUrl(url: string): string {
  return url
    .replace(/(\/downloads\/)[^/?#]+/g, `$1${REDACTED}`)
    .replace(/([?&](?:token|access_token|refresh_token|code|signature|sig)=)[^&#]*/gi, `$1${REDACTED}`);
}

/** Structured JSON logs on stdout (one line per event), with secrets redacted. */
export function createLogger(level: string, options: LoggerOptions = {}): Logger {
  const pretty = options.format ? options.format === 'pretty' : options.env === 'development' && process.stdout.isTTY === true;
  const settings: pino.LoggerOptions = {
    level,
    base: { service: 'investment-gateway' },
    timestamp: pino.stdTimeFunctions.isoTime,
    // The path may hold a Symbol (pino's wildcard matches), which join() cannot convert: compare its parts.
    redact: {
      paths: REDACT_PATHS,
      censor: (value, path) => (path[0] === 'req' && path[1] === 'url' && typeof value === 'string' ? redactUrl(value) : REDACTED),
    },
    mixin: () => {
      const reqId = requestScope.getStore();
      return reqId ? { reqId } : {};
    },
  };
  if (pretty && !options.destination) {
    return pino({ ...settings, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service' } } });
  }
  return pino(settings, options.destination);
}
