// The last step of `npm run build`: records what was built in dist/build-info.json, which the
// gateway reports (src/platform/build-info.ts) and the operator commands take as the build's time
// (scripts/ensure-built.mjs). The version is package.json's; the commit is BUILD_COMMIT when set (the
// image's build argument: its build context has no .git), else the checkout's `git rev-parse HEAD`,
// with `-dirty` when tracked files differ from it, else `unknown`.
// Usage: node scripts/build-info.mjs [out-dir, default dist]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const out = path.resolve(root, process.argv[2] ?? 'dist');

function checkoutCommit() {
  // Only this project's own checkout: a build directory inside some other repository is not it.
  if (!existsSync(path.join(root, '.git'))) return undefined;
  try {
    // No optional locks: `git status` would otherwise refresh the index of a checkout someone is using.
    const env = { ...process.env, GIT_OPTIONAL_LOCKS: '0' };
    const git = (...args) => execFileSync('git', args, { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const head = git('rev-parse', 'HEAD');
    return git('status', '--porcelain', '--untracked-files=no') ? `${head}-dirty` : head;
  } catch {
    return undefined; // no git on this machine
  }
}

const given = process.env.BUILD_COMMIT?.trim();
// A label value in /metrics and a field in logs: a commit id, a tag or `unknown`, nothing else.
if (given && !/^[\w.-]{1,64}$/.test(given)) {
  console.error(`BUILD_COMMIT must be a commit id or tag (letters, digits, . _ -; at most 64), got ${JSON.stringify(given)}`);
  process.exit(1);
}
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const info = { version, commit: given || checkoutCommit() || 'unknown' };
writeFileSync(path.join(out, 'build-info.json'), `${JSON.stringify(info)}\n`);
