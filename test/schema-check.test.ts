import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromRoot } from '../src/platform/paths';

/**
 * `npm run schema:check` (scripts/schema-check.ts) run in throw-away folders that hold a release
 * folder, a working tree's schema.graphql and docs/openapi.json, and a CHANGELOG.md. No git: the
 * release folder is the baseline. The pieces: test/unit/contract.test.ts.
 */
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

const openapi = (kinds: string[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/units/{id}': {
        get: {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: {
            200: {
              description: 'ok',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: {
                      success: { const: true },
                      data: { type: 'object', properties: { kind: { type: 'string', enum: kinds } }, required: ['kind'] },
                    },
                    required: ['success', 'data'],
                  },
                },
              },
            },
          },
        },
      },
      ...extra,
    },
  });
const OPENAPI = openapi(['house', 'flat']);
const LEGACY = { '/legacy': { get: { responses: { 200: { description: 'ok' } } } } };

const COMMIT = '9f6741bb70e64fd0094831e107b8dc38aa369321';
type Tree = Record<string, string | null>;

/** A folder with release 1.0.0 as given, the working tree as released unless overridden (null: no file). */
function tree(files: Tree = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'schema-check-'));
  dirs.push(dir);
  const all: Tree = {
    'releases/1.0.0/release.json': JSON.stringify({ version: '1.0.0', commit: COMMIT }),
    'releases/1.0.0/schema.graphql': RELEASED,
    'releases/1.0.0/openapi.json': OPENAPI,
    'schema.graphql': RELEASED,
    'docs/openapi.json': OPENAPI,
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    if (text === null) continue;
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function check(dir: string, ...args: string[]) {
  const run = spawnSync(process.execPath, ['-r', fromRoot('scripts/ts-register.cjs'), fromRoot('scripts/schema-check.ts'), ...args], {
    cwd: dir,
    encoding: 'utf8',
  });
  return { code: run.status, out: run.stdout + run.stderr, stderr: run.stderr };
}

const changelog = (rest: string, graphql: string) => `# Changelog\n\n## [Unreleased]\n\n### REST\n\n${rest}\n\n### GraphQL\n\n${graphql}\n\n## [1.0.0]\n`;

describe('schema:check', () => {
  it('passes a working tree that only adds or deprecates, against the latest release', () => {
    const { code, out } = check(tree({ 'schema.graphql': DEPRECATED, 'docs/openapi.json': openapi(['house', 'flat'], LEGACY) }));
    expect(out).toContain(`against release 1.0.0 (releases/1.0.0, commit ${COMMIT.slice(0, 12)})`);
    expect(out).toMatch(/GraphQL \(schema.graphql\): \d+ change\(s\), 0 breaking\nREST \(docs\/openapi.json\): 1 change\(s\), 0 breaking/);
    expect(code).toBe(0);
  });

  it('fails on a GraphQL field removed and a REST enum value replaced, printing the changelog items to add', () => {
    const { code, out } = check(tree({ 'schema.graphql': REMOVED, 'docs/openapi.json': openapi(['house', 'villa']) }));
    expect(code).toBe(1);
    expect(out).toContain(
      "GraphQL `Unit.legacyCode` — FIELD_REMOVED: Field 'legacyCode' was removed from object type 'Unit' (CHANGELOG.md has no \"## [Unreleased]\" section)",
    );
    expect(out).toContain('REST `GET /units/{id}` `kind` — [Replaced] possible values of `data.kind`');
    expect(out).toContain('under "## [Unreleased]" → "### REST" → "#### Changed" (or "#### Removed"), one item each:');
    expect(out).toContain('  - `GET /units/{id}` `kind`: <what changed>. Migration: <what the app does instead>.');
    expect(out).toContain('  - `Unit.legacyCode`: <what changed>. Migration: <what clients do instead>.');
  });

  it('passes the same breaks once the changelog declares them with a migration note', () => {
    const declared = changelog(
      '#### Changed\n- `GET /units/{id}` `kind`: `flat` is now `villa`. Migration: the app labels `villa`.',
      '#### Removed\n- `Unit.legacyCode`: deprecated since 0.9.0.\n  Migration: read `Unit.code`.',
    );
    const { code, out } = check(tree({ 'schema.graphql': REMOVED, 'docs/openapi.json': openapi(['house', 'villa']), 'CHANGELOG.md': declared }));
    expect(out).toContain('breaking, declared in CHANGELOG.md: `Unit.legacyCode` — FIELD_REMOVED');
    expect(out).toContain('breaking, declared in CHANGELOG.md: `GET /units/{id}` `kind`');
    expect(code).toBe(0);
  });

  it('a declaration without a migration note, on the wrong face or under another section does not count', () => {
    const cases = [
      changelog('#### Removed\n- `GET /legacy`: gone.', ''),
      changelog('', '#### Removed\n- `GET /legacy`: gone. Migration: none.'),
      changelog('#### Deprecated\n- `GET /legacy`: gone. Migration: none.', ''),
    ];
    const whys = cases.map((text) => {
      const { code, out } = check(tree({ 'releases/1.0.0/openapi.json': openapi(['house', 'flat'], LEGACY), 'CHANGELOG.md': text }));
      expect(code).toBe(1);
      return /\((named[^)]*|not named[^)]*)\)\n/.exec(out)?.[1];
    });
    expect(whys).toEqual([
      'named on line 8 without a "Migration:" note',
      'not named under "### REST"',
      'named on line 8 under "#### Deprecated", not "#### Removed" or "#### Changed"',
    ]);
  });

  it('compares with the highest SemVer release, or the one named', () => {
    const files: Tree = {
      'releases/1.10.0/release.json': JSON.stringify({ version: '1.10.0', commit: COMMIT }),
      'releases/1.10.0/schema.graphql': REMOVED,
      'releases/1.10.0/openapi.json': OPENAPI,
      'releases/1.9.0/release.json': JSON.stringify({ version: '1.9.0', commit: COMMIT }),
      'releases/1.9.0/schema.graphql': RELEASED,
      'releases/1.9.0/openapi.json': OPENAPI,
      'schema.graphql': REMOVED,
    };
    const dir = tree(files);
    expect(check(dir)).toMatchObject({ code: 0, out: expect.stringContaining('against release 1.10.0') });
    expect(check(dir, '--release', '1.9.0')).toMatchObject({ code: 1, out: expect.stringContaining('against release 1.9.0') });
  });

  it.each<[string, Tree, string]>([
    [
      'no release folder',
      { 'releases/1.0.0/release.json': null, 'releases/1.0.0/schema.graphql': null, 'releases/1.0.0/openapi.json': null },
      'releases/ is missing',
    ],
    ['a malformed release.json', { 'releases/1.0.0/release.json': '{"version": "1.0.0"' }, 'releases/1.0.0/release.json is not valid JSON'],
    ['a release without its schema', { 'releases/1.0.0/schema.graphql': null }, 'releases/1.0.0/schema.graphql is missing'],
    [
      'a release schema that does not parse',
      { 'releases/1.0.0/schema.graphql': 'type Query {' },
      'releases/1.0.0/schema.graphql is not a valid GraphQL schema',
    ],
    [
      'a working tree without docs/openapi.json',
      { 'docs/openapi.json': null },
      'docs/openapi.json is missing from the working tree (npm run codegen writes it)',
    ],
  ])('fails with exit 2 and one line on %s', (_name, files, message) => {
    const { code, out, stderr } = check(tree(files));
    expect(code).toBe(2);
    expect(out).toContain(`schema:check: ${message}`);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(out).not.toMatch(/\n\s+at /); // no stack trace
  });
});
