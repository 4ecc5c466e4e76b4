/**
 * Demo-data seeder for operators.
 *
 *   npm run seed -- [--investors N] [--distributions N] [--seed N] [--reset] [--force]
 *
 * DATABASE_URL=postgresql://… → that PostgreSQL (as MIGRATE_DATABASE_URL's owner when set); unset →
 * embedded PGlite under DATA_DIR (default ./data).
 * Applies pending migrations first (under the migration lock). Refuses to seed a database that
 * already holds the demo data unless --reset is given, which empties every application table (not
 * _prisma_migrations, not the audit trail) first. With NODE_ENV=production it refuses unless --force
 * is given: the demo logins share a public password.
 */
import path from 'node:path';
import { SingleBar, Presets } from 'cli-progress';
import { loadConfig } from '../src/platform/config';
import { openDatabase } from '../src/db/database';
import { runtimeGrantOf } from '../src/db/grants';
import { migrateDatabase } from '../src/db/migrate';
import { CommandError, integerOption, parseCommandLine, runCommand } from './command';
import { DEMO_EMAILS, DEMO_PASSWORD, isSeeded, seedDemoData, type SeedOptions } from '../src/db/seed';

interface Args {
  investors?: number;
  distributions?: number;
  seed?: number;
  reset: boolean;
  force: boolean;
}

const USAGE = `Usage: npm run seed -- [--investors N] [--distributions N] [--seed N] [--reset] [--force]

  --investors N       generated investors besides the demo investor (default: SEED_INVESTORS or 200)
  --distributions N   keep generating until at least N distribution rows exist (e.g. 100000 for benchmarks)
  --seed N            faker seed (default 42); the same seed gives the same data
  --reset             empty all application tables first (otherwise an already seeded database is left alone)
  --force             seed even when NODE_ENV=production (a staging system; start then needs ALLOW_DEMO_ACCOUNTS=true)

Environment: DATABASE_URL (PostgreSQL; unset = embedded PGlite), DATA_DIR (PGlite files, default ./data)`;

function parseSeedArgs(): Args {
  const values = parseCommandLine(
    {
      investors: { type: 'string' },
      distributions: { type: 'string' },
      seed: { type: 'string' },
      reset: { type: 'boolean', default: false },
      force: { type: 'boolean', default: false },
    },
    USAGE,
  );
  return {
    investors: integerOption('investors', values.investors),
    distributions: integerOption('distributions', values.distributions),
    seed: integerOption('seed', values.seed),
    reset: values.reset,
    force: values.force,
  };
}

/** A progress bar on a terminal, a line every few seconds (and per stage) otherwise. */
function progressReporter(): { onProgress: NonNullable<SeedOptions['onProgress']>; stop(): void } {
  if (process.stdout.isTTY) {
    const bar = new SingleBar(
      { format: 'Seeding [{bar}] {percentage}% | {value}/{total} rows | {stage}', hideCursor: true, clearOnComplete: false, etaBuffer: 50 },
      Presets.shades_classic,
    );
    let started = false;
    return {
      onProgress(done, total, stage) {
        if (!started) {
          bar.start(total, 0, { stage });
          started = true;
        }
        bar.setTotal(total);
        bar.update(done, { stage });
      },
      stop: () => started && bar.stop(),
    };
  }
  let lastStage = '';
  let lastAt = 0;
  return {
    onProgress(done, total, stage) {
      const now = Date.now();
      if (stage === lastStage && now - lastAt < 2000 && done < total) return;
      lastStage = stage;
      lastAt = now;
      console.log(`[seed] ${stage}: ${done}/${total} rows (${Math.floor((done / Math.max(1, total)) * 100)}%)`);
    },
    stop: () => undefined,
  };
}

async function main(): Promise<void> {
  const args = parseSeedArgs();
  const config = loadConfig();
  if (config.env === 'production' && !args.force) {
    throw new CommandError('refusing to load demo data with NODE_ENV=production (its logins share a public password); add --force for a staging system');
  }
  const { databaseUrl, dataDir } = config;
  const started = Date.now();

  // An operator's command: it runs as the tables' owner where there are two roles (--reset truncates).
  const url = config.migrateDatabaseUrl ?? databaseUrl;
  const db = await openDatabase({ databaseUrl: url, dataDir });
  try {
    console.log(url ? `Database: PostgreSQL (${redact(url)})` : `Database: PGlite in ${path.join(dataDir, 'pglite')}`);
    const applied = await migrateDatabase(db, undefined, runtimeGrantOf(config));
    console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Migrations: up to date');

    if (args.reset) {
      const tables = await db.prisma.$queryRawUnsafe<{ tablename: string }[]>(
        // The audit trail is append-only (its triggers refuse TRUNCATE) and outlives demo data.
        `SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> '_prisma_migrations' AND tablename NOT LIKE 'audit\\_%' ORDER BY tablename`,
      );
      if (tables.length) {
        await db.prisma.$executeRawUnsafe(`TRUNCATE TABLE ${tables.map((t) => `"${t.tablename}"`).join(', ')} RESTART IDENTITY CASCADE`);
      }
      console.log(`Reset: emptied ${tables.length} tables`);
    } else if (await isSeeded(db.prisma)) {
      console.error('The database already holds the demo data; run again with --reset to replace it.');
      process.exitCode = 1;
      return;
    }

    const progress = progressReporter();
    const seedStarted = Date.now();
    let summary;
    try {
      summary = await seedDemoData(db.prisma, {
        investors: args.investors ?? config.seedSize,
        distributionsTarget: args.distributions,
        seed: args.seed,
        onProgress: progress.onProgress,
      });
    } finally {
      progress.stop();
    }
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    console.log('\nSeeded:');
    const width = Math.max(...Object.keys(summary).map((k) => k.length));
    for (const [table, n] of Object.entries(summary)) console.log(`  ${table.padEnd(width)}  ${String(n).padStart(8)}`);
    console.log(`\nSeeding took ${seconds(Date.now() - seedStarted)} (total ${seconds(Date.now() - started)}).`);
    console.log(`Demo logins (password ${DEMO_PASSWORD}): ${[DEMO_EMAILS.investor, DEMO_EMAILS.admin, DEMO_EMAILS.analyst].join(', ')}`);
  } finally {
    await db.close();
  }
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'invalid URL';
  }
}

runCommand(main);
