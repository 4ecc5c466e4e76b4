CREATE INDEX CONCURRENTLY "distributions_investor_id_cadence_idx" ON "distributions"("investor_id", "cadence");
