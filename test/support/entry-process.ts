import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fromRoot } from '../../src/paths';

export type LogLine = Record<string, unknown>;

/**
 * Starts the real entry point (src/main.ts, TypeScript run directly) in a child process and reads
 * its JSON log lines from stdout.
 */
export function startEntryProcess(env: Record<string, string>) {
  const child = spawn(process.execPath, ['-r', fromRoot('test/support/ts-register.js'), fromRoot('src/main.ts')], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', NODE_ENV: 'development', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: LogLine[] = [];
  const waiters: Array<{ test: (l: LogLine) => boolean; resolve: (l: LogLine) => void }> = [];
  createInterface({ input: child.stdout! }).on('line', (text) => {
    if (!text.startsWith('{')) return;
    const line = JSON.parse(text) as LogLine;
    lines.push(line);
    for (const w of waiters) if (w.test(line)) w.resolve(line);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    /** Resolves with the first log line (already seen or still to come) that passes `test`. */
    logged: (test: (l: LogLine) => boolean) =>
      new Promise<LogLine>((resolve) => {
        const seen = lines.find(test);
        if (seen) resolve(seen);
        else waiters.push({ test, resolve });
      }),
  };
}
