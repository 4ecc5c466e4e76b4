import { spawn, execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { DEMO_EMAILS, DEMO_PASSWORD } from '../src/db/seed';
import { fromRoot } from '../src/paths';
import { freePort } from './support/nginx';
import { withDatabase } from './support/template';

/** The README's production block, verbatim: the fenced block after the `production-path` marker. */
function readmeProductionBlock(): string {
  const readme = readFileSync(fromRoot('README.md'), 'utf8');
  const block = /<!-- production-path[^>]*-->\s*```sh\n([\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('README.md has no production-path block');
  return block[1];
}

describe('the README production block', () => {
  it('uses only commands package.json defines, with the production start last', () => {
    const lines = readmeProductionBlock().trim().split('\n');
    const scripts = Object.keys((JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
    for (const line of lines) expect(scripts).toContain(/^(?:\w+=\S+ )*npm (?:run )?([\w:]+)/.exec(line)?.[1]);
    expect(lines.at(-1)).toBe('NODE_ENV=production npm start');
  });
});

// A fresh clone, a fresh PostgreSQL database, the README's commands as an operator pastes them.
// PostgreSQL only: production runs on a database server (the embedded PGlite is for development).
const serverUrl = process.env.TEST_DATABASE_URL;
if (serverUrl) {
  describe('the README production path from a clean clone (PostgreSQL)', () => {
    const clone = mkdtempSync(path.join(os.tmpdir(), 'gateway-clone-'));
    const database = `gateway_prod_path_${process.pid}`;
    const admin = new Client({ connectionString: serverUrl });
    const operator = { email: 'ops@example.com', password: 'Operator-Passw0rd' };

    beforeAll(async () => {
      execFileSync('git', ['clone', '--quiet', '--no-checkout', fromRoot(), clone]);
      execFileSync('git', ['-C', clone, 'checkout', '--quiet', execFileSync('git', ['-C', fromRoot(), 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim()]);
      // Reuse the installed packages (hard links, so nothing the clone does reaches this checkout's
      // copy), marked as installed after the clone's lock file so `npm ci` is not needed again.
      execFileSync('cp', ['-al', fromRoot('node_modules'), path.join(clone, 'node_modules')]);
      const marker = path.join(clone, 'node_modules', '.package-lock.json');
      rmSync(marker);
      copyFileSync(fromRoot('node_modules', '.package-lock.json'), marker);
      const now = new Date();
      utimesSync(marker, now, now);
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${database}`);
    }, 5 * 60_000);

    afterAll(async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
      rmSync(clone, { recursive: true, force: true });
    });

    it(
      'migrate, admin:create and NODE_ENV=production npm start: no demo logins, the new admin logs in, /readyz 200',
      async () => {
        const port = await freePort();
        const script = path.join(clone, '.production-path.sh');
        writeFileSync(script, readmeProductionBlock());
        const env: NodeJS.ProcessEnv = {
          ...process.env,
          DATABASE_URL: withDatabase(serverUrl, database),
          JWT_SECRET: 'production-path-test-secret-0123456789abcdef',
          PORT: String(port),
          NODE_ENV: '',
        };
        delete env.TEST_DATABASE_URL;
        // Its own process group, so the whole tree (bash, npm, node) can be stopped at the end.
        const run = spawn('bash', ['-e', script], { cwd: clone, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
        run.stdin.end(`${operator.password}\n`); // admin:create reads the password from a pipe
        let output = '';
        run.stdout.on('data', (d) => (output += d));
        run.stderr.on('data', (d) => (output += d));
        // 'close', not 'exit': also waits for the group's other processes (npm, node) holding the output pipes.
        const exited = new Promise<number | null>((resolve) => run.on('close', resolve));
        try {
          // Bounded wait for readiness (a fresh clone builds first), failing at once if the block stops.
          let ready = false;
          for (const deadline = Date.now() + 8 * 60_000; !ready && Date.now() < deadline && run.exitCode === null;) {
            ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
              (r) => r.status === 200,
              () => false,
            );
            if (!ready) await new Promise((r) => setTimeout(r, 500));
          }
          if (!ready) throw new Error(`the production path did not become ready:\n${output}`);
          expect(output).toContain(`created admin: ${operator.email}`);
          expect(output).not.toContain('EBADENGINE');

          const login = (email: string, password: string) =>
            fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ email, password }),
            });
          for (const email of Object.values(DEMO_EMAILS)) expect((await login(email, DEMO_PASSWORD)).status).toBe(422);
          const res = await login(operator.email, operator.password);
          expect(res.status).toBe(200);
          expect(((await res.json()) as { data: { user: { role: string } } }).data.user.role).toBe('admin');
          expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
        } finally {
          if (run.exitCode === null) process.kill(-run.pid!, 'SIGTERM');
          await exited;
        }
      },
      10 * 60_000,
    );
  });
}
