-- Validating reads every row under a lock that blocks neither reads nor writes.
ALTER TABLE "distribution_declarations" VALIDATE CONSTRAINT "distribution_declarations_scheduled_for_present";
ALTER TABLE "distributions" VALIDATE CONSTRAINT "distributions_scheduled_for_present";
ALTER TABLE "distributions" VALIDATE CONSTRAINT "distributions_scheduled_from_declared_day";
