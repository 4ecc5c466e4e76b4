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

/** Structured JSON logs on stdout (one line per event), with secrets redacted. */
export function createLogger(level: string, options: LoggerOptions = {}): Logger {
  const pretty = options.format ? options.format === 'pretty' : options.env === 'development' && process.stdout.isTTY === true;
  const settings: pino.LoggerOptions = {
    level,
    base: { service: 'investment-gateway' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.refreshToken', '*.refresh_token'], censor: '[redacted]' },
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
