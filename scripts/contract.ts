/**
 * The pieces of `npm run schema:check` (scripts/schema-check.ts): the release folder (releases/<version>/,
 * the contract each release's clients depend on), the breaking changes of both faces against it
 * (GraphQL: GraphQL Inspector; REST: api-smart-diff), and the declarations in CHANGELOG.md that let
 * an intended break pass. The rules and the declaration format: docs/api.md, "Schema evolution" and
 * "Deprecation policy".
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CriticalityLevel, diff as graphqlDiff } from '@graphql-inspector/core';
import { apiCompare, type Diff } from 'api-smart-diff';
import { buildSchema, type GraphQLSchema } from 'graphql';

/** Bad input (no release folder, a malformed one, an unreadable file): one line, exit 2. */
export class ContractError extends Error {}

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();

// ---------------------------------------------------------------------------------------------
// Releases

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?$/;

export const isSemver = (v: string) => SEMVER.test(v);

/** SemVer 2.0.0 precedence (§11): negative when a < b. */
export function compareSemver(a: string, b: string): number {
  const [pa, pb] = [SEMVER.exec(a), SEMVER.exec(b)];
  if (!pa || !pb) throw new ContractError(`not a SemVer version: ${pa ? b : a}`);
  for (let i = 1; i <= 3; i++) if (pa[i] !== pb[i]) return Number(pa[i]) - Number(pb[i]);
  const [ra, rb] = [pa[4], pb[4]];
  if (ra === rb) return 0;
  if (ra === undefined) return 1; // a release ranks above its pre-releases
  if (rb === undefined) return -1;
  const [xa, xb] = [ra.split('.'), rb.split('.')];
  for (let i = 0; i < Math.min(xa.length, xb.length); i++) {
    if (xa[i] === xb[i]) continue;
    const [na, nb] = [/^\d+$/.test(xa[i]), /^\d+$/.test(xb[i])];
    if (na && nb) return Number(xa[i]) - Number(xb[i]);
    if (na !== nb) return na ? -1 : 1; // numeric identifiers rank below alphanumeric ones
    return xa[i] < xb[i] ? -1 : 1;
  }
  return xa.length - xb.length;
}

export const RELEASES = 'releases';

export interface Release {
  version: string;
  /** The commit the release was cut from (40 hex digits). */
  commit: string;
  /** The folder, relative to the repository root: `releases/<version>`. */
  dir: string;
  /** Its `schema.graphql`, as text. */
  schema: string;
  /** Its `openapi.json`, parsed. */
  openapi: Record<string, unknown>;
}

/**
 * The release to compare with: `version` if given, else the highest SemVer among the folders of
 * releases/. Every folder there must be named by a version (files such as a README are ignored).
 */
