-- CreateTable
CREATE TABLE "audit_events" (
    "id" BIGSERIAL NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor_id" INTEGER,
    "actor_role" "Role",
    "action" TEXT NOT NULL,
    "target_type" TEXT,
    "target_id" TEXT,
    "changes" JSONB,
    "request_id" TEXT,
    "ip" TEXT,
    "user_agent" TEXT,
    "xid" BIGINT NOT NULL DEFAULT ((pg_current_xact_id())::text)::bigint,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_seals" (
    "seq" BIGINT NOT NULL,
    "event_id" BIGINT NOT NULL,
    "event_xid" BIGINT NOT NULL,
    "hash" CHAR(64) NOT NULL,
    "sealed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_seals_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "audit_anchors" (
    "id" SERIAL NOT NULL,
    "seq" BIGINT NOT NULL,
    "event_id" BIGINT NOT NULL,
    "event_xid" BIGINT NOT NULL,
    "hash" CHAR(64) NOT NULL,
    "removed_events" BIGINT NOT NULL,
    "cutoff" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_anchors_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_events_occurred_at_id_idx" ON "audit_events"("occurred_at", "id");

-- CreateIndex
CREATE INDEX "audit_events_action_occurred_at_id_idx" ON "audit_events"("action", "occurred_at", "id");

-- CreateIndex
CREATE INDEX "audit_events_actor_id_occurred_at_id_idx" ON "audit_events"("actor_id", "occurred_at", "id");

-- CreateIndex
CREATE INDEX "audit_events_target_type_target_id_occurred_at_id_idx" ON "audit_events"("target_type", "target_id", "occurred_at", "id");

-- CreateIndex
CREATE INDEX "audit_events_xid_id_idx" ON "audit_events"("xid", "id");

-- CreateIndex
CREATE UNIQUE INDEX "audit_seals_event_id_key" ON "audit_seals"("event_id");

-- CreateIndex
CREATE UNIQUE INDEX "audit_anchors_seq_key" ON "audit_anchors"("seq");

-- Append-only (hand-written, docs/audit.md): UPDATE, DELETE and TRUNCATE are refused on the three
-- audit tables. The one exception is audit_prune() (retention), which sets the transaction-local
-- flag audit.pruning for its own statements and removes only a whole sealed prefix of the chain.
CREATE FUNCTION "audit_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('audit.pruning', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'the audit trail is append-only: % on % refused', TG_OP, TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER "audit_events_append_only" BEFORE UPDATE OR DELETE ON "audit_events" FOR EACH ROW EXECUTE FUNCTION "audit_refuse_change"();
CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events" FOR EACH STATEMENT EXECUTE FUNCTION "audit_refuse_change"();
CREATE TRIGGER "audit_seals_append_only" BEFORE UPDATE OR DELETE ON "audit_seals" FOR EACH ROW EXECUTE FUNCTION "audit_refuse_change"();
CREATE TRIGGER "audit_seals_no_truncate" BEFORE TRUNCATE ON "audit_seals" FOR EACH STATEMENT EXECUTE FUNCTION "audit_refuse_change"();
CREATE TRIGGER "audit_anchors_append_only" BEFORE UPDATE OR DELETE ON "audit_anchors" FOR EACH ROW EXECUTE FUNCTION "audit_refuse_change"();
CREATE TRIGGER "audit_anchors_no_truncate" BEFORE TRUNCATE ON "audit_anchors" FOR EACH STATEMENT EXECUTE FUNCTION "audit_refuse_change"();

-- Retention: removes the longest sealed prefix of the chain whose events all occurred before
-- `cutoff`, after recording its last seal as an anchor (where verification then starts). Takes the
-- sealer's lock so the chain does not move meanwhile. Returns the number of events removed.
CREATE FUNCTION "audit_prune"(cutoff TIMESTAMPTZ) RETURNS BIGINT LANGUAGE plpgsql AS $$
DECLARE
  last_seal "audit_seals"%ROWTYPE;
  removed BIGINT;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('audit_seal'));
  SELECT s.* INTO last_seal FROM "audit_seals" s
  WHERE s.seq < COALESCE(
    (SELECT min(s2.seq) FROM "audit_seals" s2 JOIN "audit_events" e ON e.id = s2.event_id WHERE e.occurred_at >= cutoff),
    (SELECT max(s3.seq) + 1 FROM "audit_seals" s3))
  ORDER BY s.seq DESC LIMIT 1;
  IF NOT FOUND THEN
    RETURN 0;
  END IF;
  PERFORM set_config('audit.pruning', 'on', true);
  DELETE FROM "audit_events" e USING "audit_seals" s WHERE s.event_id = e.id AND s.seq <= last_seal.seq;
  GET DIAGNOSTICS removed = ROW_COUNT;
  DELETE FROM "audit_seals" WHERE seq <= last_seal.seq;
  PERFORM set_config('audit.pruning', 'off', true);
  INSERT INTO "audit_anchors" (seq, event_id, event_xid, hash, removed_events, cutoff)
  VALUES (last_seal.seq, last_seal.event_id, last_seal.event_xid, last_seal.hash, removed, cutoff);
  RETURN removed;
END
$$;
