-- The scheduled date's rules as constraints, added without checking the rows (a moment's lock) and
-- validated in the next migration (which reads the rows without blocking reads or writes).
ALTER TABLE "distribution_declarations" ADD CONSTRAINT "distribution_declarations_scheduled_for_present" CHECK ("scheduled_for" IS NOT NULL) NOT VALID;
ALTER TABLE "distributions" ADD CONSTRAINT "distributions_scheduled_for_present" CHECK ("scheduled_for" IS NOT NULL) NOT VALID;
-- A distribution is scheduled no earlier than the UTC day it was declared. With
-- distributions_paid_after_declared, its payment date (paid time, else scheduled date) is never
-- before the start of that day: a list filtered on "payment date < T" also bounds created_at < T +
-- 1 day, so its newest-first page starts in the index near T (DistributionService's whereSql).
ALTER TABLE "distributions" ADD CONSTRAINT "distributions_scheduled_from_declared_day" CHECK ("scheduled_for" >= ("created_at" AT TIME ZONE 'UTC')::date) NOT VALID;
