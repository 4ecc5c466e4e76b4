/**
 * Operator command: the first admin account, or promote an existing account to admin.
 *
 *   npm run admin:create -- --email E --name N [--password P]
 *
 * Without --password the password is asked for on a terminal (twice, not echoed), or read from the
 * first line of standard input when that is a pipe (`printf '%s\n' "$PW" | npm run admin:create …`),
 * and only when the account is to be created: an existing account keeps its password, so nothing
 * is asked. Idempotent: an account that already is an admin is left as it is.
 */
import 'reflect-metadata';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { validate } from 'class-validator';
import { loadConfig } from '../src/platform/config';
import { openDatabase } from '../src/db/database';
import { pendingMigrations } from '../src/db/migrate';
import { ValidationError } from '../src/domain/errors';
import { RegisterInput } from '../src/schema/auth.type';
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

/**
 * The password from a terminal (twice, not echoed) or the first line of a pipe. One readline session
 * for both prompts: a second session would miss a line the first had already read (typed ahead,
 * pasted), and wait for ever.
 */
async function askPassword(): Promise<string> {
  const terminal = process.stdin.isTTY === true;
  let echo = true;
  // What readline echoes goes through here: nothing while a password is typed.
  const output = new Writable({ write: (chunk, _encoding, done) => (echo && process.stdout.write(chunk), done()) });
  const session = createInterface({ input: process.stdin, output, terminal });
  const lines = session[Symbol.asyncIterator]();
  const ask = async (prompt: string) => {
    if (terminal) process.stdout.write(prompt);
    echo = false;
    const { value, done } = await lines.next();
    echo = true;
    if (terminal) process.stdout.write('\n');
    if (done) throw new CommandError('no password: pass --password, type it on a terminal, or pipe it on standard input');
    return value as string;
  };
  try {
    const password = await ask('Password: ');
    if (terminal && (await ask('Repeat password: ')) !== password) throw new CommandError('the two passwords differ');
    return password;
  } finally {
    session.close();
  }
}

/**
 * Registration's rules (RegisterInput, as the GraphQL edge checks register); without a password (not
 * asked for yet), email and name only. The same field → messages mapping as a GraphQL argument error gets.
 */
async function check(email: string, name: string, password: string | undefined): Promise<void> {
  const candidate = Object.assign(new RegisterInput(), { email, name, password: password ?? '', passwordConfirmation: password ?? '' });
  const problems = (await validate(candidate, { forbidUnknownValues: false })).filter(
    (p) => password !== undefined || !['password', 'passwordConfirmation'].includes(p.property),
  );
  if (problems.length) throw ValidationError.fromClassValidator(problems);
}

runCommand(async () => {
  const args = parse();
  // Asked for only when the account is to be created, and checked before it is.
  const askChecked = async () => {
    const password = await askPassword();
    await check(args.email, args.name, password);
    return password;
  };
  const config = loadConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    if ((await pendingMigrations(db)).length) throw new CommandError('the database is not migrated: run `npm run migrate` first');
    await check(args.email, args.name, args.password);
    const { user, outcome } = await ensureAdminAccount(db.prisma, { email: args.email, name: args.name, password: args.password ?? askChecked });
    const said = { created: 'created admin', promoted: 'promoted to admin', unchanged: 'already an admin, unchanged' }[outcome];
    const kept = outcome !== 'created' && args.password !== undefined ? ' (the account keeps its password; --password was not used)' : '';
    console.log(`${said}: ${user.email} (id ${user.id})${kept}`);
  } finally {
    await db.close();
  }
});
