DROP TRIGGER ledger_totals_keep ON ledger_entries;
DROP FUNCTION ledger_totals_keep();
DROP TABLE ledger_totals;
DROP TRIGGER order_totals_update ON orders;
DROP TRIGGER order_totals_insert_delete ON orders;
DROP FUNCTION order_totals_keep();
DROP TABLE order_totals;
