import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';

/**
 * Debian's chromium, installed on first use (the README's `npm test` works on a fresh machine, CI's
 * or a newcomer's, without a separate step). Needs root or passwordless sudo, like any apt-get.
 */
export function ensureChromium(): string {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  const root = process.getuid?.() === 0;
  const run = (args: string[]) =>
    execFileSync(root ? args[0] : 'sudo', root ? args.slice(1) : ['-n', ...args], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  try {
    run(['apt-get', 'update']);
    run(['apt-get', 'install', '-y', '--no-install-recommends', 'chromium']);
  } catch (error) {
    throw new Error(`${CHROMIUM} is missing and could not be installed (apt-get install chromium needs root): ${(error as Error).message}`, { cause: error });
  }
  return CHROMIUM;
}
