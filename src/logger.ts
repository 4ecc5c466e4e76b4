import pino, { type Logger } from 'pino';

/** Structured JSON logs on stdout (one line per event), with secrets redacted. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'investment-gateway' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.refreshToken', '*.refresh_token'], censor: '[redacted]' },
  });
}
