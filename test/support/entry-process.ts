import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fromRoot } from '../../src/paths';

export type LogLine = Record<string, unknown>;

/** The real entry point (src/main.ts, transpiled on the fly) in a child process, its JSON log parsed. */
export function startEntry(env: Record<string, string>) {
  const child = spawn(process.execPath, ['-r', fromRoot('test/support/ts-register.js'), fromRoot('src/main.ts')], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const waiters: Array<{ test: (l: LogLine) => boolean; resolve: (l: LogLine) => void }> = [];
  createInterface({ input: child.stdout }).on('line', (text) => {
    if (!text.startsWith('{')) return;
    const line = JSON.parse(text) as LogLine;
    lines.push(line);
    for (const w of waiters) if (w.test(line)) w.resolve(line);
  });
  // 'close', not 'exit': by then every line the process wrote has been read.
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    exited,
    /** Every JSON log line read so far. */
    lines,
    stderr: () => stderr,
    /** Resolves with the first log line (already seen or still to come) that passes `test`. */
    logged: (test: (l: LogLine) => boolean) =>
      new Promise<LogLine>((resolve, reject) => {
        const seen = lines.find(test);
        if (seen) return resolve(seen);
        waiters.push({ test, resolve });
        void exited.then((code) => reject(new Error(`exited (${code}) before the expected log line; stderr: ${stderr}`)));
      }),
  };
}
