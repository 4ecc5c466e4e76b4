// CI check of the Dockerfile without a Docker engine: replays its stages as plain processes, so the
// check cannot drift from the file. Each stage gets a temp directory standing for /app; COPY takes
// files from the git checkout (tracked files only, as .dockerignore keeps node_modules, dist and
// data out) or from an earlier stage's directory, ENV and ARG (with the build arguments CI passes)
// are applied, RUN lines run with `sh -c`. Then the runtime stage is checked: no dev dependency
// installed, dist/ holding the product alone (no bench), compose's migrate command applies the
// migrations to a fresh PostgreSQL database, the CMD starts, the HEALTHCHECK command passes
// (/readyz), /healthz names the build's version and commit, SIGTERM stops it; then the operator commands the Dockerfile documents (`# docker run … IMAGE
// <command>`) and the npm scripts of two of them run there, and still no dev dependency is installed
// nor dist/ rebuilt. Usage: CHECK_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres node scripts/check-dockerfile.mjs
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const serverUrl = process.env.CHECK_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!serverUrl) throw new Error('set CHECK_DATABASE_URL to a PostgreSQL server URL (a fresh database is created on it)');
const { Client } = createRequire(path.join(root, 'package.json'))('pg');

/** Packages npm warned about with EBADENGINE. */
function engineWarnings(stderr) {
  return [...stderr.matchAll(/EBADENGINE\s+package: '((?:@[^/@']+\/)?[^@']+)@/g)].map((m) => m[1]);
}

/** Dockerfile → stages of [instruction, argument text], continuation lines joined, comments dropped. */
function parseDockerfile(text) {
  const stages = [];
  const args = {};
  const logical = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  for (const line of logical) {
    const [, op, rest] = /^(\w+)\s+(.*)$/.exec(line);
    const expanded = rest.replace(/\$\{(\w+)\}/g, (_, name) => args[name] ?? '');
    if (op === 'ARG' && !stages.length) {
      const [name, value] = rest.split('=');
      args[name] = value;
    } else if (op === 'FROM') stages.push({ name: /\bAS\s+(\S+)/i.exec(rest)?.[1], steps: [] });
    else stages.at(-1).steps.push([op, expanded]);
  }
  return stages;
}

/** The JSON array of an exec-form CMD (after any HEALTHCHECK options and its CMD keyword). */
const execForm = (text) => JSON.parse(text.slice(text.indexOf('[')));

const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
// What CI's `docker build` is given (the Dockerfile's first comment lines).
const buildArgs = { BUILD_COMMIT: execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim() };

/** COPY from the build context: a file lands in a directory destination (trailing slash, several sources) or at it; a directory's contents go under it. */
function copyFromContext(sources, destText, dir) {
  const intoDir = destText.endsWith('/') || sources.length > 1;
  const dest = path.resolve(dir, destText.replace(/^\/app\/?/, './'));
  for (const src of sources) {
    const prefix = src === '.' ? '' : src.replace(/\/$/, '');
    if (tracked.includes(prefix)) {
      const target = intoDir ? path.join(dest, path.basename(prefix)) : dest;
      mkdirSync(path.dirname(target), { recursive: true });
      cpSync(path.join(root, prefix), target, { preserveTimestamps: true });
      continue;
    }
    const files = tracked.filter((f) => prefix === '' || f.startsWith(`${prefix}/`));
    if (!files.length) throw new Error(`COPY ${src}: not in the build context`);
    for (const f of files) {
      const target = path.join(dest, prefix ? path.relative(prefix, f) : f);
      mkdirSync(path.dirname(target), { recursive: true });
      cpSync(path.join(root, f), target, { preserveTimestamps: true });
    }
  }
}

const stages = parseDockerfile(readFileSync(path.join(root, 'Dockerfile'), 'utf8'));
const dirs = {};
const work = mkdtempSync(path.join(os.tmpdir(), 'dockerfile-check-'));
let final;
for (const stage of stages) {
  const dir = path.join(work, stage.name);
  mkdirSync(dir);
  dirs[stage.name] = dir;
  const env = { ...process.env, npm_config_prefer_offline: 'true' };
  let cmd;
  let healthcheck;
  console.log(`\n=== stage ${stage.name}`);
  for (const [op, text] of stage.steps) {
    if (op === 'ENV') for (const [, k, v] of text.matchAll(/(\w+)=(\S+)/g)) env[k] = v.startsWith('/app') ? path.join(dir, v.slice(4)) : v;
    else if (op === 'ARG') {
      // A stage's ARG is in its RUN lines' environment: the build argument given, else its default.
      const [name, value] = text.split('=');
      if ((buildArgs[name] ?? value) !== undefined) env[name] = buildArgs[name] ?? value;
    } else if (op === 'COPY') {
      const from = /--from=(\S+)/.exec(text)?.[1];
      const parts = text.replace(/--\S+\s+/g, '').split(/\s+/);
      const destText = parts.pop();
      if (from)
        for (const src of parts)
          cpSync(path.join(dirs[from], src.replace(/^\/app\/?/, '')), path.resolve(dir, destText.replace(/^\/app\/?/, './')), { recursive: true });
      else copyFromContext(parts, destText, dir);
    } else if (op === 'RUN') {
      console.log(`--- RUN ${text}`);
      // The image's `node` user does not exist here; ownership is the one step that cannot be replayed.
      const run = spawnSync('/bin/sh', ['-c', text.replace(/chown node:node/g, 'true')], {
        cwd: dir,
        env,
        stdio: ['ignore', 'inherit', 'pipe'],
        encoding: 'utf8',
      });
      process.stderr.write(run.stderr);
      if (run.status !== 0) throw new Error(`RUN ${text}: exit status ${run.status}`);
      // A clean install has no engine warnings on any Node the README supports (the benchmark's
      // PostGraphile peer, which declares Node >= 22, is a package of its own: bench/peer).
      const offenders = engineWarnings(run.stderr);
      if (offenders.length) throw new Error(`RUN ${text}: EBADENGINE warnings for ${offenders.join(', ')}`);
    } else if (op === 'CMD') cmd = execForm(text);
    else if (op === 'HEALTHCHECK') healthcheck = execForm(text);
  }
  final = { dir, env, cmd, healthcheck };
}

// Production dependencies only in the final image (checked again after the operator commands ran).
const noDevDependencies = () => {
  for (const dev of ['jest', '@swc/jest', '@swc/core', '@swc/cli', 'eslint', 'supertest', '@graphql-codegen/cli']) {
    if (existsSync(path.join(final.dir, 'node_modules', dev))) throw new Error(`dev dependency ${dev} is in the runtime image`);
  }
};
noDevDependencies();
// The product holds only the product: the gateway and its operator scripts (the bench builds into dist-bench/ of its own).
const shipped = readdirSync(path.join(final.dir, 'dist')).sort();
if (shipped.join(' ') !== 'build-info.json scripts src')
  throw new Error(`dist/ in the runtime image holds ${shipped.join(', ')}: expected build-info.json, scripts and src`);
const builtAt = statSync(path.join(final.dir, 'dist', 'build-info.json')).mtimeMs;

// The operator commands as the Dockerfile's comments give them: `docker run [options] IMAGE <argv>`
// (no quoting), `-i` when the command reads standard input (admin-create's password).
const dockerfileText = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
const operatorCommands = [...dockerfileText.matchAll(/^#\s+docker run (.*?) IMAGE (.+)$/gm)].map(([, options, command]) => ({
  argv: command.trim().split(/\s+/),
  stdin: /(^|\s)-i/.test(options),
}));
if (operatorCommands.length < 4) throw new Error('the Dockerfile documents fewer than the four operator commands (docker run … IMAGE node dist/scripts/…)');

