/** The trigger-kept distribution counts (migrations distribution_counts, distribution_totals, distribution_cadence) checked against the rows. */

/** Per combination, the trigger-kept count next to COUNT(*); only rows where they differ. */
export const COUNT_MISMATCHES = `
  SELECT * FROM (
    SELECT unit_id, period, type::text, cadence::text, status::text, COALESCE(distributed_at, '-infinity') AS paid,
           COALESCE(distributed_at, scheduled_for::timestamp AT TIME ZONE 'UTC') AS payment, count(*)::int AS actual
    FROM distributions GROUP BY 1, 2, 3, 4, 5, 6, 7
  ) a FULL JOIN (
    SELECT unit_id, period, type::text, cadence::text, status::text, COALESCE(distributed_at, '-infinity') AS paid, payment_at AS payment, sum(n)::int AS kept
    FROM distribution_counts GROUP BY 1, 2, 3, 4, 5, 6, 7
  ) k USING (unit_id, period, type, cadence, status, paid, payment)
  WHERE COALESCE(actual, 0) <> COALESCE(kept, 0)`;

/** Every roll-up row next to COUNT(*) of what it stands for, grouped independently of the trigger. */
export const TOTAL_MISMATCHES = `
  WITH d AS (
    SELECT unit_id, period, type::text AS type, cadence::text AS cadence, status::text AS status, (distributed_at AT TIME ZONE 'UTC')::date AS day,
           COALESCE((distributed_at AT TIME ZONE 'UTC')::date, scheduled_for) AS due
    FROM distributions),
  actual AS (
    SELECT '' AS key, NULL AS status, NULL::date AS day, NULL::date AS due, count(*)::int AS n FROM d
    UNION ALL SELECT 'status|' || status, status, NULL, NULL, count(*) FROM d GROUP BY status
    UNION ALL SELECT 'type|' || type, NULL, NULL, NULL, count(*) FROM d GROUP BY type
    UNION ALL SELECT 'cadence|' || cadence, NULL, NULL, NULL, count(*) FROM d GROUP BY cadence
    UNION ALL SELECT 'unit|' || unit_id, NULL, NULL, NULL, count(*) FROM d GROUP BY unit_id
    UNION ALL SELECT 'period|' || period, NULL, NULL, NULL, count(*) FROM d GROUP BY period
    UNION ALL SELECT 'day|' || day, NULL, day, NULL, count(*) FROM d WHERE day IS NOT NULL GROUP BY day
    UNION ALL SELECT 'payment|' || due, NULL, NULL, due, count(*) FROM d GROUP BY due
    UNION ALL SELECT 'status|' || status || '|type|' || type, status, NULL, NULL, count(*) FROM d GROUP BY status, type
    UNION ALL SELECT 'status|' || status || '|cadence|' || cadence, status, NULL, NULL, count(*) FROM d GROUP BY status, cadence
    UNION ALL SELECT 'status|' || status || '|unit|' || unit_id, status, NULL, NULL, count(*) FROM d GROUP BY status, unit_id
    UNION ALL SELECT 'status|' || status || '|period|' || period, status, NULL, NULL, count(*) FROM d GROUP BY status, period
    UNION ALL SELECT 'status|' || status || '|day|' || day, status, day, NULL, count(*) FROM d WHERE day IS NOT NULL GROUP BY status, day
    UNION ALL SELECT 'status|' || status || '|payment|' || due, status, NULL, due, count(*) FROM d GROUP BY status, due
  )
  SELECT key, a.status, a.day, a.due, a.n AS actual, k.status::text AS kept_status, k.day AS kept_day, k.payment_day AS kept_due, k.n AS kept
  FROM actual a FULL JOIN distribution_totals k USING (key)
  WHERE COALESCE(a.n, 0) <> COALESCE(k.n, 0)
     OR (a.n IS NOT NULL AND (a.status IS DISTINCT FROM k.status::text OR a.day IS DISTINCT FROM k.day OR a.due IS DISTINCT FROM k.payment_day))`;
