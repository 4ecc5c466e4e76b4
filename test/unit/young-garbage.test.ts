import { setFlagsFromString, getHeapSpaceStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../../src/generated/prisma/client';

/**
 * What a request allocates dies young (docs/benchmarks.md, "Garbage that dies young"). Prisma's
 * PrismaPromise built an object literal with a getter per call (`get spec()`), and V8 keeps such an
 * object's accessor closure reachable from the old generation, so a scavenge could not free what the
 * closure saw: every Prisma call's arguments were promoted and filled the old generation (a
 * mark-compact every ~0.4 s under the list load). patches/ replaces the literal; this test fails
 * without the patch (old space grew by the whole payload, 1.6–1.9 MB).
 *
 * The test drops 100 payloads of 16 KB after use, runs three young-generation collections, and
 * checks that the old generation did not take them in.
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;

const PAYLOADS = 100;
const payload = (i: number) => new Array<number>(2000).fill(i + 0.5);
/** A fifth of what the payloads weigh: room for what the runtime allocates meanwhile. */
const BOUND = (PAYLOADS * 2000 * 8) / 5;

function oldSpaceUsed(): number {
  return getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!.space_used_size;
}

async function oneRound(run: (i: number) => unknown): Promise<number> {
  gc();
  gc();
  const before = oldSpaceUsed();
  for (let i = 0; i < PAYLOADS; i++) await run(i);
  for (let i = 0; i < 3; i++) gc({ type: 'minor' });
  return oldSpaceUsed() - before;
}

/**
 * The least growth of three rounds: what the runtime promotes of its own now and then (a round of
 * 115–170 kB, once in a few runs over 320 kB) only adds, while payloads a closure keeps promote in
 * every round (1.6–1.9 MB).
 */
async function oldSpaceGrowth(run: (i: number) => unknown): Promise<number> {
  const rounds: number[] = [];
  for (let r = 0; r < 3; r++) rounds.push(await oneRound(run));
  return Math.min(...rounds);
}

test("a Prisma call's arguments do not outlive the call into the old generation", async () => {
  // A PrismaPromise runs only when awaited: these never connect.
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: 'postgresql://127.0.0.1:1/none' }) });
  const growth = await oldSpaceGrowth((i) => void prisma.$queryRawUnsafe('SELECT 1', payload(i)));
  expect(growth).toBeLessThan(BOUND);
});
