import { Client, escapeIdentifier as ident } from 'pg';
import type { Config } from '../platform/config';

/**
 * Two PostgreSQL roles (docs/operations.md "Database roles"): the owner runs the migrations
 * (MIGRATE_DATABASE_URL), the gateway serves as a runtime role that may only read and write rows.
 * This is the one declaration of what the runtime role may do; `grantRuntimeRole` makes the
 * database match it after every migration run, so a table a migration adds is granted at once.
 */
export type TablePrivilege = 'SELECT' | 'INSERT' | 'UPDATE' | 'DELETE';

/** Every table of the schema not named in RUNTIME_TABLE_EXCEPTIONS: rows only (no TRUNCATE, TRIGGER, REFERENCES). */
export const RUNTIME_DML: readonly TablePrivilege[] = ['SELECT', 'INSERT', 'UPDATE', 'DELETE'];

export const RUNTIME_TABLE_EXCEPTIONS: Readonly<Record<string, readonly TablePrivilege[]>> = {
  // The migrations' own record: read at start-up (are migrations pending?), written by the owner only.
  _prisma_migrations: ['SELECT'],
  // The audit trail is append-only for the runtime: events and seals are inserted, never changed;
  // retention removes a sealed prefix only through audit_prune(), which runs as the owner.
  audit_events: ['SELECT', 'INSERT'],
  audit_seals: ['SELECT', 'INSERT'],
  audit_anchors: ['SELECT'],
};

/** The one function the runtime role may execute beyond PUBLIC's: retention (SECURITY DEFINER). */
export const RUNTIME_FUNCTIONS = ['audit_prune(timestamptz)'] as const;

export const runtimePrivileges = (table: string): readonly TablePrivilege[] => RUNTIME_TABLE_EXCEPTIONS[table] ?? RUNTIME_DML;

/** The role a PostgreSQL URL logs in as. */
export const urlRole = (url: string): string => decodeURIComponent(new URL(url).username);

/**
 * The runtime role of a deployment, or undefined when it has one role: MIGRATE_DATABASE_URL is unset,
 * or names the same role as DATABASE_URL.
 */
export function runtimeRoleOf(databaseUrl: string | undefined, migrateUrl: string | undefined): string | undefined {
  if (!databaseUrl || !migrateUrl) return undefined;
  const runtime = urlRole(databaseUrl);
  return runtime && runtime !== urlRole(migrateUrl) ? runtime : undefined;
}

/** Where a deployment has two roles: the runtime role to grant after migrating, and who hears what changed. */
export interface RuntimeGrant {
  role: string;
  onGranted?: (changes: GrantChanges) => void;
}

/** What a migrating command grants after it migrates, from the configuration's two URLs (undefined: one role). */
export function runtimeGrantOf(
  config: Pick<Config, 'databaseUrl' | 'migrateDatabaseUrl'>,
  onGranted?: (role: string, changes: GrantChanges) => void,
): RuntimeGrant | undefined {
  const role = runtimeRoleOf(config.databaseUrl, config.migrateDatabaseUrl);
  return role ? { role, onGranted: onGranted && ((changes) => onGranted(role, changes)) } : undefined;
}

/** Raised when the runtime role cannot be granted as declared: the message says what to do. */
export class GrantError extends Error {}

export interface GrantChanges {
  granted: string[];
  revoked: string[];
}

/** The GRANT and REVOKE statements that take a table from `have` to what the runtime role may do on it. */
export function tableGrantStatements(schema: string, table: string, have: readonly string[], role: string): string[] {
  const want = runtimePrivileges(table);
  const missing = want.filter((p) => !have.includes(p));
  const extra = have.filter((p) => !(want as readonly string[]).includes(p));
  const target = `TABLE ${ident(schema)}.${ident(table)}`;
  return [
    ...(missing.length ? [`GRANT ${missing.join(', ')} ON ${target} TO ${ident(role)}`] : []),
    ...(extra.length ? [`REVOKE ${extra.join(', ')} ON ${target} FROM ${ident(role)}`] : []),
  ];
}

/**
 * Makes the runtime role's privileges in the owner's schema exactly the declared ones, in one
 * transaction (instances serving meanwhile see the old grants or the new, never none). Refuses a
 * runtime role that does not exist or bypasses grants (a superuser). Returns what changed.
 */
export async function grantRuntimeRole(ownerUrl: string, role: string): Promise<GrantChanges> {
  const client = new Client({ connectionString: ownerUrl, application_name: 'gateway-grants' });
  client.on('error', () => undefined); // whole life: a dropped session fails the query in flight, which reports it
  await client.connect();
  try {
    await client.query('BEGIN');
    await checkRole(client, role);
    const changes = await grantTables(client, role);
    const schema = (await client.query<{ schema: string }>('SELECT current_schema() AS schema')).rows[0].schema;
    await client.query(`GRANT USAGE ON SCHEMA ${ident(schema)} TO ${ident(role)}`);
    await client.query(`REVOKE CREATE ON SCHEMA ${ident(schema)} FROM ${ident(role)}`);
    await client.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${ident(schema)} TO ${ident(role)}`);
    for (const fn of RUNTIME_FUNCTIONS)
      await client.query(`GRANT EXECUTE ON FUNCTION ${ident(schema)}.${fn.replace(/^(\w+)/, (n) => ident(n))} TO ${ident(role)}`);
    await client.query('COMMIT');
    return changes;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await client.end();
  }
}

async function checkRole(client: Client, role: string): Promise<void> {
  // An owner's member inherits ownership (ALTER, DISABLE TRIGGER), whatever it is granted.
  const { rows } = await client.query<{ super: boolean; owner: boolean }>(
    `SELECT r.rolsuper AS super,
            pg_has_role(r.oid, current_user, 'MEMBER')
              OR pg_has_role(r.oid, (SELECT nspowner FROM pg_namespace WHERE nspname = current_schema()), 'MEMBER') AS owner
     FROM pg_roles r WHERE r.rolname = $1`,
    [role],
  );
  if (!rows.length)
    throw new GrantError(`the runtime role "${role}" (DATABASE_URL's user) does not exist: create it first (docs/operations.md "Database roles")`);
  if (rows[0].super) throw new GrantError(`the runtime role "${role}" is a superuser, which no grant can limit: use a role without SUPERUSER`);
  if (rows[0].owner) throw new GrantError(`the runtime role "${role}" is (a member of) the owner of the tables or the schema: use a role of its own`);
}

async function grantTables(client: Client, role: string): Promise<GrantChanges> {
  // Explicit grants to the role on every table of the schema (aclexplode: inherited ones do not count).
  const { rows } = await client.query<{ schema: string; table: string; have: string[] }>(
    `SELECT n.nspname AS schema, c.relname AS table,
            COALESCE(array_agg(a.privilege_type) FILTER (WHERE a.grantee = to_regrole($1)), '{}') AS have
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     LEFT JOIN LATERAL aclexplode(c.relacl) a ON true
     WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm')
     GROUP BY n.nspname, c.relname ORDER BY c.relname`,
    [role],
  );
  const changes: GrantChanges = { granted: [], revoked: [] };
  for (const { schema, table, have } of rows) {
    for (const sql of tableGrantStatements(schema, table, have, role)) {
      await client.query(sql);
      (sql.startsWith('GRANT') ? changes.granted : changes.revoked).push(sql);
    }
  }
  return changes;
}
