// Runs before the operator commands (migrate, seed, admin:create, audit:verify), which run the
// compiled dist/ with the production dependencies alone. Where production runs it never builds or
// installs; in development it builds only when dist/ is missing or older than its sources.
//
// Production: NODE_ENV=production (the container image), or an install without the build tools
// (`npm ci --omit=dev` next to a dist/ built elsewhere). dist/ must hold a complete build there; when
// it does not, this says so and stops rather than reach for the dev dependencies.
// Development (the dev dependencies installed, or no node_modules yet: a fresh clone): `npm run build`
// (which installs what is missing first) when dist/build-info.json, the build's last step, is missing
// or older than a file the build reads or installs from.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const stamp = 'dist/build-info.json';
const inputs = ['src', 'scripts', '.swcrc', 'package.json', 'package-lock.json', 'patches'];

/** The newest modification time under `entry` (a directory's own counts: a file removed from it). */
function newest(entry) {
  if (path.basename(entry) === 'node_modules' || !existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((max, name) => Math.max(max, newest(path.join(entry, name))), stat.mtimeMs);
}

const buildTools = existsSync('node_modules/@swc/cli/package.json');
const production = process.env.NODE_ENV === 'production' || (existsSync('node_modules') && !buildTools);
if (production) {
  if (!existsSync(stamp)) {
    console.error(
      'dist/ holds no complete build (dist/build-info.json is missing): run `npm run build` where the dev dependencies are installed, then this command again',
    );
    process.exit(1);
  }
} else if (!existsSync(stamp) || Math.max(...inputs.map(newest)) > statSync(stamp).mtimeMs) {
  execSync('npm run build', { stdio: 'inherit' });
}
