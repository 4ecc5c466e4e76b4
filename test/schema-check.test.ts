import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromRoot } from '../src/platform/paths';

/** `npm run schema:check` (scripts/schema-check.ts) run in throw-away git repositories. */
const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'schema',
  GIT_AUTHOR_EMAIL: 'schema@test',
  GIT_COMMITTER_NAME: 'schema',
  GIT_COMMITTER_EMAIL: 'schema@test',
  SCHEMA_BASE: '',
};
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const RELEASED = `type Query {
  "A unit."
  unit(id: Int!): Unit!
}

"A unit."
type Unit {
  "Id."
  id: Int!
  "Old code."
  legacyCode: String!
}
`;
const REMOVED = RELEASED.replace('  "Old code."\n  legacyCode: String!\n', '');
const DEPRECATED = RELEASED.replace('legacyCode: String!', 'legacyCode: String! @deprecated(reason: "Use code.")\n  "Code."\n  code: String!');

function repo(): { dir: string; git: (...args: string[]) => string; commit: (schema: string, message: string) => void } {
  const dir = mkdtempSync(join(tmpdir(), 'schema-check-'));
  dirs.push(dir);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  return {
    dir,
    git,
    commit: (schema, message) => {
      writeFileSync(join(dir, 'schema.graphql'), schema);
      git('add', '-A');
      git('commit', '-q', '--allow-empty', '-m', message);
    },
  };
}

function check(dir: string, ...args: string[]) {
  const run = spawnSync(process.execPath, ['-r', fromRoot('scripts/ts-register.cjs'), fromRoot('scripts/schema-check.ts'), ...args], {
    cwd: dir,
    env,
    encoding: 'utf8',
  });
  return { code: run.status, out: run.stdout + run.stderr };
}

describe('schema:check', () => {
  it('fails on a field removed since the last release tag and names it', () => {
    const r = repo();
    r.commit(RELEASED, 'release');
    r.git('tag', 'v1.0.0');
    r.commit(RELEASED, 'later work');
    writeFileSync(join(r.dir, 'schema.graphql'), REMOVED);
    const { code, out } = check(r.dir);
    expect(code).toBe(1);
    expect(out).toContain('against v1.0.0 (newest release tag)');
    expect(out).toContain('FIELD_REMOVED Unit.legacyCode');
    expect(out).toContain('- FIELD_REMOVED Unit.legacyCode: <why, and what clients use instead>');
  });

  it('passes a deprecation instead of the removal', () => {
    const r = repo();
    r.commit(RELEASED, 'release');
    r.git('tag', 'v1.0.0');
    writeFileSync(join(r.dir, 'schema.graphql'), DEPRECATED);
    expect(check(r.dir)).toMatchObject({ code: 0 });
  });

  it('passes a removal marked intentional in schema-changes.md, and refuses a malformed entry', () => {
    const r = repo();
    r.commit(RELEASED, 'release');
    r.git('tag', 'v1.0.0');
    writeFileSync(join(r.dir, 'schema.graphql'), REMOVED);
    writeFileSync(
      join(r.dir, 'schema-changes.md'),
      '# Intentional breaking changes\n\n- FIELD_REMOVED Unit.legacyCode: deprecated since 1.0; the app reads code.\n',
    );
    const { code, out } = check(r.dir);
    expect(code).toBe(0);
    expect(out).toContain('breaking, marked intentional: FIELD_REMOVED Unit.legacyCode');

    writeFileSync(join(r.dir, 'schema-changes.md'), '- FIELD_REMOVED Unit.legacyCode\n');
    expect(check(r.dir)).toMatchObject({ code: 2, out: expect.stringContaining('is not "- CHANGE_TYPE Path: reason"') });
  });

  it('without a tag compares with the previous commit of main', () => {
    const r = repo();
    r.commit(RELEASED, 'first');
    r.commit(REMOVED, 'drop legacyCode');
    const { code, out } = check(r.dir);
    expect(code).toBe(1);
    expect(out).toContain('(HEAD~1)');
    expect(out).toContain('FIELD_REMOVED Unit.legacyCode');
  });

  it('refuses, with a way out, in a shallow clone without tags', () => {
    const r = repo();
    r.commit(RELEASED, 'first');
    r.commit(REMOVED, 'drop legacyCode');
    const shallow = mkdtempSync(join(tmpdir(), 'schema-check-shallow-'));
    dirs.push(shallow);
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${r.dir}`, shallow], { env });
    const { code, out } = check(shallow);
    expect(code).toBe(2);
    expect(out).toContain('shallow clone without a v* release tag');
    expect(out).toContain('git fetch --tags --unshallow');
    // Naming the baseline is the way out.
    expect(check(shallow, '--base', 'HEAD')).toMatchObject({ code: 0 });
  });
});
