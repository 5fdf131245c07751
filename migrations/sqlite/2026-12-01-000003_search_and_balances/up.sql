-- Issue 32: staff search orders by name, pickup location and phone number through an index, so
-- that a search costs the same at 1,000 orders and at 100,000. One row of words for each order (its
-- name, location and phone number, lower case), in an FTS5 table with the trigram tokenizer: it
-- answers `words LIKE '%kilimani%'` from its index for any run of three characters or more (SQLite
-- 3.34 and later, built with FTS5, as Debian's is). Kept by the triggers below; names, locations
-- and phone numbers are not edited after an order is placed, and orders are not deleted, so the
-- update and delete triggers (which find the row by a column the index does not cover) never run
-- in service.
CREATE VIRTUAL TABLE order_search USING fts5 (order_id UNINDEXED, words, tokenize = 'trigram');
INSERT INTO order_search (order_id, words)
SELECT id, lower(customer_name) || ' | ' || lower(location) || ' | ' || phone FROM orders;

CREATE TRIGGER order_search_insert AFTER INSERT ON orders BEGIN
    INSERT INTO order_search (order_id, words)
    VALUES (NEW.id, lower(NEW.customer_name) || ' | ' || lower(NEW.location) || ' | ' || NEW.phone);
END;
CREATE TRIGGER order_search_update AFTER UPDATE OF customer_name, location, phone ON orders BEGIN
    DELETE FROM order_search WHERE order_id = OLD.id;
    INSERT INTO order_search (order_id, words)
    VALUES (NEW.id, lower(NEW.customer_name) || ' | ' || lower(NEW.location) || ' | ' || NEW.phone);
END;
CREATE TRIGGER order_search_delete AFTER DELETE ON orders BEGIN
    DELETE FROM order_search WHERE order_id = OLD.id;
END;

-- The orders of each status, kept by triggers: the order list counts its pages from them when it
-- is filtered by status alone (or not at all), rather than counting the orders.
CREATE TABLE order_status_counts (
    status TEXT PRIMARY KEY NOT NULL,
    orders BIGINT NOT NULL
);
INSERT INTO order_status_counts (status, orders)
SELECT s.status, (SELECT COUNT(*) FROM orders WHERE orders.status = s.status)
FROM (SELECT 'pending' AS status UNION ALL SELECT 'picked-up' UNION ALL SELECT 'in-progress'
      UNION ALL SELECT 'ready' UNION ALL SELECT 'delivered' UNION ALL SELECT 'cancelled') s;

CREATE TRIGGER order_status_counts_insert AFTER INSERT ON orders BEGIN
    UPDATE order_status_counts SET orders = orders + 1 WHERE status = NEW.status;
END;
CREATE TRIGGER order_status_counts_update AFTER UPDATE OF status ON orders WHEN OLD.status <> NEW.status BEGIN
    UPDATE order_status_counts SET orders = orders - 1 WHERE status = OLD.status;
    UPDATE order_status_counts SET orders = orders + 1 WHERE status = NEW.status;
END;
CREATE TRIGGER order_status_counts_delete AFTER DELETE ON orders BEGIN
    UPDATE order_status_counts SET orders = orders - 1 WHERE status = OLD.status;
END;

-- Each order's balance (what is still to pay, as the ledger sums it: payments negative) and its
-- first entry, kept by triggers: the balances' lists and the order list's "unpaid" filter read the
-- few orders that owe or are owed rather than summing every entry ever written. Entries are corrected by new entries, not edited;
-- the update and delete triggers keep the sum right if one ever is.
CREATE TABLE order_balances (
    order_id TEXT PRIMARY KEY NOT NULL,
    due BIGINT NOT NULL,
    first_entry BIGINT NOT NULL
);
INSERT INTO order_balances (order_id, due, first_entry)
SELECT order_id, SUM(CASE WHEN kind = 'payment' THEN -amount ELSE amount END), MIN(id)
FROM ledger_entries GROUP BY order_id;
CREATE INDEX order_balances_due ON order_balances (due);

CREATE TRIGGER order_balances_insert AFTER INSERT ON ledger_entries BEGIN
    INSERT INTO order_balances (order_id, due, first_entry)
    VALUES (NEW.order_id, CASE WHEN NEW.kind = 'payment' THEN -NEW.amount ELSE NEW.amount END, NEW.id)
    ON CONFLICT (order_id) DO UPDATE SET due = due + excluded.due;
END;
CREATE TRIGGER order_balances_update AFTER UPDATE OF order_id, kind, amount ON ledger_entries BEGIN
    UPDATE order_balances SET due = due - CASE WHEN OLD.kind = 'payment' THEN -OLD.amount ELSE OLD.amount END
    WHERE order_id = OLD.order_id;
    INSERT INTO order_balances (order_id, due, first_entry)
    VALUES (NEW.order_id, CASE WHEN NEW.kind = 'payment' THEN -NEW.amount ELSE NEW.amount END, NEW.id)
    ON CONFLICT (order_id) DO UPDATE SET due = due + excluded.due;
END;
CREATE TRIGGER order_balances_delete AFTER DELETE ON ledger_entries BEGIN
    UPDATE order_balances SET due = due - CASE WHEN OLD.kind = 'payment' THEN -OLD.amount ELSE OLD.amount END
    WHERE order_id = OLD.order_id;
END;

-- The texts to one phone number lately (the limits per phone), the messages sent on one day (the
-- daily budget): each found by its own index, not among every message ever sent.
CREATE INDEX outbox_phone ON outbox (to_phone, created_at);
-- (The index of the daily budget, outbox_sent, was lost when a later migration rebuilt the table.)
CREATE INDEX IF NOT EXISTS outbox_sent ON outbox (channel, sent_at);
