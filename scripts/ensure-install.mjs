// Runs before every build (so before a development start, and before migrate, seed, admin:create and
// audit:verify when they build: scripts/ensure-built.mjs) and before test, so each works on a fresh
// clone: installs the locked dependencies when node_modules is missing, older than package-lock.json
// or a dependency patch, or lacks the build tools (npm ci also runs the postinstall step that
// generates the Prisma client), and regenerates the client if it is missing.
//
// Always with the dev dependencies: the compiler (SWC) is needed to build, and npm
// would leave them out when NODE_ENV=production (the README's production start). The container
// image builds in one stage and ships `npm ci --omit=dev` + dist/ in another (see Dockerfile).
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';

const installed = 'node_modules/.package-lock.json';
// The dependency patches (patches/*.patch, applied by the postinstall step) count as part of the lock.
const locks = [
  'package-lock.json',
  ...readdirSync('patches')
    .filter((f) => f.endsWith('.patch'))
    .map((f) => `patches/${f}`),
];
const stale = !existsSync(installed) || locks.some((f) => statSync(f).mtimeMs > statSync(installed).mtimeMs);
const buildTools = existsSync('node_modules/@swc/cli/package.json') && existsSync('node_modules/@swc/core/package.json');
if (stale || !buildTools) {
  console.log('> installing dependencies (npm ci --include=dev)');
  execSync('npm ci --include=dev --no-audit --no-fund', { stdio: 'inherit' });
} else if (!existsSync('src/generated/prisma/client.ts')) {
  execSync('node scripts/prisma-generate.mjs', { stdio: 'inherit' });
}
