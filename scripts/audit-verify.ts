/**
 * Operator and auditor command: walks the audit hash chain of DATABASE_URL (or the embedded PGlite
 * under DATA_DIR). Exit 0 with the count when intact; exit 1 naming the first event that was changed,
 * removed or inserted out of order (docs/audit.md).
 *
 *   npm run audit:verify                                    seal what is finished, then verify
 *   npm run audit:verify -- --public-key audit.pub [...]    also against the signed checkpoints,
 *                                                           read-only: no seal, no migration
 *     [--checkpoints DIR]   the checkpoints from a local copy (DIR/audit-checkpoints/…) instead of the
 *                           configured file store (STORAGE=s3 with read-only credentials, or STORAGE_DIR)
 *
 * `--public-key` is repeatable (every key that signed a checkpoint, after a rotation). Without it,
 * the public halves of AUDIT_SIGNING_KEY and AUDIT_SIGNING_KEY_PREVIOUS are used when set.
 */
import type { KeyObject } from 'node:crypto';
import { loadConfig, readEd25519Key } from '../src/platform/config';
import { openDatabase } from '../src/db/database';
import { present } from '../src/platform/invariant';
import { applyMigrations, pendingMigrations } from '../src/db/migrate';
import { createLogger } from '../src/platform/logger';
import { createServices } from '../src/services';
import type { AuditService, VerifyOptions } from '../src/services/audit.service';
import { keyring } from '../src/services/audit-checkpoints';
import { createFileStorage } from '../src/services/storage';
import { LocalFileStorage } from '../src/services/storage/local-file-storage';

export async function runVerify(audit: AuditService, print: (line: string) => void, options: VerifyOptions = {}): Promise<number> {
  const result = await audit.verify(options);
  if (!result.ok) {
    const problem = present(result.problem, 'the broken event');
    const where = problem.eventId ? ` at event ${problem.eventId}` : '';
    print(`audit trail BROKEN${where}: ${problem.message} (${result.count} events verified before it)`);
    return 1;
  }
  const pruned = result.pruned ? `, ${result.pruned} earlier events removed by retention` : '';
  const pending = result.pending ? `, ${result.pending} not sealed yet (transactions still running)` : '';
  print(`audit trail intact: ${result.count} events${pruned}${pending}; head #${result.head.seq} ${result.head.hash}`);
  const cp = result.checkpoints;
  if (cp) {
    const last = cp.last ? `, the newest #${cp.last.seq} signed ${cp.last.at} by key ${cp.last.keyId}` : '';
    const before = cp.beforeRetention ? `; ${cp.beforeRetention} older ones cover events removed by retention` : '';
    print(`matches ${cp.matched} signed checkpoints${last}${before}; ${cp.eventsAfter} events after the newest are not covered by a checkpoint yet`);
  }
  return 0;
}

interface Args {
  publicKeys: string[];
  checkpointsDir: string | undefined;
}

export function parseArgs(argv: string[]): Args {
  const args: Args = { publicKeys: [], checkpointsDir: undefined };
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1];
    if ((argv[i] === '--public-key' || argv[i] === '--checkpoints') && !value) throw new Error(`${argv[i]} needs a value`);
    if (argv[i] === '--public-key') args.publicKeys.push(value);
    else if (argv[i] === '--checkpoints') args.checkpointsDir = value;
    else throw new Error(`unknown argument ${argv[i]} (expected --public-key FILE, --checkpoints DIR)`);
    i++;
  }
  return args;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const config = loadConfig();
  // An auditor's run: the public keys alone, and nothing written anywhere.
  const readOnly = args.publicKeys.length > 0;
  const keys: KeyObject[] = readOnly
    ? args.publicKeys.map((file) => readEd25519Key(file, 'public'))
    : [config.auditSigningKey, config.auditSigningKeyPrevious].filter((k): k is KeyObject => k !== undefined);
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    // A fresh clone's embedded database has no tables yet (never in a read-only run).
    if (!readOnly && (await pendingMigrations(db)).length) await applyMigrations(db.adapterFactory);
    const storage = args.checkpointsDir ? new LocalFileStorage(args.checkpointsDir) : createFileStorage(config);
    const options: VerifyOptions = { seal: !readOnly, checkpoints: keys.length ? { storage, keys: keyring(keys) } : undefined };
    process.exitCode = await runVerify(createServices(db, config, createLogger('silent')).audit, (line) => console.log(line), options);
  } finally {
    await db.close();
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(2);
  });
}
