-- Issue 32: a search that many orders match is paged by walking the orders newest first and
-- testing each order's own name, location and phone number with the `LIKE` the trigram index of
-- `order_search` answers, stopping at the page's end.
--
-- The walk follows the list's order, (created_at, id), from one index: no sort of the orders in
-- between.
DROP INDEX orders_created;
CREATE INDEX orders_created ON orders (created_at, id);
-- Statistics on the words the walk tests: without them the planner takes a `LIKE '%kilimani%'` to
-- match almost nothing, so it reads and sorts every order of the walk instead of stopping after a
-- page's worth (7 ms rather than 0.1 at 100,000 orders). Statistics on an expression need
-- PostgreSQL 14; on 13 the search still finds the same orders, only slower.
DO $$
BEGIN
    IF current_setting('server_version_num')::int >= 140000 THEN
        EXECUTE 'CREATE STATISTICS orders_search_words ON ((lower(customer_name) || '' | '' || lower(location) || '' | '' || phone)) FROM orders';
    END IF;
END
$$;
ANALYZE orders;

-- The windows' bookings are counted from the index alone (the state was read from each stop):
-- the order form, the dashboard's "Move to" and every booking count a horizon of pickups, which
-- grows with a shop's orders a day.
DROP INDEX stops_day_window;
CREATE INDEX stops_day_window ON stops (day, kind, window_start, state);
