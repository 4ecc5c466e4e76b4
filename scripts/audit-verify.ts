/**
 * Operator command: seals what is finished, then walks the audit hash chain of DATABASE_URL (or the
 * embedded PGlite under DATA_DIR). Exit 0 with the count when intact; exit 1 naming the first event
 * that was changed, removed or inserted out of order (docs/audit.md).
 */
import { loadConfig } from '../src/platform/config';
import { openDatabase } from '../src/db/database';
import { present } from '../src/platform/invariant';
import { applyMigrations } from '../src/db/migrate';
import { createLogger } from '../src/platform/logger';
import { createServices } from '../src/services';
import type { AuditService } from '../src/services/audit.service';

export async function runVerify(audit: AuditService, print: (line: string) => void): Promise<number> {
  const result = await audit.verify();
  if (!result.ok) {
    const problem = present(result.problem, 'the broken event');
    print(`audit trail BROKEN at event ${problem.eventId}: ${problem.message} (${result.count} events verified before it)`);
    return 1;
  }
  const pruned = result.pruned ? `, ${result.pruned} earlier events removed by retention` : '';
  const pending = result.pending ? `, ${result.pending} not sealed yet (transactions still running)` : '';
  print(`audit trail intact: ${result.count} events${pruned}${pending}; head #${result.head.seq} ${result.head.hash}`);
  return 0;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    // A fresh clone's embedded database has no tables yet.
    await applyMigrations(db.adapterFactory);
    process.exitCode = await runVerify(createServices(db, config, createLogger('silent')).audit, (line) => console.log(line));
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
