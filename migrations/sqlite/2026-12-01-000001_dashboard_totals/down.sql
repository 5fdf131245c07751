DROP TRIGGER ledger_totals_update;
DROP TRIGGER ledger_totals_delete;
DROP TRIGGER ledger_totals_insert;
DROP TABLE ledger_totals;
DROP TRIGGER order_totals_delete;
DROP TRIGGER order_totals_update;
DROP TRIGGER order_totals_insert;
DROP TABLE order_totals;
