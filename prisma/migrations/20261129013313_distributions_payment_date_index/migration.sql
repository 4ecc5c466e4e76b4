CREATE INDEX CONCURRENTLY "distributions_created_at_id_distributed_at_scheduled_for_idx" ON "distributions"("created_at" DESC, "id" DESC, "distributed_at", "scheduled_for");
