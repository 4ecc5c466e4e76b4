import { createHash } from 'node:crypto';

/**
 * How steady the machine itself is: the same fixed work (a SHA-256 chain and the short-lived
 * strings a request makes) timed in CPU, not wall, time, several times in the bench's own process.
 * On an idle, uncontended machine identical work costs nearly the same CPU every time; inside a VM
 * whose host is busy it does not (shared caches, memory bandwidth, a sibling hyperthread), and the
 * load average inside the VM does not see it. Every figure the bench reports is CPU or latency on
 * this machine, so a wide spread here says the run cannot resolve differences of that size.
 */
export interface Steadiness {
  /** CPU ms of each repetition of the same work. */
  samplesMs: number[];
  minMs: number;
  medianMs: number;
  maxMs: number;
  /** max / min: 1 on a perfectly steady machine. */
  spread: number;
}

const REPETITIONS = 15;
/** Not counted: the first runs of the work are V8 compiling it. */
const WARM_UP_REPETITIONS = 3;
const HASHES_PER_REPETITION = 20_000;

function fixedWork(): number {
  let digest = Buffer.alloc(32);
  let length = 0;
  for (let i = 0; i < HASHES_PER_REPETITION; i++) {
    digest = createHash('sha256').update(digest).digest();
    length += JSON.stringify({ i, hex: digest.toString('hex') }).length;
  }
  return length;
}

export function probeSteadiness(): Steadiness {
  for (let i = 0; i < WARM_UP_REPETITIONS; i++) fixedWork();
  const samplesMs: number[] = [];
  for (let i = 0; i < REPETITIONS; i++) {
    const before = process.cpuUsage();
    fixedWork();
    const used = process.cpuUsage(before);
    samplesMs.push((used.user + used.system) / 1000);
  }
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const minMs = sorted[0];
  const maxMs = sorted[sorted.length - 1];
  return { samplesMs, minMs, medianMs: sorted[Math.floor(sorted.length / 2)], maxMs, spread: maxMs / minMs };
}

export const describeSteadiness = (s: Steadiness) =>
  `identical work took ${s.minMs.toFixed(0)}–${s.maxMs.toFixed(0)} ms CPU (median ${s.medianMs.toFixed(0)}, max/min ${s.spread.toFixed(2)}×)`;
