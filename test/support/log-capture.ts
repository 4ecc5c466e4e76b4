import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { createLogger } from '../../src/platform/logger';

export type LogLine = Record<string, unknown> & { level: number; msg?: string; reqId?: string };

/** A logger with the gateway's own settings whose JSON lines the test reads back. */
export function captureLogger(level = 'debug'): { logger: Logger; lines: () => LogLine[]; text: () => string } {
  const raw: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      raw.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return {
    logger: createLogger(level, { format: 'json', destination }),
    lines: () => raw.map((l) => JSON.parse(l) as LogLine),
    text: () => raw.join('\n'),
  };
}
