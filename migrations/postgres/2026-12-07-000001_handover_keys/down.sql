DROP INDEX cash_handovers_idempotency_key;
ALTER TABLE cash_handovers DROP COLUMN idempotency_key;
