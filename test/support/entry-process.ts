import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { Client } from 'pg';
import { fromRoot } from '../../src/platform/paths';
import { TEMPLATE_INFO_ENV, TEST_ROLES, asRole, withDatabase, type TemplateInfo } from './template';

export type LogLine = Record<string, unknown>;

/**
 * The real entry point in a child process, its JSON log parsed: src/main.ts transpiled on the fly
 * (`nodeArgs` before it, e.g. `--expose-gc` and a preloaded probe), or `command` (e.g. `npm start`)
 * run from the checkout's root. `ipc` opens an IPC channel.
 */
export function startEntry(
  env: Record<string, string>,
  { nodeArgs = [], ipc = false, command }: { nodeArgs?: string[]; ipc?: boolean; command?: string[] } = {},
) {
  const [file, ...args] = command ?? [process.execPath, ...nodeArgs, '-r', fromRoot('scripts/ts-register.cjs'), fromRoot('src/main.ts')];
  const child = spawn(file, args, {
    cwd: fromRoot(),
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe', ipc ? 'ipc' : 'ignore'],
  }) as ChildProcessByStdio<null, Readable, Readable>;
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

/**
 * The database for a child gateway: on a PostgreSQL run a copy of the test template named after
 * `label` (requests then really run concurrently: PGlite answers them one at a time in the gateway's
 * own thread, and only one process can open it), else the embedded database in `dataDir`.
 */
export async function childDatabase(dataDir: string, label: string): Promise<{ env: Record<string, string>; url?: string; drop: () => Promise<void> }> {
  const info = JSON.parse(process.env[TEMPLATE_INFO_ENV] ?? 'null') as TemplateInfo | null;
  if (info?.kind !== 'postgres') return { env: { DATA_DIR: dataDir }, drop: async () => undefined };
  const name = `gateway_${label}_${process.pid}`;
  const admin = async (sql: string) => {
    const c = new Client({ connectionString: info.serverUrl });
    await c.connect();
    await c.query(sql).finally(() => c.end());
  };
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name} TEMPLATE ${info.location} OWNER ${TEST_ROLES.owner}`);
  // Served as the runtime role, like every gateway of a PostgreSQL run (template.ts TEST_ROLES).
  const url = asRole(withDatabase(info.serverUrl!, name), TEST_ROLES.runtime);
  return { env: { DATABASE_URL: url }, url, drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
