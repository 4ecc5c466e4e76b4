-- Every row without a scheduled date gets distribution_default_schedule's. Rows are locked while the
-- statement runs, the tables are not: the previous release reads throughout, and only a transition
-- of a declaration written before this release (approve, distribute, cancel) waits for it. The
-- counts do not move (their triggers already counted these rows at that date).
UPDATE "distribution_declarations" SET "scheduled_for" = "distribution_default_schedule"("period", "distributed_at", "created_at") WHERE "scheduled_for" IS NULL;
UPDATE "distributions" SET "scheduled_for" = "distribution_default_schedule"("period", "distributed_at", "created_at") WHERE "scheduled_for" IS NULL;
