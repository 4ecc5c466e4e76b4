import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { childDatabase, startEntry } from './support/entry-process';
import { budget } from './support/time-budget';

/**
 * ROLE splits one gateway into API processes and background workers (docs/scaling.md). Each role is
 * started through the real entry point; the API is the same routes either way, so one public route
 * and /graphql stand for it.
 */
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gateway-roles-'));
let db: Awaited<ReturnType<typeof childDatabase>>;
const started: Array<ReturnType<typeof startEntry>> = [];

beforeAll(async () => {
  db = await childDatabase(dataDir, 'roles');
});
afterEach(async () => {
  for (const s of started.splice(0)) {
    if (s.child.exitCode === null) s.child.kill('SIGKILL');
    await s.exited;
  }
});
afterAll(async () => {
  await db.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

// Starting the real entry point (TypeScript transpiled on the fly, an embedded database migrated) is slow on a busy machine.
const PROCESS_TEST_MS = budget(150_000);

async function start(role: string) {
  const server = startEntry({ ...db.env, ROLE: role, SEED_ON_START: 'false', NODE_ENV: 'development', PUSH_WORKER_INTERVAL_MS: '100' });
  started.push(server);
  const port = (await server.logged((l) => typeof l.port === 'number')).port as number;
  const ready = await server.logged((l) => l.msg === 'ready');
  const get = (p: string) => fetch(`http://127.0.0.1:${port}${p}`).then((r) => r.status);
  /** /readyz also wants a fresh database ping (within a second): on a busy machine one may be late, so poll. */
  const ready200 = async () => {
    while ((await get('/readyz')) !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
    return 200;
  };
  const graphql = () =>
    fetch(`http://127.0.0.1:${port}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' }).then(
      (r) => r.status,
    );
  return { server, ready, get, graphql, ready200 };
}

it(
  'ROLE=worker runs the push outbox and the audit sealer and serves health only, no API',
  async () => {
    const { ready, get, graphql, ready200 } = await start('worker');
    expect(ready).toMatchObject({ role: 'worker', jobs: ['push outbox', 'audit sealer'] });
    expect(await get('/healthz')).toBe(200);
    expect(await ready200()).toBe(200);
    expect(await get('/api/v1/public/categories')).toBe(404);
    expect(await get('/api/v1/openapi.json')).toBe(404);
    expect(await graphql()).toBe(404);
  },
  PROCESS_TEST_MS,
);

it(
  'ROLE=api serves the API and starts no background job',
  async () => {
    const { server, ready, get, graphql, ready200 } = await start('api');
    expect(ready).toMatchObject({ role: 'api', jobs: [] });
    expect(await ready200()).toBe(200);
    expect(await get('/api/v1/public/categories')).toBe(200);
    expect(await graphql()).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.lines.some((l) => l.msg === 'push outbox drained' || l.msg === 'audit sealer failed')).toBe(false);
  },
  PROCESS_TEST_MS,
);

it(
  'ROLE=all (the default) does both',
  async () => {
    const { ready, get } = await start('all');
    expect(ready).toMatchObject({ role: 'all', jobs: ['push outbox', 'audit sealer'] });
    expect(await get('/api/v1/public/categories')).toBe(200);
  },
  PROCESS_TEST_MS,
);

it('refuses an unknown ROLE with one line naming it', async () => {
  const server = startEntry({ ROLE: 'scheduler' });
  started.push(server);
  expect(await server.exited).toBe(1);
  expect(server.stderr()).toContain('ROLE must be all, api or worker (got "scheduler")');
});
