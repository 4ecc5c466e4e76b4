/**
 * Issue 38: the gateway serves as a runtime role that may only read and write rows (src/db/grants.ts,
 * docs/operations.md "Database roles"). PostgreSQL only: PGlite has one role (docs/operations.md).
 * Every other PostgreSQL test file runs its gateway as that role too (test/support/harness.ts).
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { GrantError, grantRuntimeRole, runtimeRoleOf } from '../src/db/grants';
import { loadConfig } from '../src/platform/config';
import { startTestGateway, type TestGateway } from './support/harness';
import { TEST_ROLES, asRole } from './support/template';

const DML = 'DELETE, INSERT, SELECT, UPDATE';
/**
 * Every table of the schema and what the runtime role may do on it, written out: a migration that
 * adds a table fails this test until the table is listed here with the grant it should have.
 */
const EXPECTED_GRANTS: Record<string, string> = {
  _prisma_migrations: 'SELECT',
  app_config: DML,
  audit_anchors: 'SELECT',
  audit_events: 'INSERT, SELECT',
  audit_seals: 'INSERT, SELECT',
  categories: DML,
  category_memberships: DML,
  device_tokens: DML,
  distribution_counts: DML,
  distribution_declarations: DML,
  distribution_totals: DML,
  distributions: DML,
  holdings: DML,
  idempotency_keys: DML,
  investment_requests: DML,
  investors: DML,
  kyc_documents: DML,
  legal_texts: DML,
  notifications: DML,
  password_resets: DML,
  payouts: DML,
  push_deliveries: DML,
  refresh_tokens: DML,
  sessions: DML,
  transactions: DML,
  unit_valuations: DML,
  units: DML,
  user_settings: DML,
  users: DML,
  withdrawal_requests: DML,
};

describe('the embedded default', () => {
  it('keeps one role: no second URL is accepted without PostgreSQL, and no grants step runs', () => {
    expect(() => loadConfig({ MIGRATE_DATABASE_URL: 'postgresql://owner@db:5432/gateway' })).toThrow(/MIGRATE_DATABASE_URL.*needs DATABASE_URL/);
    expect(runtimeRoleOf(undefined, undefined)).toBeUndefined();
  });
});

