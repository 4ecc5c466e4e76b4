/**
 * `npm run check:upgrade` (scripts/check-upgrade.ts) is what proves a release's migrations are an
 * expand. CI runs it as it is; here it must fail when a migration renames what the previous release
 * reads, and it refuses bad input with one line.
 */
import { execFile } from 'node:child_process';
import { fromRoot } from '../src/platform/paths';
import { budget } from './support/time-budget';

function checkUpgrade(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-r', fromRoot('scripts/ts-register.cjs'), fromRoot('scripts/check-upgrade.ts'), ...args],
      { cwd: fromRoot(), env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
  });
}

it('refuses a database it cannot reach with one line and exit 2', async () => {
  const { code, out } = await checkUpgrade(['--database-url', 'postgresql://nobody@127.0.0.1:1/none']);
  expect(code).toBe(2);
  expect(out.trim().split('\n').at(-1)).toMatch(/^check:upgrade: cannot reach PostgreSQL at postgresql:\/\/nobody@127\.0\.0\.1:1\/none: /);
});

// Several gateways on one database: PostgreSQL only (the convention of test/cluster.test.ts).
const serverUrl = process.env.TEST_DATABASE_URL;
if (serverUrl) {
  it(
    'fails when a migration renames a column the previous release reads',
    async () => {
      const { code, out } = await checkUpgrade([
        '--database-url',
        serverUrl,
        '--extra-migration',
        fromRoot('test/fixtures/renames-what-the-previous-release-reads.sql'),
      ]);
      // The verdict line, and the end of the output should there be none (the check's own failure).
      const verdict = out.match(/check:upgrade: (FAILED|the rolling upgrade)[^\n]*/)?.[0] ?? out.slice(-3000);
      expect({ code, verdict }).toEqual({
        code: 1,
        verdict: expect.stringMatching(/^check:upgrade: FAILED/),
      });
      expect(out).toMatch(/answered 5\d\d/);
    },
    budget(15 * 60_000),
  );
}
