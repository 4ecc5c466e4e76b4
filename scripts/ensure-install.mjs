// Runs before `npm start` and `npm test`, so both work on a fresh clone: installs the locked
// dependencies when node_modules is missing or older than package-lock.json (npm ci also runs the
// postinstall step that generates the Prisma client), and regenerates the client if it is missing.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const installed = 'node_modules/.package-lock.json';
if (!existsSync(installed) || statSync('package-lock.json').mtimeMs > statSync(installed).mtimeMs) {
  console.log('> installing dependencies (npm ci)');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
} else if (!existsSync('src/generated/prisma/client.ts')) {
  execSync('node scripts/prisma-generate.mjs', { stdio: 'inherit' });
}
