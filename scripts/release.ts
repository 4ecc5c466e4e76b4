import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fromRoot } from '../src/platform/paths';

/**
 * Previous releases as processes, for the checks that run one beside the working tree on one
 * database (test/previous-release.test.ts, `npm run check:upgrade`).
 */

/**
 * Checks `commit` out into a fresh folder and builds it as its own `npm run build` does, with its own
 * Prisma client generated from its own schema, on this checkout's installed packages (hard links;
 * a release whose dependencies differ in version from this checkout's would need an install of its
 * own). Returns the folder; `remove()` deletes it.
 */
export function buildRelease(commit: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), `gateway-release-${commit.slice(0, 7)}-`));
  const git = (...args: string[]) => execFileSync('git', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    git('clone', '--quiet', '--no-checkout', fromRoot(), dir);
    git('-C', dir, 'checkout', '--quiet', commit);
    execFileSync('cp', ['-al', fromRoot('node_modules'), path.join(dir, 'node_modules')]);
    // The release's own marker, so its scripts see an install as new as its lock file.
    const marker = path.join(dir, 'node_modules', '.package-lock.json');
    rmSync(marker);
    copyFileSync(fromRoot('node_modules', '.package-lock.json'), marker);
    const run = (file: string, ...args: string[]) => execFileSync(process.execPath, [file, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    run('scripts/prisma-generate.mjs');
    // Its build script without the pre-script (which would check the install): the same swc call.
    execFileSync('npm', ['run', 'build', '--ignore-scripts'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    const e = err as { stderr?: Buffer; message: string };
    throw new Error(`building ${commit} failed: ${e.stderr?.toString() || e.message}`, { cause: err });
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface ReleaseProcess {
  child: ChildProcess;
  /** The exit code, once the process has ended. */
  exited: Promise<number | null>;
  /** Base URL once it listens. */
  url: string;
  log: () => string;
  stop: () => Promise<void>;
}

/** The port in a gateway's "listening on" log line (JSON lines). */
function listeningPort(log: string): number {
  for (const line of log.split('\n')) {
    const entry = /^\{.*"port":(\d+).*"msg":"listening on /.exec(line);
    if (entry) return Number(entry[1]);
  }
  return 0;
}

/** Polls `probe` until it gives a value, the process exits, or the deadline passes. */
async function until<T>(probe: () => T | Promise<T>, child: ChildProcess, deadline: number, what: string, log: () => string): Promise<NonNullable<T>> {
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (child.exitCode !== null) throw new Error(`the release exited ${child.exitCode} before ${what}:\n${log()}`);
    if (Date.now() > deadline) throw new Error(`the release was not ${what} in time:\n${log()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Starts a release's gateway (`argv` in `dir`: a built release's dist/src/main.js by default) with
 * `env` (its log at info or finer: the port is read from it) and waits until /readyz answers 200,
 * for at most `withinMs`. A start that fails stops the process.
 */
export async function startRelease(dir: string, env: Record<string, string>, withinMs: number, argv = ['dist/src/main.js']): Promise<ReleaseProcess> {
  const deadline = Date.now() + withinMs;
  const child = spawn(process.execPath, argv, {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const log = () => text;
  child.stdout?.on('data', (d) => (text += d));
  child.stderr?.on('data', (d) => (text += d));
  child.on('error', (err) => (text += `\nspawn error: ${err.message}`));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    const port = await until(() => listeningPort(text), child, deadline, 'listening', log);
    const url = `http://127.0.0.1:${port}`;
    const ready = () =>
      fetch(`${url}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
    await until(ready, child, deadline, 'ready', log);
    return { child, exited, url, log, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
