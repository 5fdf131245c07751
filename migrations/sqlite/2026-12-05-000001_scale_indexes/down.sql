-- Back to the tokenizer's own case folding (2026-12-01-000003_search_and_balances).
DROP TRIGGER order_search_insert;
DROP TRIGGER order_search_update;
DROP TRIGGER order_search_delete;
DROP TABLE order_search;

CREATE VIRTUAL TABLE order_search USING fts5 (order_id UNINDEXED, words, tokenize = 'trigram case_sensitive 0');
INSERT INTO order_search (order_id, words)
SELECT id, lower(customer_name) || ' | ' || lower(location) || ' | ' || phone FROM orders;

-- As before: names, locations and phone numbers are not edited after an order is placed, and
-- orders are not deleted, so the update and delete triggers (which find the row by a column the
-- index does not cover) never run in service.
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

DROP INDEX orders_created;
CREATE INDEX orders_created ON orders (created_at);
DROP INDEX stops_day_window;
CREATE INDEX stops_day_window ON stops (day, kind, window_start);
