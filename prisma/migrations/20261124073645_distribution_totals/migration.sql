-- CreateIndex (before the index it replaces goes: the staff list's order is never without one)
CREATE INDEX "distributions_created_at_id_distributed_at_idx" ON "distributions"("created_at" DESC, "id" DESC, "distributed_at");

-- DropIndex
DROP INDEX "distributions_created_at_id_idx";

-- CreateTable
CREATE TABLE "distribution_totals" (
    "key" TEXT NOT NULL,
    "status" "DistributionStatus",
    "day" DATE,
    "n" INTEGER NOT NULL,

    CONSTRAINT "distribution_totals_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "distribution_totals_status_day_idx" ON "distribution_totals"("status", "day");

-- CreateIndex
CREATE INDEX "distribution_counts_unit_id_idx" ON "distribution_counts"("unit_id");

-- CreateIndex
CREATE INDEX "distribution_counts_period_idx" ON "distribution_counts"("period");

-- CreateIndex
CREATE INDEX "distribution_counts_distributed_at_idx" ON "distribution_counts"("distributed_at");


-- distribution_totals: the roll-ups of a counts delta (see the migration distribution_counts), added
-- by the same trigger call, before the counts themselves. The row '' (all distributions) sorts first
-- and is upserted by every statement that changes any count, even when its own change is 0 (an
-- update that moves rows between statuses): so a transaction holding any counter row holds '' too,
-- and the writers of distributions queue on '' instead of locking counter rows in differing orders
-- across their statements, which could deadlock. Distributions are written by staff declarations
-- and their transitions, in batches, not per request (docs/benchmarks.md). Days are UTC dates.
CREATE FUNCTION "distribution_totals_add"(delta jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "distribution_totals" AS t ("key", "status", "day", "n")
  SELECT r.key, r.status, r.day, sum(x.n)
  FROM jsonb_to_recordset(delta) AS x(unit_id int, period text, type "DistributionType", status "DistributionStatus", distributed_at timestamptz(3), n int)
  CROSS JOIN LATERAL (VALUES ((x.distributed_at AT TIME ZONE 'UTC')::date)) AS paid(day)
  CROSS JOIN LATERAL (VALUES
    ('', NULL::"DistributionStatus", NULL::date),
    ('status|' || x.status, x.status, NULL),
    ('type|' || x.type, NULL, NULL),
    ('unit|' || x.unit_id, NULL, NULL),
    ('period|' || x.period, NULL, NULL),
    ('day|' || paid.day, NULL, paid.day),
    (concat_ws('|', 'status', x.status, 'type', x.type), x.status, NULL),
    (concat_ws('|', 'status', x.status, 'unit', x.unit_id), x.status, NULL),
    (concat_ws('|', 'status', x.status, 'period', x.period), x.status, NULL),
    ('status|' || x.status || '|day|' || paid.day, x.status, paid.day)) AS r(key, status, day)
  WHERE r.key IS NOT NULL
  GROUP BY r.key, r.status, r.day
  HAVING sum(x.n) <> 0 OR r.key = ''
  ORDER BY r.key
  ON CONFLICT ("key") DO UPDATE SET "n" = t."n" + excluded."n";
$$;

CREATE OR REPLACE FUNCTION "distribution_counts_upsert"(delta jsonb) RETURNS void LANGUAGE sql AS $$
  SELECT "distribution_totals_add"(delta);
  INSERT INTO "distribution_counts" AS c ("key", "unit_id", "period", "type", "status", "distributed_at", "n")
  SELECT concat_ws('|', unit_id, period, type, status, extract(epoch FROM distributed_at)), unit_id, period, type, status, distributed_at, n
  FROM jsonb_to_recordset(delta) AS x(unit_id int, period text, type "DistributionType", status "DistributionStatus", distributed_at timestamptz(3), n int)
  ORDER BY 1
  ON CONFLICT ("key") DO UPDATE SET "n" = c."n" + excluded."n";
$$;

CREATE OR REPLACE FUNCTION "distribution_counts_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "distribution_totals";
  DELETE FROM "distribution_counts";
  RETURN NULL;
END $$;

-- The counts already there (exact: DROP INDEX above holds the writers of distributions off until
-- this migration commits).
SELECT "distribution_totals_add"(jsonb_agg(c)) FROM "distribution_counts" c HAVING count(*) > 0;
