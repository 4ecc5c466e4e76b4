import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fromRoot } from '../../src/platform/paths';

/**
 * scripts/ensure-built.mjs, which the operator commands' npm scripts run before `node dist/scripts/…`,
 * in a project directory of its own with an `npm` on PATH that only records that it was asked to build.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function project({ built, buildTools, nodeModules = true }: { built: boolean; buildTools: boolean; nodeModules?: boolean }) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ensure-built-'));
  dirs.push(dir);
  const bin = path.join(dir, '.bin');
  mkdirSync(bin);
  writeFileSync(path.join(bin, 'npm'), `#!/bin/sh\necho "$@" >> "${path.join(dir, 'npm-calls')}"\n`);
  chmodSync(path.join(bin, 'npm'), 0o755);
  mkdirSync(path.join(dir, 'src'));
  writeFileSync(path.join(dir, 'src', 'main.ts'), '');
  if (nodeModules) mkdirSync(path.join(dir, 'node_modules', '@swc', 'cli'), { recursive: true });
  if (buildTools) writeFileSync(path.join(dir, 'node_modules', '@swc', 'cli', 'package.json'), '{}');
  const stamp = path.join(dir, 'dist', 'build-info.json');
  if (built) {
    mkdirSync(path.dirname(stamp));
    writeFileSync(stamp, '{}');
    // Built a minute ago, after the sources were written; an edit now is newer than the build.
    const [written, builtAt] = [new Date(Date.now() - 120_000), new Date(Date.now() - 60_000)];
    for (const f of [path.join(dir, 'src', 'main.ts'), path.join(dir, 'src')]) utimesSync(f, written, written);
    utimesSync(stamp, builtAt, builtAt);
  }
  const run = (env: Record<string, string> = {}) => {
    const r = spawnSync(process.execPath, [fromRoot('scripts/ensure-built.mjs')], {
      cwd: dir,
      env: { ...process.env, NODE_ENV: '', ...env, PATH: `${bin}:${process.env.PATH}` },
      encoding: 'utf8',
    });
    return { status: r.status, stderr: r.stderr, built: existsSync(path.join(dir, 'npm-calls')) };
  };
  return { dir, run };
}

describe('before an operator command (scripts/ensure-built.mjs)', () => {
  it('where production runs it never builds: NODE_ENV=production, or an install without the build tools', () => {
    expect(project({ built: true, buildTools: true }).run({ NODE_ENV: 'production' })).toMatchObject({ status: 0, built: false });
    expect(project({ built: true, buildTools: false }).run()).toMatchObject({ status: 0, built: false });
    // Even with sources newer than the build: a production host runs what it was given.
    const host = project({ built: true, buildTools: false });
    writeFileSync(path.join(host.dir, 'src', 'main.ts'), '// changed');
    expect(host.run()).toMatchObject({ status: 0, built: false });
  });

  it('where production runs, no build in dist/ stops it with one line saying where to build', () => {
    for (const run of [project({ built: false, buildTools: true }).run({ NODE_ENV: 'production' }), project({ built: false, buildTools: false }).run()]) {
      expect(run).toMatchObject({ status: 1, built: false });
      expect(run.stderr.trim()).toMatch(/^dist\/ holds no complete build .*: run `npm run build` where the dev dependencies are installed/);
    }
  });

  it('on a developer checkout it builds when dist/ is missing (a fresh clone too) or older than a source, else not', () => {
    expect(project({ built: false, buildTools: true }).run()).toMatchObject({ status: 0, built: true });
    expect(project({ built: false, buildTools: false, nodeModules: false }).run()).toMatchObject({ status: 0, built: true });
    expect(project({ built: true, buildTools: true }).run()).toMatchObject({ status: 0, built: false });
    const edited = project({ built: true, buildTools: true });
    writeFileSync(path.join(edited.dir, 'src', 'main.ts'), '// changed');
    expect(edited.run()).toMatchObject({ status: 0, built: true });
  });
});
