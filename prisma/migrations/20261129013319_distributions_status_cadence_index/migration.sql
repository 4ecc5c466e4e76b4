CREATE INDEX CONCURRENTLY "distributions_status_cadence_created_at_id_idx" ON "distributions"("status", "cadence", "created_at" DESC, "id" DESC);
