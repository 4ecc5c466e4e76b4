import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from './paths';

/** What is running, for operators: the `/healthz` body, the `build_info` metric and the start-up log line. */
export interface BuildInfo {
  /** package.json's version when the build was made. */
  version: string;
  /** The commit the build was made from (scripts/build-info.mjs), or `unknown`. */
  commit: string;
  /** The Node.js running it, e.g. `v24.1.0`. */
  nodeVersion: string;
}

/** What `npm run build` writes next to the compiled code (scripts/build-info.mjs). */
export const BUILD_INFO_FILE = 'build-info.json';

/**
 * The build this code belongs to. Compiled (`<dist>/src/platform`), it is `<dist>/build-info.json`,
 * written by the same build; run from the sources (tests, ts-register) there is no build, so the
 * version is package.json's and the commit `unknown` — a dist/ built earlier from other sources
 * would name the wrong commit.
 */
export function readBuildInfo(moduleDir = __dirname, root = PROJECT_ROOT): BuildInfo {
  const unknown = { version: packageVersion(root), commit: 'unknown' };
  const dist = path.resolve(moduleDir, '..', '..');
  let recorded: Partial<Record<'version' | 'commit', unknown>> = {};
  if (path.basename(path.dirname(moduleDir)) === 'src' && path.basename(dist) === 'dist') {
    try {
      recorded = JSON.parse(readFileSync(path.join(dist, BUILD_INFO_FILE), 'utf8')) as typeof recorded;
    } catch {
      // A dist/ compiled without the build's last step (tsc, a bare swc run): nothing recorded.
    }
  }
  return {
    version: typeof recorded.version === 'string' && recorded.version ? recorded.version : unknown.version,
    commit: typeof recorded.commit === 'string' && recorded.commit ? recorded.commit : unknown.commit,
    nodeVersion: process.version,
  };
}

function packageVersion(root: string): string {
  try {
    const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof version === 'string' && version ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** This process's build, read once. */
export const BUILD_INFO: BuildInfo = readBuildInfo();
