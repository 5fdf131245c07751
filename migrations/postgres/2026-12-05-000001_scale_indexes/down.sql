DROP STATISTICS IF EXISTS orders_search_words;
DROP INDEX orders_created;
CREATE INDEX orders_created ON orders (created_at);
DROP INDEX stops_day_window;
CREATE INDEX stops_day_window ON stops (day, kind, window_start);
