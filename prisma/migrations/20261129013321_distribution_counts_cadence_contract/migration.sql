-- Every count now has its payment date and an explicit cadence (the counts are a few rows per
-- declaration: the catalog changes and the indexes are quick). The triggers no longer need the
-- default schedule: every row has its date.
ALTER TABLE "distribution_counts" ALTER COLUMN "cadence" DROP DEFAULT, ALTER COLUMN "payment_at" SET NOT NULL;
CREATE INDEX "distribution_counts_payment_at_idx" ON "distribution_counts"("payment_at");
CREATE INDEX "distribution_totals_status_payment_day_idx" ON "distribution_totals"("status", "payment_day");

CREATE OR REPLACE FUNCTION "distribution_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta jsonb;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT jsonb_agg(g) INTO delta FROM (
      SELECT unit_id, period, type, cadence, status, distributed_at,
             COALESCE(distributed_at, scheduled_for::timestamp AT TIME ZONE 'UTC') AS payment_at, count(*) AS n
      FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6, 7) g;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT jsonb_agg(g) INTO delta FROM (
      SELECT unit_id, period, type, cadence, status, distributed_at,
             COALESCE(distributed_at, scheduled_for::timestamp AT TIME ZONE 'UTC') AS payment_at, -count(*) AS n
      FROM old_rows GROUP BY 1, 2, 3, 4, 5, 6, 7) g;
  ELSE
    SELECT jsonb_agg(g) INTO delta FROM (
      SELECT unit_id, period, type, cadence, status, distributed_at,
             COALESCE(distributed_at, scheduled_for::timestamp AT TIME ZONE 'UTC') AS payment_at, sum(d) AS n
      FROM (SELECT unit_id, period, type, cadence, status, distributed_at, scheduled_for, 1 AS d FROM new_rows
            UNION ALL SELECT unit_id, period, type, cadence, status, distributed_at, scheduled_for, -1 FROM old_rows) u
      GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING sum(d) <> 0) g;
  END IF;
  IF delta IS NOT NULL THEN
    PERFORM "distribution_counts_upsert"(delta);
  END IF;
  RETURN NULL;
END $$;

DROP FUNCTION "distribution_default_schedule"(text, timestamptz, timestamptz);
