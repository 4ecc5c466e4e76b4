import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fromRoot } from '../../src/platform/paths';
import { budget, timeScale } from '../support/time-budget';

/** Every .ts file under test/. */
function testFiles(dir = fromRoot('test')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}

describe('timeouts in the suite (docs/testing.md "Timeouts")', () => {
  it('no test or hook is given a fixed number of milliseconds: each goes through budget()', () => {
    // A number literal as the last argument of it/test/beforeAll/afterAll/…, after the callback or on a line of its own.
    const fixed = /\}\s*,\s*[\d_]+\s*\)|\n\s*[\d_]{4,}\s*,?\s*\n\s*\)/;
    const offenders = testFiles().filter((f) => fixed.test(readFileSync(f, 'utf8')));
    expect(offenders.map((f) => path.relative(fromRoot(), f))).toEqual([]);
    expect(readFileSync(fromRoot('jest.config.js'), 'utf8')).not.toMatch(/testTimeout/);
  });

  it('budget() scales the idle bound by TEST_TIME_SCALE when set, else by the load per core, never below the bound', () => {
    const saved = process.env.TEST_TIME_SCALE;
    try {
      process.env.TEST_TIME_SCALE = '3';
      expect(budget(1000)).toBe(3000);
      delete process.env.TEST_TIME_SCALE;
      expect(timeScale()).toBeGreaterThanOrEqual(1);
      expect(budget(1000)).toBeGreaterThanOrEqual(1000);
    } finally {
      if (saved === undefined) delete process.env.TEST_TIME_SCALE;
      else process.env.TEST_TIME_SCALE = saved;
    }
  });
});
