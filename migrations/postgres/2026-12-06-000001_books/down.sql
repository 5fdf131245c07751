DROP INDEX ledger_entries_credit;
DROP TRIGGER order_totals_billed_keep ON ledger_entries;
DROP FUNCTION order_totals_billed_keep();
ALTER TABLE order_totals DROP COLUMN billed;
