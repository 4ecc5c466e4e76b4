import { spawn, execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { DEMO_EMAILS, DEMO_PASSWORD } from '../src/db/seed';
import { fromRoot } from '../src/platform/paths';
import { TEST_ROLES, asRole, withDatabase } from './support/template';
import { budget } from './support/time-budget';

/** The README's production block, verbatim: the fenced block after the `production-path` marker. */
function readmeProductionBlock(): string {
  const readme = readFileSync(fromRoot('README.md'), 'utf8');
  const block = /<!-- production-path[^>]*-->\s*```sh\n([\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('README.md has no production-path block');
  return block[1];
}

/** The node command of package.json's start script: the one home of the gateway's node flags. */
function startCommand(): string {
  const { scripts } = JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')) as { scripts: Record<string, string> };
  const command = /\bnode(?: --\S+)* dist\/src\/main\.js$/.exec(scripts.start)?.[0];
  if (!command) throw new Error(`package.json's start script does not end in node [--flag…] dist/src/main.js: ${scripts.start}`);
  return command;
}

describe('the README production block', () => {
  it("prepares with commands package.json defines, then starts the built gateway as one process with the start script's flags", () => {
    const lines = readmeProductionBlock().trim().split('\n');
    const scripts = Object.keys((JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
    for (const line of lines.slice(0, -1)) expect(scripts).toContain(/^(?:\w+=\S+ )*npm (?:run )?([\w:]+)/.exec(line)?.[1]);
    expect(lines[0]).toBe('npm run build');
    expect(lines.at(-1)).toBe(`NODE_ENV=production ${startCommand()}`);
  });
});

/** Every file under `dir` with its modification time: equal before and after, nothing rewrote it. */
function filesWithTimes(dir: string): Record<string, number> {
  return Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name))
      .map((f) => [path.relative(dir, f), statSync(f).mtimeMs]),
  );
}