if (process.env.TEST_DATABASE_URL) {
  let t: TestGateway;
  let runtime: Client;
  const ownerUrl = () => t.urlAs!('owner');

  beforeAll(async () => {
    t = await startTestGateway();
    runtime = new Client({ connectionString: asRole(ownerUrl(), TEST_ROLES.runtime) });
    runtime.on('error', () => undefined); // a refused statement rejects its query
    await runtime.connect();
  });
  afterAll(async () => {
    await runtime.end();
    await t.close();
  });

  /** Each table's privileges held by the runtime role itself (not through PUBLIC), sorted. */
  async function grantsOf(role: string): Promise<Record<string, string>> {
    const { rows } = await runtime.query<{ table: string; privileges: string | null }>(
      `SELECT c.relname AS table, string_agg(a.privilege_type, ', ' ORDER BY a.privilege_type) FILTER (WHERE a.grantee = to_regrole($1)) AS privileges
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace LEFT JOIN LATERAL aclexplode(c.relacl) a ON true
       WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm') GROUP BY c.relname ORDER BY c.relname`,
      [role],
    );
    return Object.fromEntries(rows.map((r) => [r.table, r.privileges ?? '']));
  }

  /** A statement as the runtime role, in a transaction rolled back whatever happens; resolves with the error's SQLSTATE. */
  async function refusal(...statements: string[]): Promise<string | undefined> {
    await runtime.query('BEGIN');
    try {
      for (const sql of statements) await runtime.query(sql);
      return undefined;
    } catch (err) {
      return (err as { code?: string }).code;
    } finally {
      await runtime.query('ROLLBACK');
    }
  }

  describe('the runtime role', () => {
    it('holds exactly the expected privileges on every table of the schema', async () => {
      expect(await grantsOf(TEST_ROLES.runtime)).toEqual(EXPECTED_GRANTS);
    });

    it('is neither a superuser nor the owner, and may not create in the schema', async () => {
      const { rows } = await runtime.query(
        `SELECT r.rolsuper, has_schema_privilege(current_user, current_schema(), 'CREATE') AS create,
                (SELECT bool_or(pg_has_role(current_user, c.relowner, 'USAGE')) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema()) AS owns
         FROM pg_roles r WHERE r.rolname = current_user`,
      );
      expect(rows[0]).toEqual({ rolsuper: false, create: false, owns: false });
    });

    it.each(['audit_events', 'audit_seals', 'audit_anchors'])(
      'cannot rewrite %s: UPDATE, DELETE, TRUNCATE, DISABLE TRIGGER and session_replication_role all fail',
      async (table) => {
        const denied = '42501'; // insufficient_privilege
        const column = table === 'audit_events' ? 'action' : 'hash';
        expect(await refusal(`UPDATE ${table} SET ${column} = ${column}`)).toBe(denied);
        expect(await refusal(`DELETE FROM ${table}`)).toBe(denied);
        // The trigger's own escape hatch (retention's flag) is an ordinary setting: it opens nothing without DELETE.
        expect(await refusal(`SET LOCAL audit.pruning = 'on'`, `DELETE FROM ${table}`)).toBe(denied);
        expect(await refusal(`TRUNCATE ${table}`)).toBe(denied);
        expect(await refusal(`ALTER TABLE ${table} DISABLE TRIGGER USER`)).toBe(denied);
        expect(await refusal('SET session_replication_role = replica')).toBe(denied);
      },
    );

    it('runs no DDL: no table created, altered, dropped or its triggers touched', async () => {
      const denied = '42501';
      expect(await refusal('CREATE TABLE rogue (id int)')).toBe(denied);
      expect(await refusal('ALTER TABLE users ADD COLUMN rogue int')).toBe(denied);
      expect(await refusal('DROP TABLE holdings')).toBe(denied);
      expect(await refusal('ALTER TABLE distributions DISABLE TRIGGER ALL')).toBe(denied);
      expect(await refusal('TRUNCATE holdings')).toBe(denied);
    });

    it("prunes only through audit_prune(), whose tables a caller's temporary tables cannot stand in for", async () => {
      const before = (await runtime.query<{ n: string }>('SELECT count(*)::text AS n FROM audit_events')).rows[0].n;
      await runtime.query('BEGIN');
      try {
        // The caller's pg_temp comes first in its own search_path; the function's pins the schema, pg_temp last.
        await runtime.query('CREATE TEMP TABLE audit_seals (LIKE public.audit_seals) ON COMMIT DROP');
        await runtime.query(`SELECT audit_prune(now() - interval '100 years')`);
        expect((await runtime.query<{ n: string }>('SELECT count(*)::text AS n FROM public.audit_events')).rows[0].n).toBe(before);
      } finally {
        await runtime.query('ROLLBACK');
      }
    });
  });

  describe('the grants step (npm run migrate as the owner)', () => {
    it('grants a table a migration adds, and revokes a privilege granted by hand beyond the declaration', async () => {
      const table = `added_${randomBytes(3).toString('hex')}`;
      await t.sqlAs('owner', `CREATE TABLE ${table} (id int)`, `GRANT TRUNCATE, TRIGGER ON audit_events TO ${TEST_ROLES.runtime}`);
      try {
        const changes = await grantRuntimeRole(ownerUrl(), TEST_ROLES.runtime);
        expect(changes.granted).toEqual([`GRANT SELECT, INSERT, UPDATE, DELETE ON TABLE "public"."${table}" TO "${TEST_ROLES.runtime}"`]);
        expect(changes.revoked).toEqual([`REVOKE TRUNCATE, TRIGGER ON TABLE "public"."audit_events" FROM "${TEST_ROLES.runtime}"`]);
        expect(await grantsOf(TEST_ROLES.runtime)).toEqual({ ...EXPECTED_GRANTS, [table]: DML });
        expect(await grantRuntimeRole(ownerUrl(), TEST_ROLES.runtime)).toEqual({ granted: [], revoked: [] });
      } finally {
        await t.sqlAs('owner', `DROP TABLE ${table}`);
      }
    });

    it('refuses a runtime role that does not exist, is a superuser, or is a member of the owner', async () => {
      await expect(grantRuntimeRole(ownerUrl(), 'no_such_role_here')).rejects.toThrow(/does not exist: create it first/);
      await expect(grantRuntimeRole(t.urlAs!('superuser'), 'postgres')).rejects.toThrow(GrantError);
      await expect(grantRuntimeRole(ownerUrl(), TEST_ROLES.owner)).rejects.toThrow(/owner of the tables/);
    });
  });
}
