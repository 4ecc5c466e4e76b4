CREATE INDEX CONCURRENTLY "distributions_cadence_created_at_id_idx" ON "distributions"("cadence", "created_at" DESC, "id" DESC);
