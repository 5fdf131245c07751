DROP INDEX outbox_delivery;
DROP INDEX outbox_attempts;
DROP TRIGGER outbox_totals_update ON outbox;
DROP TRIGGER outbox_totals_insert_delete ON outbox;
DROP FUNCTION outbox_totals_keep();
DROP TABLE outbox_totals;
