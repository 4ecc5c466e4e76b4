import { spawn } from 'node:child_process';
import { fromRoot } from '../src/platform/paths';
import { DEMO_EMAILS } from './support/harness';
import { childDatabase } from './support/entry-process';

/**
 * `npm run admin:create` as an operator runs it: the script itself (transpiled on the fly), stdin a
 * pipe left open or a terminal (`script` gives it a pseudo-terminal), against a copy of the seeded
 * database. PostgreSQL only: the embedded database's files belong to one process at a time.
 */
const started: Array<ReturnType<typeof spawn>> = [];

function adminCreate(args: string[], env: Record<string, string>, options: { terminal: boolean; input?: string }) {
  const command = [process.execPath, '-r', fromRoot('scripts/ts-register.cjs'), fromRoot('scripts/admin-create.ts'), ...args];
  const quoted = command.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = options.terminal
    ? spawn('script', ['-qec', quoted, '/dev/null'], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] })
    : spawn(command[0], command.slice(1), { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  started.push(child);
  let output = '';
  let typed = false;
  const read = (d: Buffer) => {
    output += d;
    // At the first prompt, both lines at once (pasted); stdin stays open (a terminal does not close).
    if (options.input && !typed && output.includes('Password: ')) {
      typed = true;
      child.stdin.write(options.input);
    }
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve)).finally(() => child.stdin.destroy());
  return { exited, output: () => output };
}

// On every engine: a command line it cannot use is refused before any prompt or database, with stdin left open.
it('refuses a command line without --email or with an unknown option: exit 1 and the usage, no prompt', async () => {
  for (const args of [
    ['--name', 'Ops'],
    ['--email', 'ops@example.com', '--name', 'Ops', '--bogus', '1'],
  ]) {
    const run = adminCreate(args, { DATABASE_URL: '' }, { terminal: false });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain('Usage: npm run admin:create -- --email E --name N [--password P]');
    expect(run.output()).not.toContain('Password: ');
  }
});

const serverUrl = process.env.TEST_DATABASE_URL;
if (serverUrl) {
  describe('npm run admin:create', () => {
    let db: Awaited<ReturnType<typeof childDatabase>>;
    beforeAll(async () => {
      db = await childDatabase('', 'admin_create');
    });
    afterAll(() => db.drop());
    // A run that hangs (the failure under test) must not outlive its test.
    afterEach(() => started.filter((c) => c.exitCode === null).forEach((c) => c.kill('SIGKILL')));

    it('for an existing admin asks for no password: it finishes with stdin open and unread', async () => {
      const run = adminCreate(['--email', DEMO_EMAILS.admin, '--name', 'Ops'], db.env, { terminal: false });
      expect(await run.exited).toBe(0);
      expect(run.output()).toContain(`already an admin, unchanged: ${DEMO_EMAILS.admin}`);
      expect(run.output()).not.toContain('Password');
    });

    it('says that --password is not used for an existing account', async () => {
      const run = adminCreate(['--email', DEMO_EMAILS.investor, '--name', 'Ops', '--password', 'Another-Passw0rd'], db.env, { terminal: false });
      expect(await run.exited).toBe(0);
      expect(run.output()).toContain(`promoted to admin: ${DEMO_EMAILS.investor}`);
      expect(run.output()).toContain('the account keeps its password; --password was not used');
    });

    it('on a terminal asks twice, not echoed, and reads a second line pasted with the first', async () => {
      const run = adminCreate(['--email', 'new-admin@example.com', '--name', 'New Admin'], db.env, {
        terminal: true,
        input: 'Pasted-Passw0rd\rPasted-Passw0rd\r',
      });
      expect(await run.exited).toBe(0);
      expect(run.output()).toMatch(/Password: [\s\S]*Repeat password: [\s\S]*created admin: new-admin@example.com/);
      expect(run.output()).not.toContain('Pasted-Passw0rd');
    });
  });
}
