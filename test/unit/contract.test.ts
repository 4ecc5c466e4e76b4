import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContractError, compareSemver, declarationFor, judge, parseChangelog, readRelease, restChanges, type BreakingChange } from '../../scripts/contract';

/** The pieces of `npm run schema:check` (scripts/contract.ts); the command itself: test/schema-check.test.ts. */
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('releases', () => {
  it('orders versions by SemVer precedence, not as text', () => {
    const versions = ['1.0.0', '0.10.0', '0.9.0', '1.0.0-rc.2', '1.0.0-rc.10', '1.0.0-alpha', '0.1.0', '1.0.0-alpha.1'];
    expect([...versions].sort(compareSemver)).toEqual(['0.1.0', '0.9.0', '0.10.0', '1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-rc.2', '1.0.0-rc.10', '1.0.0']);
  });

  const root = (files: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), 'contract-'));
    dirs.push(dir);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  };
  const release = (v: string, info: object = { version: v, commit: 'a'.repeat(40) }) => ({
    [`releases/${v}/release.json`]: JSON.stringify(info),
    [`releases/${v}/schema.graphql`]: 'type Query { a: Int }',
    [`releases/${v}/openapi.json`]: '{"openapi": "3.1.0", "paths": {}}',
  });

  it('reads the highest release, ignoring files beside the folders', () => {
    const dir = root({ ...release('0.9.0'), ...release('0.10.0'), ...release('0.10.0-rc.1'), 'releases/README.md': 'x' });
    expect(readRelease(dir)).toMatchObject({ version: '0.10.0', dir: 'releases/0.10.0', commit: 'a'.repeat(40) });
    expect(readRelease(dir, '0.9.0').version).toBe('0.9.0');
  });

  it.each<[string, Record<string, string>, string]>([
    ['no releases/', {}, 'releases/ is missing'],
    ['an empty releases/', { 'releases/README.md': 'x' }, 'releases/ holds no release'],
    ['a folder not named by a version', { ...release('1.0.0'), 'releases/latest/release.json': '{}' }, 'releases/latest/ is not named by a SemVer version'],
    ['release.json not JSON', { ...release('1.0.0'), 'releases/1.0.0/release.json': '{"version": "1.0.0",' }, 'releases/1.0.0/release.json is not valid JSON'],
    ['release.json of another version', release('1.0.0', { version: '1.0.1', commit: 'a'.repeat(40) }), '"version" is "1.0.1", not the folder\'s "1.0.0"'],
    ['a short commit', release('1.0.0', { version: '1.0.0', commit: '9f6741b' }), '"commit" must be the 40-hex commit'],
    ['no schema', (({ 'releases/1.0.0/schema.graphql': _, ...rest }) => rest)(release('1.0.0')), 'releases/1.0.0/schema.graphql is missing'],
    ['an openapi.json that is no OpenAPI 3', { ...release('1.0.0'), 'releases/1.0.0/openapi.json': '{"swagger": "2.0"}' }, 'is not an OpenAPI 3 document'],
  ])('refuses %s with one line', (_name, files, message) => {
    const dir = root(files);
    let error: unknown;
    try {
      readRelease(dir);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ContractError);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).not.toContain('\n');
  });
});

const doc = (typeValues: string[], distributedAt: unknown, extraPath = false) => ({
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {
    '/distributions': {
      get: {
        parameters: [{ name: 'type', in: 'query', schema: { type: 'string', enum: typeValues } }],
        responses: {
          200: {
            description: 'ok',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    success: { const: true },
                    data: {
                      type: 'array',
                      items: {
                        type: 'object',
                        properties: { type: { type: 'string', enum: typeValues }, distributed_at: distributedAt },
                        required: ['type', 'distributed_at'],
                      },
                    },
                  },
                  required: ['success', 'data'],
                },
              },
            },
          },
        },
      },
    },
    ...(extraPath ? { '/legacy': { get: { responses: { 200: { description: 'ok' } } } } } : {}),
  },
});

describe('REST breaking changes (api-smart-diff)', () => {
  it('names the operation and the field: a replaced enum value in a parameter and in an answer', () => {
    const { breaking } = restChanges(doc(['dividend', 'interest'], { type: 'string' }), doc(['monthly', 'interest'], { type: 'string' }));
    expect([...new Set(breaking.map((c) => c.key))]).toEqual(['GET /distributions type']);
    expect(breaking.map((c) => c.message)).toEqual(
      expect.arrayContaining([expect.stringContaining('query parameter `type`'), expect.stringContaining('Response 200')]),
    );
  });

  it('a field that may now be null, or of another type, breaks a strict reader; one that no longer is null does not', () => {
    const before = doc(['a'], { type: 'string', format: 'date-time' });
    expect(restChanges(before, doc(['a'], { type: ['string', 'null'], format: 'date-time' })).breaking.map((c) => c.key)).toEqual([
      'GET /distributions distributed_at',
    ]);
    expect([...new Set(restChanges(before, doc(['a'], { type: 'integer' })).breaking.map((c) => c.key))]).toEqual(['GET /distributions distributed_at']);
    expect(restChanges(doc(['a'], { type: ['string', 'null'] }), doc(['a'], { type: 'string' })).breaking).toEqual([]);
  });

  it('a removed operation is the operation alone; an added one is not breaking', () => {
    expect(restChanges(doc(['a'], {}, true), doc(['a'], {})).breaking.map((c) => c.key)).toEqual(['GET /legacy']);
    expect(restChanges(doc(['a'], {}), doc(['a'], {}, true)).breaking).toEqual([]);
  });
});

