/**
 * Shared by both projects: TypeScript transpiled by SWC with the options in .swcrc — the same as
 * `npm run build` — (type-checking is `npm run typecheck`); decorators' metadata loaded first.
 */
const base = {
  testEnvironment: 'node',
  // Jest 30's soft clean-up of globals between files wraps their setters; a library's `set_message`
  // global then recursed until the stack overflowed and a whole file failed to run (PostgreSQL suite).
  testEnvironmentOptions: { globalsCleanup: 'off' },
  transform: { '^.+\\.ts$': '@swc/jest' },
  resolver: '<rootDir>/test/support/resolver.cjs',
  setupFiles: ['reflect-metadata'],
  // The default timeout, scaled to the machine's load (docs/testing.md "Timeouts").
  setupFilesAfterEnv: ['<rootDir>/test/support/timeouts.ts'],
  testMatch: ['**/*.test.ts'],
};

/**
 * The in-process tier: files that run the gateway's services and Apollo server in the worker itself
 * (executeOperation, services), with no spawned process, no HTTP server and one database copy each.
 */
const inProcess = ['test/graphql/', 'test/push-outbox.test.ts', 'test/schema-descriptions.test.ts'];
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const integrationSetup = {
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
};

/**
 * Three projects, one `npm test` (README); `npm run test:fast` runs the first two:
 *  - unit: test/unit, no database, no gateway (money, state machines, error mapping, coercion,
 *    pagination); milliseconds per test, and no template database is built when only these run.
 *  - in-process: test/graphql (operations through Apollo's executeOperation) and the other files in
 *    `inProcess` above.
 *  - integration: the HTTP tier (test/*.test.ts, the contract through supertest; entry points started
 *    as processes). One migrated + seeded template per run, shared by the last two projects (Jest runs
 *    a global setup once per path); each test file gets its own copy (PGlite, or PostgreSQL with
 *    TEST_DATABASE_URL).
 *
 * @type {import('jest').Config}
 */
module.exports = {
  // More workers than the machine's 2 cores: the files that start processes or wait out timeouts
  // leave a worker idle much of the time (measured on 2 cores, docs/testing.md: PostgreSQL 176 s with
  // 2 workers, 127 s with 3, 113 s with 4; PGlite 211 s with 3, 191 s with 4).
  maxWorkers: 4,
  // A worker that closed everything still takes a while to end: the kernel frees the memory its test
  // files' (closed, not yet collected) PGlite instances touched — 350–410 ms measured from the worker's
  // exit event to Jest seeing it, at a load of 6–9 on 2 cores (docs/testing.md "Rules"). With Jest's
  // 500 ms default a busy machine reported clean workers as "failed to exit gracefully". A handle that
  // keeps a worker alive is still reported; what lives shorter than this is found as written there.
  workerGracefulExitTimeout: 3000,
  projects: [
    { ...base, displayName: 'unit', roots: ['<rootDir>/test/unit'] },
    {
      ...base,
      displayName: 'in-process',
      roots: ['<rootDir>/test'],
      testMatch: inProcess.map((p) => `<rootDir>/${p}${p.endsWith('/') ? '**/*.test.ts' : ''}`),
      ...integrationSetup,
    },
    {
      ...base,
      displayName: 'integration',
      roots: ['<rootDir>/test'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/unit/', ...inProcess.map((p) => `<rootDir>/${escape(p)}`)],
      ...integrationSetup,
    },
  ],
};
