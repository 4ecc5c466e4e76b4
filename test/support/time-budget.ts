import os from 'node:os';

/**
 * Every timeout in the suite is a guard against a hang, never a speed check, so none may fail because
 * the machine is busy (docs/testing.md, "Timeouts"). Each is written as its value on an idle machine
 * with room to spare, and scaled here by how loaded the machine is when the test file starts: the
 * 1-minute load average per core (at least 1), or TEST_TIME_SCALE when set (a slow CI runner).
 */
export function timeScale(): number {
  const fixed = Number(process.env.TEST_TIME_SCALE);
  if (fixed > 0) return fixed;
  return Math.max(1, os.loadavg()[0] / os.cpus().length);
}

/** `ms` (the idle machine's bound) scaled to the machine's load now. */
export function budget(ms: number): number {
  return Math.ceil(ms * timeScale());
}

/** The default bound of a test or hook that names none. */
export const DEFAULT_TIMEOUT_MS = 120_000;
