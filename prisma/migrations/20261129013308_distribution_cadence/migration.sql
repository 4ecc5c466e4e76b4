-- Distributions gain a cadence (how often the unit pays: the REST face's `type`) and the UTC date
-- they are scheduled to be paid (the REST face's `distributed_at` until they are paid). An expand
-- (docs/operations.md, "Upgrades and migrations") in steps that never hold a large table for long:
-- this one changes only the catalog (no row is rewritten); the migrations after it backfill the
-- rows, validate, index concurrently and rebuild the counts. The previous release reads and writes
-- these tables unchanged meanwhile: its inserts take the defaults (QUARTERLY, the declaring day), its
-- lists' totals keep their keys, and the unique key it checks by hand before declaring only widens.

-- CreateEnum
CREATE TYPE "DistributionCadence" AS ENUM ('MONTHLY', 'QUARTERLY', 'SEMI_ANNUAL', 'ANNUAL', 'SPECIAL');

-- The scheduled date of a row that has none yet: the UTC day it was paid, else the last day of the
-- month after its quarter (2026-Q1 → 2026-04-30), or the day it was declared when that is later.
-- The counts' triggers use it until the backfill has given every row its date.
CREATE FUNCTION "distribution_default_schedule"(period text, distributed_at timestamptz, created_at timestamptz) RETURNS date
LANGUAGE sql STABLE AS $$
  SELECT COALESCE(
    (distributed_at AT TIME ZONE 'UTC')::date,
    GREATEST(
      (created_at AT TIME ZONE 'UTC')::date,
      (make_date(substr(period, 1, 4)::int, substr(period, 7, 1)::int * 3, 1) + interval '2 months' - interval '1 day')::date));
$$;

-- AlterTable: a constant default and a column without one are catalog changes only. The scheduled
-- date's default (the declaring day) applies to rows inserted from now on; the backfill dates the rest.
ALTER TABLE "distribution_declarations" ADD COLUMN "cadence" "DistributionCadence" NOT NULL DEFAULT 'QUARTERLY', ADD COLUMN "scheduled_for" DATE;
ALTER TABLE "distribution_declarations" ALTER COLUMN "scheduled_for" SET DEFAULT ((now() AT TIME ZONE 'UTC'::text))::date;
ALTER TABLE "distributions" ADD COLUMN "cadence" "DistributionCadence" NOT NULL DEFAULT 'QUARTERLY', ADD COLUMN "scheduled_for" DATE;
ALTER TABLE "distributions" ALTER COLUMN "scheduled_for" SET DEFAULT ((now() AT TIME ZONE 'UTC'::text))::date;

-- The counts gain the cadence (every row so far is QUARTERLY) and the payment date (the paid time,
-- else the scheduled date at 00:00 UTC), filled in by the rebuild (migration distribution_counts_cadence).
ALTER TABLE "distribution_counts" ADD COLUMN "cadence" "DistributionCadence" NOT NULL DEFAULT 'QUARTERLY', ADD COLUMN "payment_at" TIMESTAMPTZ(3);
ALTER TABLE "distribution_totals" ADD COLUMN "payment_day" DATE;

-- From now on every write counts its cadence and payment date too. A previous release's keys keep
-- their meaning; cadence and the payment date add theirs.
CREATE OR REPLACE FUNCTION "distribution_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta jsonb;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT jsonb_agg(g) INTO delta FROM (
      SELECT unit_id, period, type, cadence, status, distributed_at,
             COALESCE(distributed_at, COALESCE(scheduled_for, "distribution_default_schedule"(period, distributed_at, created_at))::timestamp AT TIME ZONE 'UTC') AS payment_at,
             count(*) AS n
      FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6, 7) g;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT jsonb_agg(g) INTO delta FROM (
      SELECT unit_id, period, type, cadence, status, distributed_at,
             COALESCE(distributed_at, COALESCE(scheduled_for, "distribution_default_schedule"(period, distributed_at, created_at))::timestamp AT TIME ZONE 'UTC') AS payment_at,
             -count(*) AS n
      FROM old_rows GROUP BY 1, 2, 3, 4, 5, 6, 7) g;
  ELSE
    SELECT jsonb_agg(g) INTO delta FROM (
      SELECT unit_id, period, type, cadence, status, distributed_at,
             COALESCE(distributed_at, COALESCE(scheduled_for, "distribution_default_schedule"(period, distributed_at, created_at))::timestamp AT TIME ZONE 'UTC') AS payment_at,
             sum(d) AS n
      FROM (SELECT unit_id, period, type, cadence, status, distributed_at, scheduled_for, created_at, 1 AS d FROM new_rows
            UNION ALL SELECT unit_id, period, type, cadence, status, distributed_at, scheduled_for, created_at, -1 FROM old_rows) u
      GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING sum(d) <> 0) g;
  END IF;
  IF delta IS NOT NULL THEN
    PERFORM "distribution_counts_upsert"(delta);
  END IF;
  RETURN NULL;
END $$;

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

-- The twin check now covers cadence and scheduled date (three MONTHLY declarations share a quarter).
-- Declarations are one per unit and period: a small table, indexed in place.
CREATE UNIQUE INDEX "distribution_declarations_unit_id_period_type_cadence_sched_key" ON "distribution_declarations"("unit_id", "period", "type", "cadence", "scheduled_for");
DROP INDEX "distribution_declarations_unit_id_period_type_key";
