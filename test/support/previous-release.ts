import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fromRoot } from '../../src/platform/paths';

/**
 * The release before distributions had a cadence and a scheduled date: the commit the
 * distribution_cadence migration must keep serving correctly while both run side by side.
 */
export const BEFORE_CADENCE = '9f6741bb70e64fd0094831e107b8dc38aa369321';

/**
 * Checks `commit` out into a fresh folder and builds it as its own `npm run build` does, on this
 * checkout's installed packages (hard links: the lock file is the same) and with its own Prisma
 * client generated from its own schema. Returns the folder; `remove()` deletes it.
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
 * Starts a built release's gateway with `env` (its log at info or finer: the port is read from it)
 * and waits until /readyz answers 200, for at most `withinMs`. A start that fails stops the process.
 */
export async function startRelease(dir: string, env: Record<string, string>, withinMs: number): Promise<ReleaseProcess> {
  const deadline = Date.now() + withinMs;
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const log = () => text;
  child.stdout?.on('data', (d) => (text += d));
  child.stderr?.on('data', (d) => (text += d));
  child.on('error', (err) => (text += `\nspawn error: ${err.message}`));
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
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
    return { child, url, log, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