export function readRelease(root: string, version?: string): Release {
  const base = join(root, RELEASES);
  if (!existsSync(base) || !statSync(base).isDirectory())
    throw new ContractError(`${RELEASES}/ is missing: it holds the contract of each release (releases/<version>/; docs/api.md, "Schema evolution").`);
  const folders = readdirSync(base).filter((name) => statSync(join(base, name)).isDirectory());
  const stray = folders.find((name) => !isSemver(name));
  if (stray) throw new ContractError(`${RELEASES}/${stray}/ is not named by a SemVer version (e.g. 1.0.0).`);
  if (folders.length === 0)
    throw new ContractError(`${RELEASES}/ holds no release: cut one into releases/<version>/ (release.json, schema.graphql, openapi.json).`);
  if (version !== undefined && !folders.includes(version)) throw new ContractError(`${RELEASES}/${version}/ does not exist (releases: ${folders.join(', ')}).`);
  const chosen = version ?? [...folders].sort(compareSemver)[folders.length - 1];
  const dir = `${RELEASES}/${chosen}`;
  const text = (file: string) => {
    const path = join(root, dir, file);
    if (!existsSync(path)) throw new ContractError(`${dir}/${file} is missing (a release folder holds release.json, schema.graphql and openapi.json).`);
    return readFileSync(path, 'utf8');
  };
  const json = (file: string): Record<string, unknown> => {
    let value: unknown;
    try {
      value = JSON.parse(text(file));
    } catch (err) {
      if (err instanceof ContractError) throw err;
      throw new ContractError(`${dir}/${file} is not valid JSON: ${oneLine((err as Error).message)}`);
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new ContractError(`${dir}/${file} is not a JSON object.`);
    return value as Record<string, unknown>;
  };
  const info = json('release.json');
  if (info.version !== chosen) throw new ContractError(`${dir}/release.json: "version" is ${JSON.stringify(info.version)}, not the folder's "${chosen}".`);
  if (typeof info.commit !== 'string' || !/^[0-9a-f]{40}$/.test(info.commit))
    throw new ContractError(`${dir}/release.json: "commit" must be the 40-hex commit the release was cut from, not ${JSON.stringify(info.commit)}.`);
  const schema = text('schema.graphql');
  const openapi = json('openapi.json');
  if (typeof openapi.openapi !== 'string' || !openapi.openapi.startsWith('3.') || typeof openapi.paths !== 'object')
    throw new ContractError(`${dir}/openapi.json is not an OpenAPI 3 document (no "openapi": "3.x" with "paths").`);
  return { version: chosen, commit: info.commit, dir, schema, openapi };
}

// ---------------------------------------------------------------------------------------------
// Breaking changes

export type Face = 'REST' | 'GraphQL';

export interface BreakingChange {
  face: Face;
  /**
   * What a declaration names: GraphQL a schema coordinate (`Distribution.type`); REST an operation
   * (`GET /distributions`), with the parameter or body field it concerns when there is one
   * (`GET /distributions type`).
   */
  key: string;
  /** The tool's description of the change. */
  message: string;
}

export interface FaceReport {
  breaking: BreakingChange[];
  /** Printed, never failing: GraphQL's dangerous changes, REST's deprecations. */
  notes: string[];
  total: number;
}

export function parseSchema(sdl: string, what: string): GraphQLSchema {
  try {
    return buildSchema(sdl);
  } catch (err) {
    throw new ContractError(`${what} is not a valid GraphQL schema: ${oneLine((err as Error).message)}`);
  }
}

export async function graphqlChanges(before: GraphQLSchema, after: GraphQLSchema): Promise<FaceReport> {
  const changes = await graphqlDiff(before, after);
  return {
    total: changes.length,
    breaking: changes
      .filter((c) => c.criticality.level === CriticalityLevel.Breaking)
      .map((c) => ({ face: 'GraphQL', key: c.path ?? '(schema)', message: `${c.type}: ${c.message}` })),
    notes: changes.filter((c) => c.criticality.level === CriticalityLevel.Dangerous).map((c) => `dangerous: ${c.type} ${c.path ?? ''} — ${c.message}`),
  };
}

type Json = Record<string, unknown>;
const at = (doc: unknown, path: ReadonlyArray<string | number>): unknown =>
  path.reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Json)[key as string] : undefined), doc);

/**
 * The field a REST change concerns, from where api-smart-diff found it: a parameter's name, or a
 * body property's dotted path (array levels left out; in an answer, below the envelope's `data`).
 */
