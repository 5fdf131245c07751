-- Issue 50: a handover submitted twice (a double click, a retry after a dropped answer) is one
-- handover: the dashboard sends a key with each, and a key is stored once.
ALTER TABLE cash_handovers ADD COLUMN idempotency_key TEXT;
CREATE UNIQUE INDEX cash_handovers_idempotency_key ON cash_handovers (idempotency_key);
