-- CreateTable
CREATE TABLE "distribution_counts" (
    "key" TEXT NOT NULL,
    "unit_id" INTEGER NOT NULL,
    "period" TEXT NOT NULL,
    "type" "DistributionType" NOT NULL,
    "status" "DistributionStatus" NOT NULL,
    "distributed_at" TIMESTAMPTZ(3),
    "n" INTEGER NOT NULL,

    CONSTRAINT "distribution_counts_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "distributions_created_at_id_idx" ON "distributions"("created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "distributions_status_created_at_id_idx" ON "distributions"("status", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "distributions_type_created_at_id_idx" ON "distributions"("type", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "distributions_unit_id_created_at_id_idx" ON "distributions"("unit_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "distributions_period_created_at_id_idx" ON "distributions"("period", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "distributions_distributed_at_idx" ON "distributions"("distributed_at");


-- Keep distribution_counts exact: every statement that inserts, updates or deletes distributions
-- adds its net change per combination in the same transaction, so any snapshot sees counts that
-- match its rows. Statement-level triggers with transition tables: one upsert per combination
-- touched, not one per row. Upserts go in key order, so concurrent writers lock counter rows in the
-- same order and cannot deadlock on them. The key uses the epoch, not the session's time zone.
CREATE FUNCTION "distribution_counts_upsert"(delta jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "distribution_counts" AS c ("key", "unit_id", "period", "type", "status", "distributed_at", "n")
  SELECT concat_ws('|', unit_id, period, type, status, extract(epoch FROM distributed_at)), unit_id, period, type, status, distributed_at, n
  FROM jsonb_to_recordset(delta) AS x(unit_id int, period text, type "DistributionType", status "DistributionStatus", distributed_at timestamptz(3), n int)
  ORDER BY 1
  ON CONFLICT ("key") DO UPDATE SET "n" = c."n" + excluded."n";
$$;

CREATE FUNCTION "distribution_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta jsonb;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT jsonb_agg(g) INTO delta FROM (
      SELECT unit_id, period, type, status, distributed_at, count(*) AS n FROM new_rows GROUP BY 1, 2, 3, 4, 5) g;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT jsonb_agg(g) INTO delta FROM (
      SELECT unit_id, period, type, status, distributed_at, -count(*) AS n FROM old_rows GROUP BY 1, 2, 3, 4, 5) g;
  ELSE
    SELECT jsonb_agg(g) INTO delta FROM (
      SELECT unit_id, period, type, status, distributed_at, sum(d) AS n
      FROM (SELECT unit_id, period, type, status, distributed_at, 1 AS d FROM new_rows
            UNION ALL SELECT unit_id, period, type, status, distributed_at, -1 FROM old_rows) u
      GROUP BY 1, 2, 3, 4, 5 HAVING sum(d) <> 0) g;
  END IF;
  IF delta IS NOT NULL THEN
    PERFORM "distribution_counts_upsert"(delta);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "distribution_counts_insert" AFTER INSERT ON "distributions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "distribution_counts_apply"();
CREATE TRIGGER "distribution_counts_update" AFTER UPDATE ON "distributions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "distribution_counts_apply"();
CREATE TRIGGER "distribution_counts_delete" AFTER DELETE ON "distributions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "distribution_counts_apply"();

-- TRUNCATE fires no row triggers: empty the counts with it.
CREATE FUNCTION "distribution_counts_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "distribution_counts";
  RETURN NULL;
END $$;
CREATE TRIGGER "distribution_counts_truncate" AFTER TRUNCATE ON "distributions"
  FOR EACH STATEMENT EXECUTE FUNCTION "distribution_counts_truncate"();

-- The rows already there.
SELECT "distribution_counts_upsert"(jsonb_agg(g)) FROM (
  SELECT unit_id, period, type, status, distributed_at, count(*) AS n FROM "distributions" GROUP BY 1, 2, 3, 4, 5) g
HAVING count(*) > 0;