function restField(d: Diff, before: unknown, after: unknown): string | undefined {
  const rest = d.path.slice(3);
  if (rest[0] === 'parameters' && rest.length >= 2) {
    // The parameter's index is the old document's, except for a parameter added as a whole.
    const own = d.action === 'add' && rest.length === 2 ? after : before;
    const param = at(own, [...d.path.slice(0, 4), rest[1]]) ?? at(after, [...d.path.slice(0, 4), rest[1]]);
    const name = (param as Json | undefined)?.name;
    return typeof name === 'string' ? name : undefined;
  }
  const schemaAt = rest.indexOf('schema');
  if (schemaAt < 0 || (rest[0] !== 'requestBody' && rest[0] !== 'responses')) return undefined;
  const names: string[] = [];
  const walk = rest.slice(schemaAt + 1);
  for (let i = 0; i < walk.length; i++) {
    if (walk[i] === 'properties' && i + 1 < walk.length) names.push(String(walk[++i]));
    else if (walk[i] === 'required' && i + 1 < walk.length) {
      const value = d.action === 'remove' ? d.before : d.after;
      if (typeof value === 'string') names.push(value);
      break;
    } else if (walk[i] === 'enum' || walk[i] === 'type') break;
  }
  if (rest[0] === 'responses' && names[0] === 'data') names.shift();
  return names.length ? names.join('.') : undefined;
}

/** `GET /distributions` (and ` type`) for a change under `paths`; the top-level key otherwise. */
function restKeys(d: Diff, before: Json, after: Json): string[] {
  const [top, path, method] = d.path;
  if (top !== 'paths') return [String(top)];
  if (method === undefined) {
    // A whole path item: one change per operation it had (or has).
    const item = (at(d.action === 'add' ? after : before, ['paths', path]) ?? {}) as Json;
    return Object.keys(item).map((m) => `${m.toUpperCase()} ${String(path)}`);
  }
  const field = restField(d, before, after);
  return [`${String(method).toUpperCase()} ${String(path)}${field ? ` ${field}` : ''}`];
}

/**
 * REST breaking changes as api-smart-diff classifies them, with one stricter rule for answers: the
 * app decodes strictly, so a replaced enum value or a type that admits a new JSON type (`number` to
 * `string`, or to `[number, null]`) is breaking there too (the tool calls both non-breaking);
 * narrowing (`[string, null]` to `string`) stays compatible.
 */
export function restChanges(before: Json, after: Json): FaceReport {
  const { diffs } = apiCompare(before, after);
  const inAnswer = (d: Diff) => d.path[0] === 'paths' && d.path[3] === 'responses' && d.path.includes('schema');
  const types = (v: unknown) => new Set(Array.isArray(v) ? v.map(String) : v === undefined ? [] : [String(v)]);
  const stricter = (d: Diff) => {
    if (d.type === 'breaking' || d.action !== 'replace' || !inAnswer(d)) return false;
    const last = d.path.at(-1);
    if (d.path.at(-2) === 'enum') return true;
    if (last === 'type') {
      const was = types(d.before);
      return [...types(d.after)].some((t) => !was.has(t) && !(t === 'integer' && was.has('number')));
    }
    return false;
  };
  // The resolved $refs show every change under paths; components would repeat them.
  const relevant = diffs.filter((d) => d.path[0] !== 'components');
  // One per field and description: an enum's replaced values are one change to the app.
  const breaking = new Map<string, BreakingChange>();
  for (const d of relevant.filter((d) => d.type === 'breaking' || stricter(d))) {
    for (const key of restKeys(d, before, after)) {
      const message = d.description ?? `${d.action} ${d.path.join('.')}`;
      breaking.set(`${key}\u0000${message}`, { face: 'REST', key, message });
    }
  }
  return {
    total: relevant.filter((d) => d.type !== 'annotation' && d.type !== 'unclassified').length,
    breaking: [...breaking.values()],
    notes: relevant.filter((d) => d.type === 'deprecated').map((d) => `deprecated: ${restKeys(d, before, after).join(', ')} — ${d.description ?? ''}`),
  };
}

// ---------------------------------------------------------------------------------------------
// The changelog's declarations

export const CHANGELOG = 'CHANGELOG.md';
/** The sections of a face under `## [Unreleased]` where a breaking change is declared. */
export const DECLARING_SECTIONS = ['Removed', 'Changed'] as const;

export interface ChangelogItem {
  face: string;
  section: string;
  /** 1-based line of the item's first line. */
  line: number;
  /** The keys (BreakingChange.key) it names before its `Migration:` note. */
  keys: string[];
  /** Whether it has a `Migration:` note with text (not a `<placeholder>`). */
  migration: boolean;
}

