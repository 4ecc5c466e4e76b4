import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childDatabase, startEntry } from './support/entry-process';
import { budget } from './support/time-budget';

/**
 * Guests cannot grow a gateway's heap (issue 22, finding 2): thousands of distinct large inputs —
 * variables, documents, automatic persisted queries — go through the real entry point, and its
 * heap after full collections (`--expose-gc`, measured in the child with process.memoryUsage())
 * stays within HEAP_GROWTH_BOUND of what it was after a warm-up. The bound is the sum of the caches'
 * byte limits (src/platform/bounded-cache.ts: 4 + 8 + 1 MiB, plus 2 MiB for each of the 4 rate limiters)
 * and room for what the process allocates anyway (JIT code, pools); docs/api.md "Limits".
 */
const MiB = 1024 * 1024;
const HEAP_GROWTH_BOUND = 32 * MiB;
/** Under GRAPHQL_BODY_LIMIT (100 kB) with the rest of the body. */
const LARGE = 90_000;

const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-'));
let server: ReturnType<typeof startEntry>;
let base: string;
let drop: () => Promise<void>;

beforeAll(async () => {
  const db = await childDatabase(dataDir, 'memory');
  drop = db.drop;
  server = startEntry(
    { SEED_ON_START: 'false', NODE_ENV: 'development', DATABASE_URL: '', AUTH_RATE_LIMIT_PER_MINUTE: '0', ...db.env },
    { nodeArgs: ['--expose-gc', '-r', path.join(__dirname, 'support', 'heap-probe.cjs')], ipc: true },
  );
  const port = (await server.logged((l) => typeof l.port === 'number')).port as number;
  await server.logged((l) => l.msg === 'ready');
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.child.kill('SIGTERM');
  await server.exited;
  await drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The child's heap after full collections. */
function heapUsed(): Promise<number> {
  return new Promise((resolve) => {
    server.child.once('message', (m: { heap: NodeJS.MemoryUsage }) => resolve(m.heap.heapUsed));
    server.child.send('heap');
  });
}

async function graphql(body: unknown): Promise<number> {
  const res = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await res.arrayBuffer();
  return res.status;
}

/** Sends every request, a few at a time, and collects the statuses seen. */
async function flood(count: number, request: (i: number) => unknown): Promise<Set<number>> {
  const statuses = new Set<number>();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) statuses.add(await graphql(request(i)));
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return statuses;
}

const unique = (i: number, length: number) => `${i}-`.padEnd(length, 'x');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A large variable, new each time, in one of ten documents: what the cost limit once remembered. */
const largeVariables = (i: number) => ({
  query: `query Units${i % 10}($f: UnitFilter) { publicUnits(filter: $f, perPage: 1) { pageInfo { total } } }`,
  variables: { f: { q: unique(i, LARGE) } },
});
/** A distinct valid document, large once parsed: every comment is a token it keeps (3 bytes each in JSON). */
const largeDocuments = (i: number) => ({ query: `query Doc${i} { __typename }\n${'#\n'.repeat(LARGE / 3)}` });
/** A distinct automatic persisted query registered with its text. */
const persistedQueries = (i: number) => {
  const query = `query Apq${i} { __typename }${' '.repeat(LARGE)}`;
  return { query, extensions: { persistedQuery: { version: 1, sha256Hash: sha256(query) } } };
};

// Measured (2026-11-26, PGlite): 51.0 → 62.6 MiB with the bounds; 50.9 → 931.9 MiB without them.
it(
  '1 500 distinct large variables, documents and persisted queries from guests leave the heap within its bound',
  async () => {
    // Warm-up: every path has run once (code compiled, pools filled) before the baseline.
    for (const request of [largeVariables, largeDocuments, persistedQueries]) await graphql(request(-1));
    const before = await heapUsed();

    const statuses = new Set<number>();
    // 600 × 90 kB variables in ten documents (the cost memo once kept 100 per document: 54 MB),
    // 300 documents of 30 000 comments (~3.6 MB each once parsed), 600 × 90 kB persisted queries.
    for (const [request, count] of [
      [largeVariables, 600],
      [largeDocuments, 300],
      [persistedQueries, 600],
    ] as const) {
      for (const status of await flood(count, request)) statuses.add(status);
    }
    const after = await heapUsed();

    // Answered as a client error (the search text is too long) or run: never a server failure.
    expect([...statuses].filter((s) => s !== 200 && s !== 400)).toEqual([]);
    expect(after - before).toBeLessThan(HEAP_GROWTH_BOUND);
  },
  budget(120_000),
);
