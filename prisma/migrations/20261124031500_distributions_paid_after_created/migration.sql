-- A distribution is paid after it was declared. As a constraint, the planner-independent fact lets
-- a staff list filtered on the payment date ("to" = distributed_at < T) also bound created_at < T,
-- so its newest-first page starts in the index at T instead of walking every newer row
-- (DistributionService.page; docs/benchmarks.md).
ALTER TABLE "distributions" ADD CONSTRAINT "distributions_paid_after_declared" CHECK ("distributed_at" IS NULL OR "distributed_at" >= "created_at");
