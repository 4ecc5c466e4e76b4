-- What a keyed request's writes committed, recorded in their own transactions (docs/api.md, "Idempotency keys").
ALTER TABLE "idempotency_keys" ADD COLUMN "outcomes" JSONB,
ADD COLUMN "committed_at" TIMESTAMPTZ(3);
