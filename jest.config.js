/**
 * Shared by both projects: TypeScript transpiled by SWC with the options in .swcrc — the same as
 * `npm run build` — (type-checking is `npm run typecheck`); decorators' metadata loaded first.
 */
const base = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': '@swc/jest' },
  resolver: '<rootDir>/test/support/resolver.cjs',
  setupFiles: ['reflect-metadata'],
  // The default timeout, scaled to the machine's load (docs/testing.md "Timeouts").
  setupFilesAfterEnv: ['<rootDir>/test/support/timeouts.ts'],
  testMatch: ['**/*.test.ts'],
};

/**
 * Two projects, one `npm test` (README):
 *  - unit: test/unit, no database, no gateway (money, state machines, error mapping, coercion,
 *    pagination); milliseconds per test, and no template database is built when only these run.
 *  - integration: test/graphql (operations through Apollo's executeOperation) and the HTTP tier
 *    (test/*.test.ts, the contract through supertest). One migrated + seeded template per run;
 *    each test file gets its own copy (PGlite, or PostgreSQL with TEST_DATABASE_URL).
 *
 * @type {import('jest').Config}
 */
module.exports = {
  // More workers than the machine's 2 cores: the files that start processes or wait out timeouts
  // leave a worker idle much of the time (measured on 2 cores, docs/testing.md: PostgreSQL 176 s with
  // 2 workers, 127 s with 3, 113 s with 4; PGlite 211 s with 3, 191 s with 4).
  maxWorkers: 4,
  projects: [
    { ...base, displayName: 'unit', roots: ['<rootDir>/test/unit'] },
    {
      ...base,
      displayName: 'integration',
      roots: ['<rootDir>/test'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/unit/'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
};
