/**
 * `npm run schema:check`: fails when the working tree's contract breaks the clients of the latest
 * release without saying so in the changelog. Both faces, against the release folder
 * (releases/<version>/, the highest SemVer; no git needed):
 *  - GraphQL: schema.graphql against the release's schema.graphql (GraphQL Inspector);
 *  - REST: docs/openapi.json against the release's openapi.json (api-smart-diff).
 * A breaking change passes when CHANGELOG.md's `## [Unreleased]` declares it under its face's
 * `#### Removed` or `#### Changed` with a `Migration:` note (docs/api.md, "Schema evolution").
 *
 *   --release <version>   compare with releases/<version>/ instead of the latest
 *
 * Exit codes: 0 compatible (or every break declared), 1 undeclared breaking changes, 2 bad input (the
 * release folder missing or malformed, a file unreadable): one line saying which.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CHANGELOG,
  ContractError,
  coordinate,
  declarationFor,
  graphqlChanges,
  judge,
  parseChangelog,
  parseSchema,
  readRelease,
  restChanges,
  type BreakingChange,
  type FaceReport,
} from './contract';

const SCHEMA = 'schema.graphql';
const OPENAPI = 'docs/openapi.json';

function workingTree(root: string, file: string, how: string): string {
  const path = join(root, file);
  if (!existsSync(path)) throw new ContractError(`${file} is missing from the working tree (${how} writes it).`);
  return readFileSync(path, 'utf8');
}

function openapiOf(text: string, what: string): Record<string, unknown> {
  try {
    const doc = JSON.parse(text) as Record<string, unknown>;
    if (doc && typeof doc === 'object' && typeof doc.paths === 'object') return doc;
  } catch {
    // reported below
  }
  throw new ContractError(`${what} is not an OpenAPI document (JSON with "paths").`);
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const flag = argv.indexOf('--release');
  if (flag >= 0 && !argv[flag + 1]) throw new ContractError('--release needs a version (a folder of releases/).');
  const root = process.cwd();
  const release = readRelease(root, flag >= 0 ? argv[flag + 1] : undefined);
  const faces: Array<[string, FaceReport]> = [
    [
      `GraphQL (${SCHEMA})`,
      await graphqlChanges(
        parseSchema(release.schema, `${release.dir}/schema.graphql`),
        parseSchema(workingTree(root, SCHEMA, 'npm run codegen'), `the working tree's ${SCHEMA}`),
      ),
    ],
    [`REST (${OPENAPI})`, restChanges(release.openapi, openapiOf(workingTree(root, OPENAPI, 'npm run codegen'), `the working tree's ${OPENAPI}`))],
  ];
  const changelogPath = join(root, CHANGELOG);
  const changelog = parseChangelog(existsSync(changelogPath) ? readFileSync(changelogPath, 'utf8') : '');
  const breaking: BreakingChange[] = faces.flatMap(([, r]) => r.breaking);
  const verdict = judge(breaking, changelog);

  console.log(`schema:check: against release ${release.version} (${release.dir}, commit ${release.commit.slice(0, 12)})`);
  for (const [name, report] of faces) {
    console.log(`${name}: ${report.total} change(s), ${report.breaking.length} breaking`);
    for (const note of report.notes) console.log(`  ${note}`);
    for (const c of report.breaking.filter((c) => verdict.declared.includes(c)))
      console.log(`  breaking, declared in ${CHANGELOG}: ${coordinate(c)} — ${c.message}`);
  }
  if (verdict.undeclared.length === 0) return 0;

  console.error(`\nBreaking changes not declared in ${CHANGELOG}:`);
  for (const c of verdict.undeclared) console.error(`  ${c.face} ${coordinate(c)} — ${c.message} (${c.why})`);
  console.error(
    `\nKeep the old shape instead where you can: deprecate (docs/api.md, "Deprecation policy"). If the break is intended, declare it in ${CHANGELOG}:`,
  );
  for (const face of ['REST', 'GraphQL'] as const) {
    const keys = [...new Set(verdict.undeclared.filter((c) => c.face === face).map((c) => c.key))];
    if (keys.length === 0) continue;
    console.error(`under "## [Unreleased]" → "### ${face}" → "#### Changed" (or "#### Removed"), one item each:`);
    for (const key of keys) console.error(`  ${declarationFor({ face, key })}`);
  }
  return 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    // Bad input is one line; anything else is a bug here, still one line (the stack with DEBUG=1).
    if (!(err instanceof ContractError) && process.env.DEBUG) console.error(err);
    console.error(`schema:check: ${err instanceof Error ? err.message.replace(/\s*\n\s*/g, ' ') : String(err)}`);
    process.exit(2);
  },
);
