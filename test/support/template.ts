export const TEMPLATE_INFO_ENV = 'GATEWAY_TEST_TEMPLATE';

export interface TemplateInfo {
  kind: 'pglite' | 'postgres';
  /** PGlite: a data-dir tarball; PostgreSQL: the template database name. */
  location: string;
  /** PostgreSQL: server URL without database (…/postgres for admin statements). */
  serverUrl?: string;
}

/** Size of the demo data set the tests run against: small, but with every status represented. */
export const TEST_SEED = { investors: 12, seed: 7 };

/**
 * PostgreSQL: the test files' copies of this run's template share a prefix, so the global teardown
 * drops them all at once (each DROP DATABASE waits for a checkpoint; concurrent ones share it).
 */
export function clonePrefix(info: TemplateInfo): string {
  return `${info.location.replace('gateway_tpl_', 'gateway_t_')}_`;
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * PostgreSQL runs use two roles, as production does (docs/operations.md "Database roles"): the
 * template is migrated and seeded as the owner, and every gateway under test connects as the
 * runtime role, which src/db/grants.ts grants rows only. Roles are the cluster's: shared by runs.
 */
export const TEST_ROLES = { owner: 'gateway_test_owner', runtime: 'gateway_test_runtime' } as const;

/** The same URL, logging in as `role` (the machine's PostgreSQL trusts local logins). */
export function asRole(url: string, role: string): string {
  const u = new URL(url);
  u.username = role;
  u.password = '';
  return u.toString();
}
