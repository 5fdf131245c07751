DROP INDEX ledger_entries_credit;
DROP TRIGGER order_totals_billed_update;
DROP TRIGGER order_totals_billed_delete;
DROP TRIGGER order_totals_billed_insert;
ALTER TABLE order_totals DROP COLUMN billed;