describe('declarations in the changelog', () => {
  const CHANGELOG = `# Changelog

## [Unreleased]

### REST

#### Changed
Intro text is not an item.
- \`GET /distributions\` \`type\`, \`GET /distributions/{id}\` \`type\`: the cadence. Migration: read
  the cadence; the kind of profit is GraphQL's \`Distribution.profitKind\`.
- \`GET /payouts\` \`status\`: no migration note here.

#### Fixed
- \`GET /units\` \`price\`: fixed rounding. Migration: none.

### GraphQL

#### Removed
- \`Unit.legacyCode\`: deprecated since 1.0. Migration: read \`Unit.code\`.
- \`Unit.other\`: Migration: <what clients do instead>.

## [0.1.0]

### GraphQL

#### Removed
- \`Unit.old\`: released. Migration: long done.
`;
  const rest = (key: string): BreakingChange => ({ face: 'REST', key, message: 'm' });
  const gql = (key: string): BreakingChange => ({ face: 'GraphQL', key, message: 'm' });

  it('reads the Unreleased items with their face, section and the coordinates named before "Migration:"', () => {
    const { unreleased, items } = parseChangelog(CHANGELOG);
    expect(unreleased).toBe(true);
    expect(items.map(({ face, section, keys, migration }) => ({ face, section, keys, migration }))).toEqual([
      { face: 'REST', section: 'Changed', keys: ['GET /distributions type', 'GET /distributions/{id} type'], migration: true },
      { face: 'REST', section: 'Changed', keys: ['GET /payouts status'], migration: false },
      { face: 'REST', section: 'Fixed', keys: ['GET /units price'], migration: true },
      { face: 'GraphQL', section: 'Removed', keys: ['Unit.legacyCode'], migration: true },
      { face: 'GraphQL', section: 'Removed', keys: ['Unit.other'], migration: false },
    ]);
  });

  it('passes a break declared under its face, Removed or Changed, with a migration note; says why for the others', () => {
    const verdict = judge(
      [
        rest('GET /distributions type'),
        rest('GET /distributions/{id} type'),
        gql('Unit.legacyCode'),
        rest('GET /payouts status'),
        rest('GET /units price'),
        gql('Unit.other'),
        gql('Unit.old'),
        rest('GET /distributions'),
        gql('GET'),
        // Named on the other face only.
        gql('Distribution.profitKind'),
      ],
      parseChangelog(CHANGELOG),
    );
    expect(verdict.declared.map((c) => c.key)).toEqual(['GET /distributions type', 'GET /distributions/{id} type', 'Unit.legacyCode']);
    expect(Object.fromEntries(verdict.undeclared.map((c) => [c.key, c.why]))).toEqual({
      'GET /payouts status': 'named on line 11 without a "Migration:" note',
      'GET /units price': 'named on line 14 under "#### Fixed", not "#### Removed" or "#### Changed"',
      'Unit.other': 'named on line 20 without a "Migration:" note',
      'Unit.old': 'not named under "### GraphQL"',
      'GET /distributions': 'not named under "### REST"',
      GET: 'not named under "### GraphQL"',
      'Distribution.profitKind': 'not named under "### GraphQL"',
    });
  });

  it('prints the item to add, which the parser reads back as declaring the change once its placeholders are filled in', () => {
    const lines = [declarationFor(rest('GET /distributions/{id} type')), declarationFor(gql('Unit.legacyCode')), declarationFor(rest('GET /legacy'))];
    expect(lines).toEqual([
      '- `GET /distributions/{id}` `type`: <what changed>. Migration: <what the app does instead>.',
      '- `Unit.legacyCode`: <what changed>. Migration: <what clients do instead>.',
      '- `GET /legacy`: <what changed>. Migration: <what the app does instead>.',
    ]);
    const filled = (line: string) => line.replace('<what changed>', 'gone').replace(/<what [^>]+>/, 'use the other');
    const changelog = `## [Unreleased]\n\n### REST\n\n#### Removed\n${filled(lines[0])}\n${filled(lines[2])}\n\n### GraphQL\n\n#### Changed\n${filled(lines[1])}\n`;
    const verdict = judge([rest('GET /distributions/{id} type'), gql('Unit.legacyCode'), rest('GET /legacy')], parseChangelog(changelog));
    expect(verdict.undeclared).toEqual([]);
    // As printed, placeholders and all, it declares nothing.
    const asPrinted = `## [Unreleased]\n\n### GraphQL\n\n#### Changed\n${lines[1]}\n`;
    expect(judge([gql('Unit.legacyCode')], parseChangelog(asPrinted)).undeclared).toHaveLength(1);
  });

  it('without an Unreleased section declares nothing', () => {
    expect(judge([gql('Unit.old')], parseChangelog(CHANGELOG.replace('## [Unreleased]', '## [1.0.0]'))).undeclared[0].why).toBe(
      'CHANGELOG.md has no "## [Unreleased]" section',
    );
  });
});