// The CMD is package.json's start command, node flags included (docs/benchmarks.md, "Memory"): the
// image, `npm start`, the README's production start line (test/production-path.test.ts) and the
// benchmark run the gateway alike.
const start = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start;
const startCommand = /\bnode(?: --\S+)* dist\/src\/main\.js$/.exec(start)?.[0];
if (final.cmd.join(' ') !== startCommand)
  throw new Error(`CMD ${JSON.stringify(final.cmd)} differs from package.json's start command (${startCommand ?? start})`);

const database = `gateway_dockerfile_${process.pid}`;
const admin = new Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${database}`);
const url = new URL(serverUrl);
url.pathname = `/${database}`;
const env = { ...final.env, DATABASE_URL: url.toString(), JWT_SECRET: 'dockerfile-check-secret-of-at-least-32-chars', PORT: '0' };
let server;
try {
  const migrate = execForm(/migrate:[\s\S]*?command:\s*(\[.*\])/.exec(readFileSync(path.join(root, 'compose.yaml'), 'utf8'))[1]);
  console.log(`--- migrate job: ${migrate.join(' ')}`);
  execFileSync(migrate[0], migrate.slice(1), { cwd: final.dir, env, stdio: 'inherit' });

  console.log(`--- CMD ${final.cmd.join(' ')}`);
  server = spawn(final.cmd[0], final.cmd.slice(1), { cwd: final.dir, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    let buffer = '';
    server.stdout.on('data', (d) => {
      buffer += d;
      const m = /"port":(\d+)/.exec(buffer);
      if (m) resolve(m[1]);
    });
    server.on('exit', (code) => reject(new Error(`the gateway exited (${code}) before listening`)));
  });
  console.log(`--- HEALTHCHECK (port ${port})`);
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      execFileSync(final.healthcheck[0], final.healthcheck.slice(1), { cwd: final.dir, env: { ...env, PORT: port } });
      break;
    } catch (err) {
      if (Date.now() > deadline) throw new Error('HEALTHCHECK did not pass within 60 s', { cause: err });
      await sleep(500);
    }
  }
  const alive = await (await globalThis.fetch(`http://127.0.0.1:${port}/healthz`)).json();
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  if (alive.version !== version || alive.commit !== buildArgs.BUILD_COMMIT)
    throw new Error(`/healthz says ${JSON.stringify(alive)}: not version ${version} and commit ${buildArgs.BUILD_COMMIT} (BUILD_COMMIT)`);
  server.kill('SIGTERM');
  const code = await new Promise((resolve) => server.on('exit', resolve));
  if (code !== 0) throw new Error(`the gateway exited ${code} on SIGTERM`);

  // Then the operator commands, on the migrated database, as documented; and the npm scripts of two
  // of them, which must not build or install there either.
  const commands = [...operatorCommands, { argv: ['npm', 'run', 'migrate'] }, { argv: ['npm', 'run', 'audit:verify'] }];
  for (const { argv, stdin } of commands) {
    console.log(`--- ${argv.join(' ')}`);
    const run = spawnSync(argv[0], argv.slice(1), {
      cwd: final.dir,
      env,
      input: stdin ? 'Dockerfile-Check-Passw0rd\n' : undefined,
      stdio: [stdin ? 'pipe' : 'ignore', 'inherit', 'inherit'],
    });
    if (run.status !== 0) throw new Error(`${argv.join(' ')}: exit status ${run.status}`);
  }
  noDevDependencies();
  if (statSync(path.join(final.dir, 'dist', 'build-info.json')).mtimeMs !== builtAt) throw new Error('an operator command rebuilt dist/ in the runtime image');
  console.log(`\nDockerfile check passed: production install, build, migrate, start, ready (/healthz: ${version}, ${alive.commit}), SIGTERM exit 0`);
  console.log(`and on the production dependencies, nothing rebuilt: ${commands.map(({ argv }) => argv.join(' ')).join('; ')}`);
} finally {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.end();
  rmSync(work, { recursive: true, force: true });
}
