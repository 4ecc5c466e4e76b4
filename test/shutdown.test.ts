import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { MIGRATIONS_DIR } from '../src/db/migrate';
import { fromRoot } from '../src/paths';

const migrationNames = () => readdirSync(MIGRATIONS_DIR, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

type LogLine = Record<string, unknown>;

/** Starts the real entry point (src/main.ts) in a child process on a fresh embedded database. */
function startServer(dataDir: string) {
  const child = spawn(process.execPath, ['-r', fromRoot('test/support/ts-register.js'), fromRoot('src/main.ts')], {
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, SEED_ON_START: 'false', LOG_LEVEL: 'info', NODE_ENV: 'development', DATABASE_URL: '' },
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
  /** Resolves with the first log line (already seen or still to come) that passes `test`. */
  const logged = (test: (l: LogLine) => boolean) =>
    new Promise<LogLine>((resolve) => {
      const seen = lines.find(test);
      if (seen) resolve(seen);
      else waiters.push({ test, resolve });
    });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, logged, exited };
}

describe('process lifecycle', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gateway-lifecycle-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('migrates a fresh embedded database, reports ready, and on SIGTERM drains, closes the database and exits 0', async () => {
    const server = startServer(dataDir);
    const { port } = await server.logged((l) => typeof l.port === 'number');
    await server.logged((l) => l.msg === 'ready');
    expect((await server.logged((l) => l.msg === 'migrations applied')).applied).toEqual(migrationNames());
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

    server.child.kill('SIGTERM');
    await server.logged((l) => l.msg === 'stopped');
    expect(await server.exited).toBe(0);
  });
});