/** `VAR=value … program arg …` (no quoting) → what a supervisor starts: the environment and the argv. */
function supervisedCommand(line: string): { env: Record<string, string>; argv: string[] } {
  expect(line).not.toMatch(/["'\\$;&|<>`]/);
  const words = line.split(/\s+/);
  const env: Record<string, string> = {};
  while (/^\w+=/.test(words[0])) {
    const [name, ...value] = words.shift()!.split('=');
    env[name] = value.join('=');
  }
  return { env, argv: words };
}

// A fresh clone, a fresh PostgreSQL database, the README's commands as an operator pastes them.
// PostgreSQL only: production runs on a database server (the embedded PGlite is for development).
const serverUrl = process.env.TEST_DATABASE_URL;
if (serverUrl) {
  describe('the README production path from a clean clone (PostgreSQL)', () => {
    const clone = mkdtempSync(path.join(os.tmpdir(), 'gateway-clone-'));
    const database = `gateway_prod_path_${process.pid}`;
    const admin = new Client({ connectionString: serverUrl });
    const operator = { email: 'ops@example.com', password: 'Operator-Passw0rd' };

    beforeAll(
      async () => {
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
        // The README's two roles (the suite's: test/support/template.ts), the database the owner's.
        await admin.query(`CREATE DATABASE ${database} OWNER ${TEST_ROLES.owner}`);
      },
      budget(5 * 60_000),
    );

    afterAll(async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
      rmSync(clone, { recursive: true, force: true });
    });

    /** The port in the gateway's "listening" log line (JSON lines), once it is there. */
    const listeningPort = (log: string): number => {
      for (const line of log.split('\n')) {
        const entry = /^\{.*"port":(\d+).*"msg":"listening on /.exec(line);
        if (entry) return Number(entry[1]);
      }
      return 0;
    };

    it(
      'build once, then migrate and admin:create on that build, then the start line as a supervisor runs it: no demo logins, the new admin logs in, /readyz 200, the build named, SIGTERM to that process stops the gateway',
      async () => {
        const lines = readmeProductionBlock().trim().split('\n');
        const env: NodeJS.ProcessEnv = {
          ...process.env,
          DATABASE_URL: asRole(withDatabase(serverUrl, database), TEST_ROLES.runtime),
          OWNER_DATABASE_URL: asRole(withDatabase(serverUrl, database), TEST_ROLES.owner),
          JWT_SECRET: 'production-path-test-secret-0123456789abcdef',
          // The port the gateway binds itself, read from its log: a port picked beforehand could be
          // taken by another process before the gateway listens, and that one would answer (seen under load).
          PORT: '0',
          NODE_ENV: '',
          // Only so the test can read build_info: production serves /metrics with a token (or on its own port).
          METRICS_TOKEN: 'production-path-metrics-token',
        };
        delete env.TEST_DATABASE_URL;
        // The preparation, as an operator pastes it (each part its own process group, so a failure
        // stops it all): the build line, then the rest, which must run on that build, not make another.
        const paste = async (part: string[], input = '') => {
          const script = path.join(clone, '.production-path.sh');
          writeFileSync(script, `${part.join('\n')}\n`);
          const prepare = spawn('bash', ['-e', script], { cwd: clone, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
          prepare.stdin.end(input);
          let output = '';
          prepare.stdout.on('data', (d) => (output += d));
          prepare.stderr.on('data', (d) => (output += d));
          const prepared = await new Promise<number | null>((resolve) => prepare.on('close', resolve));
          if (prepared !== 0) throw new Error(`the production preparation exited ${prepared}:\n${output}`);
          expect(output).not.toContain('EBADENGINE');
          return output;
        };
        await paste(lines.slice(0, 1));
        const built = filesWithTimes(path.join(clone, 'dist'));
        const output = await paste(lines.slice(1, -1), `${operator.password}\n`); // admin:create reads the password from a pipe
        expect(output).toContain(`created admin: ${operator.email}`);
        // Migrated as the owner, which granted the runtime role the gateway then serves as.
        expect(output).toMatch(new RegExp(`runtime role ${TEST_ROLES.runtime}: \\d+ grants made`));
        expect(filesWithTimes(path.join(clone, 'dist'))).toEqual(built);

        // The start line, exactly as a supervisor starts it: that process, and only it, is signalled.
        const start = supervisedCommand(lines.at(-1)!);
        const gateway = spawn(start.argv[0], start.argv.slice(1), { cwd: clone, env: { ...env, ...start.env }, stdio: ['ignore', 'pipe', 'pipe'] });
        let log = '';
        gateway.stdout.on('data', (d) => (log += d));
        gateway.stderr.on('data', (d) => (log += d));
        const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
          gateway.on('close', (code, signal) => resolve({ code, signal })),
        );
        let port = 0;
        try {
          const readyz = () =>
            fetch(`http://127.0.0.1:${port}/readyz`).then(
              (r) => r.status,
              () => 0,
            );
          // Bounded by the test's timeout; fails at once if the gateway stops.
          while (!(port = listeningPort(log))) {
            if (gateway.exitCode !== null) throw new Error(`the gateway exited ${gateway.exitCode} before listening:\n${log}`);
            await new Promise((r) => setTimeout(r, 200));
          }
          while ((await readyz()) !== 200) {
            if (gateway.exitCode !== null) throw new Error(`the gateway exited ${gateway.exitCode} before ready:\n${log}`);
            await new Promise((r) => setTimeout(r, 200));
          }

          // The build names itself: package.json's version and the clone's commit, which the build recorded.
          const build = {
            version: (JSON.parse(readFileSync(path.join(clone, 'package.json'), 'utf8')) as { version: string }).version,
            commit: execFileSync('git', ['-C', clone, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim(),
          };
          const listening = log.split('\n').find((l) => l.includes('"msg":"listening on '));
          expect(JSON.parse(listening ?? '{}')).toMatchObject({ ...build, node: process.version });
          expect(await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()).toEqual({ status: 'ok', ...build });
          const metrics = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${env.METRICS_TOKEN}` } });
          expect(await metrics.text()).toContain(`build_info{version="${build.version}",commit="${build.commit}",node_version="${process.version}"} 1`);

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
          expect(await readyz()).toBe(200);

          gateway.kill('SIGTERM');
          expect(await exited).toEqual({ code: 0, signal: null });
          expect(log).toContain('"msg":"stopped"');
          // Nothing else kept the port: the gateway itself stopped, not a parent in front of it.
          expect(await readyz()).toBe(0);
        } finally {
          if (gateway.exitCode === null) gateway.kill('SIGKILL');
          await exited;
        }
      },
      budget(10 * 60_000),
    );
  });
}
