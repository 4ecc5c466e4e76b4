import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fromRoot } from '../src/platform/paths';

/**
 * What the benchmarks read of a server process: its CPU time and memory (Linux /proc), and the node
 * flags it is started with in production.
 */

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** User + system CPU time of a process so far, in ms. */
export async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

export async function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
}

/**
 * The node flags of the production start: package.json's `start` script, which the Dockerfile's CMD
 * repeats (scripts/check-dockerfile.mjs checks that), so a server is measured as it runs there.
 */
export async function productionNodeFlags(): Promise<string[]> {
  const { scripts } = JSON.parse(await readFile(fromRoot('package.json'), 'utf8')) as { scripts: { start: string } };
  const command = /\bnode((?: --\S+)*) dist\/src\/main\.js$/.exec(scripts.start);
  if (!command) throw new Error(`package.json's start script does not end in "node [--flag…] dist/src/main.js": ${scripts.start}`);
  return command[1].split(' ').filter(Boolean);
}
