-- NOT NULL, proven by the validated checks (so no row is read under this moment's lock); the checks
-- then go: the column says it.
ALTER TABLE "distribution_declarations" ALTER COLUMN "scheduled_for" SET NOT NULL;
ALTER TABLE "distribution_declarations" DROP CONSTRAINT "distribution_declarations_scheduled_for_present";
ALTER TABLE "distributions" ALTER COLUMN "scheduled_for" SET NOT NULL;
ALTER TABLE "distributions" DROP CONSTRAINT "distributions_scheduled_for_present";
