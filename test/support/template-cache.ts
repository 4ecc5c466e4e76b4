import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
/** Kept between runs (Jest's own cache sits beside it); `rm -rf` it to force a rebuild. */
export const TEMPLATE_CACHE_DIR = path.join(root, 'node_modules/.cache/gateway-test-template');

const IMPORT = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g;

/** The file a module path names, as the TypeScript resolver finds it (`x.ts`, `x/index.ts`, or `x` itself). */
function resolveModule(base: string): string | undefined {
  return [`${base}.ts`, path.join(base, 'index.ts'), base].find((p) => existsSync(p) && statSync(p).isFile());
}

/** The source files the module paths `entries` reach through relative imports, themselves included (iterative: no recursion). */
export function importClosure(entries: string[]): string[] {
  const seen = new Set<string>();
  const todo = entries.map(resolveModule).filter((f) => f !== undefined);
  for (let file = todo.pop(); file; file = todo.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const found = resolveModule(path.resolve(path.dirname(file), spec));
      if (found) todo.push(found);
    }
  }
  return [...seen].sort();
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/**
 * What the template is made of: the migrations and Prisma schema, every source file the migration
 * runner and the seed reach, the locked dependency versions (PGlite, Prisma) and the seed's size.
 * Any change to these builds a new template; nothing else can change its content.
 */
export function templateKey(seed: object): string {
  const hash = createHash('sha256').update(JSON.stringify(seed));
  const files = [
    ...filesUnder(path.join(root, 'prisma')),
    ...importClosure(['src/db/migrate', 'src/db/seed', 'src/db/database'].map((f) => path.join(root, f))),
    path.join(root, 'package-lock.json'),
  ];
  for (const file of files) hash.update(path.relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 32);
}

export const cachedTemplate = (key: string) => path.join(TEMPLATE_CACHE_DIR, `${key}.tar`);

/**
 * How many templates are kept. More than one: runs from different working states (a branch, a seed
 * being edited) share this directory, and a run reads its template for each test file it starts, so
 * dropping every other key removed the template under a run still going.
 */
export const TEMPLATES_KEPT = 4;

/** Stores the tarball under its key (written aside, then renamed: a concurrent run never reads half a file) and drops all but the newest `TEMPLATES_KEPT`. */
export async function storeTemplate(key: string, tarball: Uint8Array): Promise<string> {
  await mkdir(TEMPLATE_CACHE_DIR, { recursive: true });
  const target = cachedTemplate(key);
  const partial = `${target}.${process.pid}.partial`;
  await writeFile(partial, tarball);
  await rename(partial, target);
  const kept = (await readdir(TEMPLATE_CACHE_DIR))
    .filter((name) => name.endsWith('.tar'))
    .flatMap((name) => {
      try {
        return [{ name, mtime: statSync(path.join(TEMPLATE_CACHE_DIR, name)).mtimeMs }];
      } catch {
        return []; // removed meanwhile by another run
      }
    })
    .sort((a, b) => b.mtime - a.mtime);
  for (const { name } of kept.slice(TEMPLATES_KEPT)) await rm(path.join(TEMPLATE_CACHE_DIR, name), { force: true });
  return target;
}
