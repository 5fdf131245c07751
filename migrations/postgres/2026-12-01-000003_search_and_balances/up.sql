-- Issue 32: staff search orders by name, pickup location and phone number through an index, so
-- that a search costs the same at 1,000 orders and at 100,000. One row of words for each order (its
-- name, location and phone number, lower case) with a trigram index (pg_trgm, a trusted extension
-- since PostgreSQL 13: the database's owner may create it): it answers `words LIKE '%kilimani%'`
-- from the index for any run of three characters or more. Kept by the trigger below; a deleted
-- order takes its row with it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE TABLE order_search (
    order_id TEXT PRIMARY KEY NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    words TEXT NOT NULL
);
INSERT INTO order_search (order_id, words)
SELECT id, lower(customer_name) || ' | ' || lower(location) || ' | ' || phone FROM orders;
CREATE INDEX order_search_words ON order_search USING gin (words gin_trgm_ops);

CREATE FUNCTION order_search_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO order_search (order_id, words)
    VALUES (NEW.id, lower(NEW.customer_name) || ' | ' || lower(NEW.location) || ' | ' || NEW.phone)
    ON CONFLICT (order_id) DO UPDATE SET words = EXCLUDED.words;
    RETURN NULL;
END;
$$;
CREATE TRIGGER order_search_keep AFTER INSERT OR UPDATE OF customer_name, location, phone ON orders
    FOR EACH ROW EXECUTE FUNCTION order_search_keep();

-- The orders of each status, kept by triggers: the order list counts its pages from them when it
-- is filtered by status alone (or not at all), rather than counting the orders.
CREATE TABLE order_status_counts (
    status TEXT PRIMARY KEY NOT NULL,
    orders BIGINT NOT NULL
);
INSERT INTO order_status_counts (status, orders)
SELECT s.status, (SELECT COUNT(*) FROM orders WHERE orders.status = s.status)
FROM (VALUES ('pending'), ('picked-up'), ('in-progress'), ('ready'), ('delivered'), ('cancelled')) AS s (status);

CREATE FUNCTION order_status_counts_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE order_status_counts SET orders = orders - 1 WHERE status = OLD.status;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        UPDATE order_status_counts SET orders = orders + 1 WHERE status = NEW.status;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER order_status_counts_insert_delete AFTER INSERT OR DELETE ON orders
    FOR EACH ROW EXECUTE FUNCTION order_status_counts_keep();
CREATE TRIGGER order_status_counts_update AFTER UPDATE OF status ON orders
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION order_status_counts_keep();

-- Each order's balance (what is still to pay, as the ledger sums it: payments negative) and its
-- first entry, kept by triggers: the balances' lists and the order list's "unpaid" filter read the
-- few orders that owe or are owed rather than summing every entry ever written. Entries are
-- corrected by new entries, not edited; the trigger keeps the sum right if one ever is.
CREATE TABLE order_balances (
    order_id TEXT PRIMARY KEY NOT NULL,
    due BIGINT NOT NULL,
    first_entry BIGINT NOT NULL
);
INSERT INTO order_balances (order_id, due, first_entry)
SELECT order_id, SUM(CASE WHEN kind = 'payment' THEN -amount ELSE amount END), MIN(id)
FROM ledger_entries GROUP BY order_id;
CREATE INDEX order_balances_due ON order_balances (due);

CREATE FUNCTION order_balances_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE order_balances SET due = due - CASE WHEN OLD.kind = 'payment' THEN -OLD.amount ELSE OLD.amount END
        WHERE order_id = OLD.order_id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO order_balances (order_id, due, first_entry)
        VALUES (NEW.order_id, CASE WHEN NEW.kind = 'payment' THEN -NEW.amount ELSE NEW.amount END, NEW.id)
        ON CONFLICT (order_id) DO UPDATE SET due = order_balances.due + EXCLUDED.due;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER order_balances_insert_delete AFTER INSERT OR DELETE ON ledger_entries
    FOR EACH ROW EXECUTE FUNCTION order_balances_keep();
CREATE TRIGGER order_balances_update AFTER UPDATE OF order_id, kind, amount ON ledger_entries
    FOR EACH ROW EXECUTE FUNCTION order_balances_keep();

-- The texts to one phone number lately (the limits per phone): found by their own index, not
-- among every text ever sent.
CREATE INDEX outbox_phone ON outbox (to_phone, created_at);
