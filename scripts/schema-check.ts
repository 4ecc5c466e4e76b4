/**
 * `npm run schema:check`: fails when schema.graphql (the working tree's) breaks clients of the
 * baseline schema, unless schema-changes.md marks the change intentional. The rules, the baseline and
 * the allowlist format are in docs/api.md, "Schema evolution".
 *
 *   --base <rev>   compare against this commit or tag (also SCHEMA_BASE)
 *
 * Exit codes: 0 compatible (or every break marked), 1 unmarked breaking changes, 2 no baseline could
 * be found (e.g. a shallow clone without tags) or the allowlist is malformed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CriticalityLevel, diff, type Change } from '@graphql-inspector/core';
import { buildSchema } from 'graphql';

const SCHEMA = 'schema.graphql';
const ALLOWLIST = 'schema-changes.md';
/** `- FIELD_REMOVED Unit.legacyCode: why, and what clients use instead` */
const ENTRY = /^- ([A-Z_]+) (\S+): (\S.*)$/;

class Stop extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}

const git = (...args: string[]): string | null => {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
};

type Baseline = { rev: string; why: string } | { rev: null; why: string };

/** The newest `v*` release tag; else where this branch left main; else the previous commit. */
function findBaseline(explicit: string | undefined): Baseline {
  if (explicit) {
    if (!git('rev-parse', '--verify', '--quiet', `${explicit}^{commit}`))
      throw new Stop(2, `schema:check: the baseline ${explicit} is not a commit in this clone.`);
    return { rev: explicit, why: `${explicit} (given)` };
  }
  const tag = git('describe', '--tags', '--abbrev=0', '--match', 'v*', 'HEAD');
  if (tag) return { rev: tag, why: `${tag} (newest release tag)` };
  const head = git('rev-parse', 'HEAD');
  if (!head) throw new Stop(2, 'schema:check: not inside a git repository with a commit.');
  // Without tags a shallow clone cannot tell which release clients run: refuse rather than compare
  // against whatever commit happens to be present.
  if (git('rev-parse', '--is-shallow-repository') === 'true') {
    throw new Stop(
      2,
      'schema:check: this is a shallow clone without a v* release tag, so there is no baseline to compare with.\n' +
        'Fetch history and tags (git fetch --tags --unshallow) or name one (SCHEMA_BASE=<rev> or --base <rev>).',
    );
  }
  for (const main of ['origin/main', 'main']) {
    const base = git('rev-parse', '--verify', '--quiet', main) && git('merge-base', 'HEAD', main);
    if (base && base !== head) return { rev: base, why: `${base.slice(0, 12)} (merge-base with ${main})` };
  }
  const parent = git('rev-parse', '--verify', '--quiet', 'HEAD~1');
  if (parent) return { rev: parent, why: `${parent.slice(0, 12)} (HEAD~1)` };
  return { rev: null, why: 'the first commit: there is no earlier schema' };
}

type Allowed = { type: string; path: string };

function readAllowlist(root: string): Allowed[] {
  const file = join(root, ALLOWLIST);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .map((line) => {
      const m = ENTRY.exec(line.trimEnd());
      if (!m) throw new Stop(2, `schema:check: ${ALLOWLIST}: "${line}" is not "- CHANGE_TYPE Path: reason".`);
      return { type: m[1], path: m[2] };
    });
}

function parse(sdl: string, what: string) {
  try {
    return buildSchema(sdl);
  } catch (err) {
    throw new Stop(2, `schema:check: ${what} is not a valid schema: ${(err as Error).message}`);
  }
}

const entryFor = (c: Change) => `- ${c.type} ${c.path ?? '(schema)'}: <why, and what clients use instead>`;

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const root = git('rev-parse', '--show-toplevel') ?? process.cwd();
  const flag = argv.indexOf('--base');
  if (flag >= 0 && !argv[flag + 1]) throw new Stop(2, 'schema:check: --base needs a commit or tag.');
  const baseline = findBaseline(flag >= 0 ? argv[flag + 1] : process.env.SCHEMA_BASE);
  if (!baseline.rev) {
    console.log(`schema:check: nothing to compare with (${baseline.why}).`);
    return 0;
  }
  const oldSdl = git('show', `${baseline.rev}:${SCHEMA}`);
  if (oldSdl === null) {
    console.log(`schema:check: ${SCHEMA} does not exist at ${baseline.why}: every type is new.`);
    return 0;
  }
  const changes = await diff(
    parse(oldSdl, `${SCHEMA} at ${baseline.why}`),
    parse(readFileSync(join(root, SCHEMA), 'utf8'), `the working tree's ${SCHEMA} (npm run codegen writes it)`),
  );
  const allowed = readAllowlist(root);
  const isAllowed = (c: Change) => allowed.some((a) => a.type === c.type && a.path === c.path);
  const breaking = changes.filter((c) => c.criticality.level === CriticalityLevel.Breaking);
  const unmarked = breaking.filter((c) => !isAllowed(c));

  console.log(`schema:check: ${SCHEMA} against ${baseline.why}: ${changes.length} change(s), ${breaking.length} breaking.`);
  for (const c of changes.filter((c) => c.criticality.level === CriticalityLevel.Dangerous)) console.log(`  dangerous: ${c.type} ${c.path} — ${c.message}`);
  for (const c of breaking.filter(isAllowed)) console.log(`  breaking, marked intentional: ${c.type} ${c.path} — ${c.message}`);
  // Entries that match nothing were released (the baseline moved past them) or never happened.
  for (const a of allowed.filter((a) => !breaking.some((c) => c.type === a.type && c.path === a.path))) {
    console.log(`  ${ALLOWLIST} lists ${a.type} ${a.path}, which is not a breaking change against this baseline: remove the entry.`);
  }
  if (unmarked.length === 0) return 0;
  console.error(`\nBreaking changes not marked intentional:`);
  for (const c of unmarked) console.error(`  ${c.type} ${c.path} — ${c.message}`);
  console.error(`\nDeprecate instead of removing or changing (@Field({ deprecationReason }); docs/api.md, "Schema evolution").`);
  console.error(`If the break is intended and the clients are ready, add to ${ALLOWLIST}:`);
  for (const c of unmarked) console.error(`  ${entryFor(c)}`);
  return 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Stop ? err.message : err);
    process.exit(err instanceof Stop ? err.exitCode : 2);
  },
);
