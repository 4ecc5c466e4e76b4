CREATE INDEX CONCURRENTLY "distributions_status_created_at_id_distributed_at_scheduled_idx" ON "distributions"("status", "created_at" DESC, "id" DESC, "distributed_at", "scheduled_for");
