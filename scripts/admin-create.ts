/**
 * Operator command: the first admin account, or promote an existing account to admin.
 *
 *   npm run admin:create -- --email E --name N [--password P]
 *
 * Without --password the password is asked for on a terminal (twice, not echoed), or read from the
 * first line of standard input when that is a pipe (`printf '%s\n' "$PW" | npm run admin:create …`).
 * Idempotent: an account that already is an admin is left as it is.
 */
import 'reflect-metadata';
import { createInterface } from 'node:readline';
import { read } from 'read';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/database';
import { pendingMigrations } from '../src/db/migrate';
import { ensureAdminAccount } from '../src/services/admin-account.service';
import { CommandError, parseCommandLine, runCommand } from './command';

const USAGE = `Usage: npm run admin:create -- --email E --name N [--password P]
  --email      the admin's login
  --name       display name
  --password   otherwise asked for on a terminal, or read from the first line of standard input
Environment: DATABASE_URL (PostgreSQL; unset = embedded PGlite under DATA_DIR)`;

function parse(): { email: string; name: string; password?: string } {
  const values = parseCommandLine({ email: { type: 'string' }, name: { type: 'string' }, password: { type: 'string' } }, USAGE);
  if (!values.email || !values.name) throw new CommandError(`--email and --name are required\n${USAGE}`);
  return { email: values.email, name: values.name, password: values.password };
}

async function askPassword(): Promise<string> {
  if (process.stdin.isTTY) {
    const password = await read({ prompt: 'Password: ', silent: true, replace: '' });
    const again = await read({ prompt: 'Repeat password: ', silent: true, replace: '' });
    if (password !== again) throw new CommandError('the two passwords differ');
    return password;
  }
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  throw new CommandError('no password: pass --password, type it on a terminal, or pipe it on standard input');
}

runCommand(async () => {
  const args = parse();
  const password = args.password ?? (await askPassword());
  const config = loadConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    if ((await pendingMigrations(db)).length) throw new CommandError('the database is not migrated: run `npm run migrate` first');
    const { user, outcome } = await ensureAdminAccount(db.prisma, { email: args.email, name: args.name, password });
    const said = { created: 'created admin', promoted: 'promoted to admin', unchanged: 'already an admin, unchanged' }[outcome];
    console.log(`${said}: ${user.email} (id ${user.id})`);
  } finally {
    await db.close();
  }
});
