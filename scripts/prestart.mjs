// Runs before `npm start`. Development: install what is missing and build (the README's first
// command works on a fresh clone). Production: build nothing — the host runs the dist/ that
// `npm run build` made where the dev tools are (a checkout's build step, the image's build stage).
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (process.env.NODE_ENV !== 'production') execSync('npm run build', { stdio: 'inherit' });
else if (!existsSync('dist/src/main.js')) {
  console.error('dist/src/main.js is missing: run npm run build first (it needs the dev dependencies), then start again');
  process.exit(1);
}