const REST_COORDINATE = /`((?:GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) \/[^`\s]*)`(?:[ \t]*`([^`\s]+)`)?/g;
const GRAPHQL_COORDINATE = /`([_A-Za-z]\w*(?:\.[_A-Za-z]\w*)*)`/g;
const MIGRATION = /\bMigration:\s*([^\s<]\S*)/;

/** The items of the `## [Unreleased]` section, each with its face (`### …`) and section (`#### …`). */
export function parseChangelog(text: string): { unreleased: boolean; items: ChangelogItem[] } {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^## \[Unreleased\]/i.test(l));
  if (start < 0) return { unreleased: false, items: [] };
  const items: ChangelogItem[] = [];
  let face = '';
  let section = '';
  let current: { line: number; text: string[] } | null = null;
  const close = () => {
    if (!current) return;
    const body = current.text.join(' ');
    const cut = body.search(/\bMigration:/);
    const named = cut < 0 ? body : body.slice(0, cut);
    const keys =
      face === 'REST'
        ? [...named.matchAll(REST_COORDINATE)].map((m) => (m[2] ? `${m[1]} ${m[2]}` : m[1]))
        : [...named.matchAll(GRAPHQL_COORDINATE)].map((m) => m[1]);
    items.push({ face, section, line: current.line, keys, migration: MIGRATION.test(body) });
    current = null;
  };
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i];
    if (/^## /.test(line)) break;
    const heading = /^(#{3,4}) (.+?)\s*$/.exec(line);
    if (heading) {
      close();
      if (heading[1] === '###') [face, section] = [heading[2], ''];
      else section = heading[2];
    } else if (/^- /.test(line)) {
      close();
      current = { line: i + 1, text: [line.slice(2)] };
    } else if (line.trim() === '') close();
    else current?.text.push(line.trim());
  }
  close();
  return { unreleased: true, items };
}

export interface Verdict {
  declared: BreakingChange[];
  undeclared: Array<BreakingChange & { why: string }>;
}

/** Which breaking changes the changelog declares (their face, Removed or Changed, with a migration note). */
export function judge(changes: BreakingChange[], changelog: { unreleased: boolean; items: ChangelogItem[] }): Verdict {
  const verdict: Verdict = { declared: [], undeclared: [] };
  for (const c of changes) {
    const naming = changelog.items.filter((i) => i.face === c.face && i.keys.includes(c.key));
    const ok = naming.find((i) => (DECLARING_SECTIONS as readonly string[]).includes(i.section) && i.migration);
    if (ok) {
      verdict.declared.push(c);
      continue;
    }
    const near = naming[0];
    const why = !changelog.unreleased
      ? `${CHANGELOG} has no "## [Unreleased]" section`
      : !near
        ? `not named under "### ${c.face}"`
        : !(DECLARING_SECTIONS as readonly string[]).includes(near.section)
          ? `named on line ${near.line} under "#### ${near.section || '(none)'}", not "#### Removed" or "#### Changed"`
          : `named on line ${near.line} without a "Migration:" note`;
    verdict.undeclared.push({ ...c, why });
  }
  return verdict;
}

/** How a key is written in a changelog item. */
export function coordinate(c: Pick<BreakingChange, 'face' | 'key'>): string {
  if (c.face === 'GraphQL') return `\`${c.key}\``;
  const [method, path, field] = c.key.split(' ');
  if (path === undefined) return `\`${method}\``;
  return field ? `\`${method} ${path}\` \`${field}\`` : `\`${method} ${path}\``;
}

/** The list item that declares `c`, placeholders in angle brackets. */
export const declarationFor = (c: Pick<BreakingChange, 'face' | 'key'>) =>
  `- ${coordinate(c)}: <what changed>. Migration: <what ${c.face === 'REST' ? 'the app does' : 'clients do'} instead>.`;
