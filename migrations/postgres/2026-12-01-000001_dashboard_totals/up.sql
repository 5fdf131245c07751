-- Issue 32: the dashboard's figures that cover all history (orders ever, their totals, the totals
-- of cancelled orders, the money ever received by method) are kept as orders and ledger entries
-- change, by triggers, so that reading them costs the same at 100 orders and at 100,000. The
-- triggers are the one place that keeps them: no code path that writes orders or entries can miss
-- them. A test recounts them after random histories (server/tests/api/dashboard_totals.rs).
CREATE TABLE order_totals (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    orders BIGINT NOT NULL,
    amount BIGINT NOT NULL,
    cancelled_amount BIGINT NOT NULL
);
INSERT INTO order_totals (id, orders, amount, cancelled_amount)
SELECT 1, COUNT(*), COALESCE(SUM(total_amount), 0),
       COALESCE(SUM(CASE WHEN status = 'cancelled' THEN total_amount ELSE 0 END), 0)
FROM orders;

CREATE FUNCTION order_totals_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE order_totals SET orders = orders - 1, amount = amount - OLD.total_amount,
            cancelled_amount = cancelled_amount - CASE WHEN OLD.status = 'cancelled' THEN OLD.total_amount ELSE 0 END
        WHERE id = 1;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        UPDATE order_totals SET orders = orders + 1, amount = amount + NEW.total_amount,
            cancelled_amount = cancelled_amount + CASE WHEN NEW.status = 'cancelled' THEN NEW.total_amount ELSE 0 END
        WHERE id = 1;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER order_totals_insert_delete AFTER INSERT OR DELETE ON orders
    FOR EACH ROW EXECUTE FUNCTION order_totals_keep();
CREATE TRIGGER order_totals_update AFTER UPDATE OF total_amount, status ON orders
    FOR EACH ROW WHEN (OLD.total_amount IS DISTINCT FROM NEW.total_amount OR OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION order_totals_keep();

-- Payments and refunds ever, by kind and method: one row for each pair, kept by the triggers.
CREATE TABLE ledger_totals (
    kind TEXT NOT NULL CHECK (kind IN ('payment', 'refund')),
    method TEXT NOT NULL,
    amount BIGINT NOT NULL,
    PRIMARY KEY (kind, method)
);
INSERT INTO ledger_totals (kind, method, amount)
SELECT k.kind, m.method,
       (SELECT COALESCE(SUM(e.amount), 0) FROM ledger_entries e WHERE e.kind = k.kind AND e.method = m.method)
FROM (VALUES ('payment'), ('refund')) AS k (kind),
     (VALUES ('prompt'), ('till'), ('code'), ('cash'), ('credit'), ('mpesa-reversal')) AS m (method);

CREATE FUNCTION ledger_totals_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.kind IN ('payment', 'refund') THEN
        UPDATE ledger_totals SET amount = amount - OLD.amount WHERE kind = OLD.kind AND method = OLD.method;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.kind IN ('payment', 'refund') THEN
        UPDATE ledger_totals SET amount = amount + NEW.amount WHERE kind = NEW.kind AND method = NEW.method;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER ledger_totals_keep AFTER INSERT OR DELETE OR UPDATE OF kind, method, amount ON ledger_entries
    FOR EACH ROW EXECUTE FUNCTION ledger_totals_keep();
