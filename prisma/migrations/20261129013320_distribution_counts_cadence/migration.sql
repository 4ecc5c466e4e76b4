-- The counts rebuilt from the rows, now with cadence and payment date. Writers of distributions wait
-- until this commits (readers do not: the previous release's totals read the rows as they were).
LOCK TABLE "distributions" IN SHARE MODE;
DELETE FROM "distribution_totals";
DELETE FROM "distribution_counts";
SELECT "distribution_counts_upsert"(jsonb_agg(g)) FROM (
  SELECT unit_id, period, type, cadence, status, distributed_at,
         COALESCE(distributed_at, scheduled_for::timestamp AT TIME ZONE 'UTC') AS payment_at, count(*) AS n
  FROM "distributions" GROUP BY 1, 2, 3, 4, 5, 6, 7) g
HAVING count(*) > 0;
