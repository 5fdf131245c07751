-- Issue 32: a search that many orders match is paged by walking the orders newest first and
-- testing each order's own name, location and phone number (`instr` on the same text the index
-- holds), and counted through the index. Both must find the same orders, so the index now matches
-- the words as they are stored (lower case by `lower()`, which folds ASCII letters only), not
-- folded again by the tokenizer's own Unicode case folding: `case_sensitive 1`. The search's text
-- is lowered the same way (ASCII letters), so "ÉLODIE" finds "Élodie" and "kilimani" finds
-- "Kilimani", as before; "élodie" no longer finds "Élodie".
--
-- The walk follows the list's order, (created_at, id), from one index: no sort of the orders in
-- between.
DROP INDEX orders_created;
CREATE INDEX orders_created ON orders (created_at, id);
DROP TRIGGER order_search_insert;
DROP TRIGGER order_search_update;
DROP TRIGGER order_search_delete;
DROP TABLE order_search;

CREATE VIRTUAL TABLE order_search USING fts5 (order_id UNINDEXED, words, tokenize = 'trigram case_sensitive 1');
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

-- The windows' bookings are counted from the index alone (the state was read from each stop):
-- the order form, the dashboard's "Move to" and every booking count a horizon of pickups, which
-- grows with a shop's orders a day.
DROP INDEX stops_day_window;
CREATE INDEX stops_day_window ON stops (day, kind, window_start, state);
