/**
 * The benchmark's comparison peer, PostGraphile 5, is a package of its own (bench/peer, with its own
 * lockfile) rather than a dev dependency of the gateway: its family declares Node >= 22, and as a
 * dev dependency it made every install of the gateway print EBADENGINE warnings. It is installed
 * the first time a benchmark needs it and loaded from there, never from the gateway's node_modules.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fromRoot } from '../src/platform/paths';

export const PEER_DIR = fromRoot('bench', 'peer');

/** `npm ci` in bench/peer when PostGraphile is not there yet. */
export function ensurePeer(): void {
  if (existsSync(path.join(PEER_DIR, 'node_modules', 'postgraphile', 'package.json'))) return;
  console.log('Installing the benchmark peer (npm ci in bench/peer) …');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: PEER_DIR, stdio: 'inherit' });
}

/** `require` resolving from bench/peer/node_modules. */
export const requirePeer = createRequire(path.join(PEER_DIR, 'package.json'));
