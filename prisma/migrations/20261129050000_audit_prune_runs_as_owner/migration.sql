-- Least privilege (docs/operations.md "Database roles"): the runtime role has no DELETE on the audit
-- tables, so retention's audit_prune() runs with its owner's rights (SECURITY DEFINER), executable
-- only by the roles granted it (src/db/grants.ts). Its search_path is pinned to this schema with
-- pg_temp last, so a caller's temporary tables cannot stand in for the audit tables.
-- Catalog-only: takes no lock on any table. A previous release, serving as the owner, keeps calling it.
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION "audit_prune"(TIMESTAMPTZ) SECURITY DEFINER SET search_path = %I, pg_temp', current_schema());
END
$$;
REVOKE EXECUTE ON FUNCTION "audit_prune"(TIMESTAMPTZ) FROM PUBLIC;
