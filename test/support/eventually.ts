import { budget } from './time-budget';

/** Waits for a condition (checked again on every turn of the event loop); fails after `boundMs` (scaled to the machine's load). */
export async function eventually(check: () => Promise<boolean>, boundMs = budget(10_000)): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not reached within ${boundMs} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
