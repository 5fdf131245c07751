-- Issue 49: books that match the till. The dashboard's "Total revenue" is the ledger's net bill of
-- the orders not cancelled, after discounts: the sum of every charge, adjustment and discount (a
-- cancellation's adjustment takes its order's charges back). It is kept beside the other totals over
-- all history by triggers, so that reading it costs the same at 100 orders and at 100,000.
ALTER TABLE order_totals ADD COLUMN billed BIGINT NOT NULL DEFAULT 0;
UPDATE order_totals SET billed = (
    SELECT COALESCE(SUM(amount), 0) FROM ledger_entries WHERE kind IN ('charge', 'adjustment', 'discount')
) WHERE id = 1;

CREATE TRIGGER order_totals_billed_insert AFTER INSERT ON ledger_entries
WHEN NEW.kind IN ('charge', 'adjustment', 'discount') BEGIN
    UPDATE order_totals SET billed = billed + NEW.amount WHERE id = 1;
END;
CREATE TRIGGER order_totals_billed_delete AFTER DELETE ON ledger_entries
WHEN OLD.kind IN ('charge', 'adjustment', 'discount') BEGIN
    UPDATE order_totals SET billed = billed - OLD.amount WHERE id = 1;
END;
CREATE TRIGGER order_totals_billed_update AFTER UPDATE OF kind, amount ON ledger_entries BEGIN
    UPDATE order_totals SET billed = billed
        - CASE WHEN OLD.kind IN ('charge', 'adjustment', 'discount') THEN OLD.amount ELSE 0 END
        + CASE WHEN NEW.kind IN ('charge', 'adjustment', 'discount') THEN NEW.amount ELSE 0 END
    WHERE id = 1;
END;

-- Store credit owed at a moment (the month's summary: at the month's end) is the credit entries
-- before it: few among the entries, read through an index of their own.
CREATE INDEX ledger_entries_credit ON ledger_entries (recorded_at) WHERE method = 'credit';
