-- Distributions gain a cadence (how often the unit pays: the REST face's `type`) and the UTC date
-- they are scheduled to be paid (the REST face's `distributed_at` until they are paid). An expand
-- (docs/operations.md, "Upgrades"): the previous release reads and writes these tables unchanged
-- meanwhile. Its inserts take the defaults (QUARTERLY, the declaring day), its lists' totals keep
-- their keys, and the unique key it checked by hand before declaring only widens.

-- CreateEnum
CREATE TYPE "DistributionCadence" AS ENUM ('MONTHLY', 'QUARTERLY', 'SEMI_ANNUAL', 'ANNUAL', 'SPECIAL');

-- Writers of distributions wait until this migration commits (and readers, from its first ALTER): the
-- backfill and the counts rebuilt below are exact.
LOCK TABLE "distribution_declarations", "distributions" IN SHARE MODE;

-- AlterTable
ALTER TABLE "distribution_declarations" ADD COLUMN     "cadence" "DistributionCadence" NOT NULL DEFAULT 'QUARTERLY',
ADD COLUMN     "scheduled_for" DATE;

-- AlterTable
ALTER TABLE "distributions" ADD COLUMN     "cadence" "DistributionCadence" NOT NULL DEFAULT 'QUARTERLY',
ADD COLUMN     "scheduled_for" DATE;

-- Backfill. Every period so far is a quarter, so every row is QUARTERLY (the default above). The
-- scheduled date of a paid row is the UTC day it was paid; of any other, the last day of the month
-- after its quarter (2026-Q1 → 2026-04-30), or the day it was declared when that is later.
CREATE FUNCTION pg_temp.scheduled_for(period text, distributed_at timestamptz, created_at timestamptz) RETURNS date LANGUAGE sql AS $$
  SELECT COALESCE(
    (distributed_at AT TIME ZONE 'UTC')::date,
    GREATEST(
      (created_at AT TIME ZONE 'UTC')::date,
      (make_date(substr(period, 1, 4)::int, substr(period, 7, 1)::int * 3, 1) + interval '2 months' - interval '1 day')::date));
$$;
UPDATE "distribution_declarations" SET "scheduled_for" = pg_temp.scheduled_for("period", "distributed_at", "created_at");
UPDATE "distributions" SET "scheduled_for" = pg_temp.scheduled_for("period", "distributed_at", "created_at");

ALTER TABLE "distribution_declarations" ALTER COLUMN "scheduled_for" SET DEFAULT ((now() AT TIME ZONE 'UTC'::text))::date,
ALTER COLUMN "scheduled_for" SET NOT NULL;
ALTER TABLE "distributions" ALTER COLUMN "scheduled_for" SET DEFAULT ((now() AT TIME ZONE 'UTC'::text))::date,
ALTER COLUMN "scheduled_for" SET NOT NULL;

-- A distribution is scheduled no earlier than the UTC day it was declared. With
-- distributions_paid_after_declared, its payment date (paid time, else scheduled date) is never
-- before the start of that day: a list filtered on "payment date < T" also bounds created_at < T +
-- 1 day, so its newest-first page starts in the index near T (DistributionService.page).
ALTER TABLE "distributions" ADD CONSTRAINT "distributions_scheduled_from_declared_day" CHECK ("scheduled_for" >= ("created_at" AT TIME ZONE 'UTC')::date);

-- DropIndex (the twin check now covers cadence and scheduled date: three MONTHLY declarations share a quarter)
DROP INDEX "distribution_declarations_unit_id_period_type_key";

-- CreateIndex
CREATE UNIQUE INDEX "distribution_declarations_unit_id_period_type_cadence_sched_key" ON "distribution_declarations"("unit_id", "period", "type", "cadence", "scheduled_for");

-- CreateIndex (each before the index it replaces goes)
CREATE INDEX "distributions_created_at_id_distributed_at_scheduled_for_idx" ON "distributions"("created_at" DESC, "id" DESC, "distributed_at", "scheduled_for");
DROP INDEX "distributions_created_at_id_distributed_at_idx";
CREATE INDEX "distributions_status_created_at_id_distributed_at_scheduled_idx" ON "distributions"("status", "created_at" DESC, "id" DESC, "distributed_at", "scheduled_for");
DROP INDEX "distributions_status_created_at_id_distributed_at_idx";

-- CreateIndex
CREATE INDEX "distributions_investor_id_cadence_idx" ON "distributions"("investor_id", "cadence");

-- CreateIndex
CREATE INDEX "distributions_cadence_created_at_id_idx" ON "distributions"("cadence", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "distributions_status_cadence_created_at_id_idx" ON "distributions"("status", "cadence", "created_at" DESC, "id" DESC);

-- The counts gain the cadence and the payment date (the paid time, else the scheduled date at
-- 00:00 UTC), and are rebuilt from the rows. The previous release's keys keep their meaning.
DELETE FROM "distribution_totals";
DELETE FROM "distribution_counts";

-- AlterTable
ALTER TABLE "distribution_counts" ADD COLUMN     "cadence" "DistributionCadence" NOT NULL,
ADD COLUMN     "payment_at" TIMESTAMPTZ(3) NOT NULL;

-- AlterTable
ALTER TABLE "distribution_totals" ADD COLUMN     "payment_day" DATE;

-- CreateIndex
CREATE INDEX "distribution_counts_payment_at_idx" ON "distribution_counts"("payment_at");

-- CreateIndex
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

-- The keys of the previous release stay as they were (its totals read them); cadence and the
-- payment date add theirs.
CREATE OR REPLACE FUNCTION "distribution_totals_add"(delta jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "distribution_totals" AS t ("key", "status", "day", "payment_day", "n")
  SELECT r.key, r.status, r.day, r.payment_day, sum(x.n)
  FROM jsonb_to_recordset(delta) AS x(unit_id int, period text, type "DistributionType", cadence "DistributionCadence",
                                      status "DistributionStatus", distributed_at timestamptz(3), payment_at timestamptz(3), n int)
  CROSS JOIN LATERAL (VALUES ((x.distributed_at AT TIME ZONE 'UTC')::date, (x.payment_at AT TIME ZONE 'UTC')::date)) AS d(paid, due)
  CROSS JOIN LATERAL (VALUES
    ('', NULL::"DistributionStatus", NULL::date, NULL::date),
    ('status|' || x.status, x.status, NULL, NULL),
    ('type|' || x.type, NULL, NULL, NULL),
    ('cadence|' || x.cadence, NULL, NULL, NULL),
    ('unit|' || x.unit_id, NULL, NULL, NULL),
    ('period|' || x.period, NULL, NULL, NULL),
    ('day|' || d.paid, NULL, d.paid, NULL),
    ('payment|' || d.due, NULL, NULL, d.due),
    (concat_ws('|', 'status', x.status, 'type', x.type), x.status, NULL, NULL),
    (concat_ws('|', 'status', x.status, 'cadence', x.cadence), x.status, NULL, NULL),
    (concat_ws('|', 'status', x.status, 'unit', x.unit_id), x.status, NULL, NULL),
    (concat_ws('|', 'status', x.status, 'period', x.period), x.status, NULL, NULL),
    ('status|' || x.status || '|day|' || d.paid, x.status, d.paid, NULL),
    ('status|' || x.status || '|payment|' || d.due, x.status, NULL, d.due)) AS r(key, status, day, payment_day)
  WHERE r.key IS NOT NULL
  GROUP BY r.key, r.status, r.day, r.payment_day
  HAVING sum(x.n) <> 0 OR r.key = ''
  ORDER BY r.key
  ON CONFLICT ("key") DO UPDATE SET "n" = t."n" + excluded."n";
$$;

CREATE OR REPLACE FUNCTION "distribution_counts_upsert"(delta jsonb) RETURNS void LANGUAGE sql AS $$
  SELECT "distribution_totals_add"(delta);
  INSERT INTO "distribution_counts" AS c ("key", "unit_id", "period", "type", "cadence", "status", "distributed_at", "payment_at", "n")
  SELECT concat_ws('|', unit_id, period, type, cadence, status, extract(epoch FROM distributed_at), extract(epoch FROM payment_at)),
         unit_id, period, type, cadence, status, distributed_at, payment_at, n
  FROM jsonb_to_recordset(delta) AS x(unit_id int, period text, type "DistributionType", cadence "DistributionCadence",
                                      status "DistributionStatus", distributed_at timestamptz(3), payment_at timestamptz(3), n int)
  ORDER BY 1
  ON CONFLICT ("key") DO UPDATE SET "n" = c."n" + excluded."n";
$$;

-- The rows already there.
SELECT "distribution_counts_upsert"(jsonb_agg(g)) FROM (
  SELECT unit_id, period, type, cadence, status, distributed_at,
         COALESCE(distributed_at, scheduled_for::timestamp AT TIME ZONE 'UTC') AS payment_at, count(*) AS n
  FROM "distributions" GROUP BY 1, 2, 3, 4, 5, 6, 7) g
HAVING count(*) > 0;
