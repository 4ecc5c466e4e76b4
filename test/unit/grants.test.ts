import { RUNTIME_DML, runtimeGrantOf, runtimePrivileges, runtimeRoleOf, tableGrantStatements, urlRole } from '../../src/db/grants';

describe('which role is the runtime role', () => {
  it("is DATABASE_URL's user when MIGRATE_DATABASE_URL names another", () => {
    expect(runtimeRoleOf('postgresql://gateway:pw@db:5432/app', 'postgresql://gateway_owner:pw@db:5432/app')).toBe('gateway');
  });
  it('is none with one URL, or two URLs of the same role (one role, as before)', () => {
    expect(runtimeRoleOf('postgresql://gateway@db/app', undefined)).toBeUndefined();
    expect(runtimeRoleOf(undefined, 'postgresql://owner@db/app')).toBeUndefined();
    expect(runtimeRoleOf('postgresql://gateway@db/app', 'postgresql://gateway@replica/app')).toBeUndefined();
  });
  it('gives a migrating command what to grant, and tells its listener the role', () => {
    const heard: string[] = [];
    const grant = runtimeGrantOf({ databaseUrl: 'postgresql://gateway@db/app', migrateDatabaseUrl: 'postgresql://owner@db/app' }, (role, changes) =>
      heard.push(`${role}:${changes.granted.length}`),
    );
    expect(grant?.role).toBe('gateway');
    grant?.onGranted?.({ granted: ['GRANT …'], revoked: [] });
    expect(heard).toEqual(['gateway:1']);
    expect(runtimeGrantOf({ databaseUrl: 'postgresql://gateway@db/app', migrateDatabaseUrl: undefined })).toBeUndefined();
  });
  it('reads a percent-encoded user name', () => {
    expect(urlRole('postgresql://app%40prod:pw@db/app')).toBe('app@prod');
  });
});

describe('the statements that make a table match the declaration', () => {
  it('grants what is missing and revokes what is beyond, quoting names', () => {
    expect(tableGrantStatements('public', 'users', ['SELECT', 'TRUNCATE'], 'rt')).toEqual([
      'GRANT INSERT, UPDATE, DELETE ON TABLE "public"."users" TO "rt"',
      'REVOKE TRUNCATE ON TABLE "public"."users" FROM "rt"',
    ]);
    expect(tableGrantStatements('public', 'audit_events', ['SELECT', 'INSERT', 'UPDATE', 'DELETE'], 'we"ird')).toEqual([
      'REVOKE UPDATE, DELETE ON TABLE "public"."audit_events" FROM "we""ird"',
    ]);
  });
  it('writes nothing for a table already as declared', () => {
    expect(tableGrantStatements('public', 'holdings', [...RUNTIME_DML], 'rt')).toEqual([]);
  });
  it('keeps the audit trail append-only and the migrations record read-only', () => {
    expect(runtimePrivileges('audit_events')).toEqual(['SELECT', 'INSERT']);
    expect(runtimePrivileges('audit_anchors')).toEqual(['SELECT']);
    expect(runtimePrivileges('_prisma_migrations')).toEqual(['SELECT']);
    expect(runtimePrivileges('a_table_added_later')).toEqual(RUNTIME_DML);
  });
});
