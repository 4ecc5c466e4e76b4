-- Staff lists on two filters, newest first: status with unit, period or type (their totals are
-- rows of distribution_totals) and unit with period, each an index range in the list's order
-- instead of one filter's index walked with the other checked on every row; and status with a
-- payment-date range checked on the status index's entries (docs/benchmarks.md). Each new index
-- is built before the one it replaces goes.

-- CreateIndex (replaces (unit_id, period), which it still serves as a prefix)
CREATE INDEX "distributions_unit_id_period_created_at_id_idx" ON "distributions"("unit_id", "period", "created_at" DESC, "id" DESC);

-- DropIndex
DROP INDEX "distributions_unit_id_period_idx";

-- CreateIndex
CREATE INDEX "distributions_status_created_at_id_distributed_at_idx" ON "distributions"("status", "created_at" DESC, "id" DESC, "distributed_at");

-- DropIndex
DROP INDEX "distributions_status_created_at_id_idx";

-- CreateIndex
CREATE INDEX "distributions_status_unit_id_created_at_id_idx" ON "distributions"("status", "unit_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "distributions_status_period_created_at_id_idx" ON "distributions"("status", "period", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "distributions_status_type_created_at_id_idx" ON "distributions"("status", "type", "created_at" DESC, "id" DESC);
