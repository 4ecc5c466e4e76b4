import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readBuildInfo } from '../../src/platform/build-info';
import { fromRoot } from '../../src/platform/paths';

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));
const tempDir = () => {
  roots.push(mkdtempSync(path.join(os.tmpdir(), 'build-info-')));
  return roots.at(-1)!;
};

/** A project root with package.json 9.8.7, src/ and dist/src/, and, when given, a dist/build-info.json. */
function made(recorded?: object): string {
  const root = tempDir();
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ version: '9.8.7' }));
  mkdirSync(path.join(root, 'dist', 'src', 'platform'), { recursive: true });
  mkdirSync(path.join(root, 'src', 'platform'), { recursive: true });
  if (recorded) writeFileSync(path.join(root, 'dist', 'build-info.json'), JSON.stringify(recorded));
  return root;
}

describe('the running build (src/platform/build-info.ts)', () => {
  it('compiled: the version and commit its build recorded in dist/build-info.json', () => {
    const root = made({ version: '1.2.3', commit: 'abc1234' });
    expect(readBuildInfo(path.join(root, 'dist', 'src', 'platform'), root)).toEqual({ version: '1.2.3', commit: 'abc1234', nodeVersion: process.version });
  });

  it("compiled without the build's last step, or from the sources: package.json's version, commit unknown", () => {
    const bare = made();
    expect(readBuildInfo(path.join(bare, 'dist', 'src', 'platform'), bare)).toMatchObject({ version: '9.8.7', commit: 'unknown' });
    // A dist/ built earlier says nothing about the sources running now.
    const built = made({ version: '1.2.3', commit: 'abc1234' });
    expect(readBuildInfo(path.join(built, 'src', 'platform'), built)).toMatchObject({ version: '9.8.7', commit: 'unknown' });
  });
});

describe('what the build records (scripts/build-info.mjs)', () => {
  const record = (env: Record<string, string>) => {
    const out = tempDir();
    const run = spawnSync(process.execPath, [fromRoot('scripts/build-info.mjs'), out], { env: { ...process.env, ...env }, encoding: 'utf8' });
    const file = path.join(out, 'build-info.json');
    return { status: run.status, stderr: run.stderr, info: run.status === 0 ? (JSON.parse(readFileSync(file, 'utf8')) as unknown) : undefined };
  };
  const { version } = JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')) as { version: string };

  it("package.json's version and BUILD_COMMIT (the image's build argument)", () => {
    expect(record({ BUILD_COMMIT: 'v0.1.0-rc.1' }).info).toEqual({ version, commit: 'v0.1.0-rc.1' });
  });

  it('without BUILD_COMMIT, the checkout it was built from (-dirty when tracked files differ)', () => {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: fromRoot(), encoding: 'utf8' }).trim();
    expect((record({ BUILD_COMMIT: '' }).info as { commit: string }).commit).toMatch(new RegExp(`^${head}(-dirty)?$`));
  });

  it('refuses a BUILD_COMMIT that is no commit id or tag, naming it', () => {
    const run = record({ BUILD_COMMIT: 'abc 123' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('BUILD_COMMIT must be a commit id or tag');
  });
});
