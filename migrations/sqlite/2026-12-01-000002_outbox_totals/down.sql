DROP INDEX outbox_delivery;
DROP INDEX outbox_attempts;
DROP TRIGGER outbox_totals_delete;
DROP TRIGGER outbox_totals_update;
DROP TRIGGER outbox_totals_insert;
DROP TABLE outbox_totals;
