import { existsSync } from 'node:fs';
import path from 'node:path';

/** The repository root, whether running from src/ (Jest, scripts/ts-register.cjs) or from the compiled dist/src/. */
function findRoot(dir: string): string {
  for (let d = dir; ; d = path.dirname(d)) {
    if (existsSync(path.join(d, 'package.json')) && existsSync(path.join(d, 'prisma'))) return d;
    if (path.dirname(d) === d) throw new Error(`project root not found above ${dir}`);
  }
}

export const PROJECT_ROOT = findRoot(__dirname);
export const fromRoot = (...parts: string[]) => path.join(PROJECT_ROOT, ...parts);
