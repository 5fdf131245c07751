-- Issue 19: the satisfaction guarantee. A customer not satisfied with a delivered order asks, from
-- the order's own page and within a number of days of its delivery, for some of its lines to be
-- cleaned again: that is a new order at KSh 0 (its own pickup, run and texts), linked here to the
-- order it re-cleans. Times are UTC.
CREATE TABLE recleans (
    -- The new order, the re-clean.
    order_id TEXT PRIMARY KEY NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    -- The delivered order it cleans again.
    original_order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    -- What the customer says is wrong, as typed.
    problem TEXT NOT NULL,
    requested_at TIMESTAMP NOT NULL
);
CREATE INDEX recleans_by_original ON recleans (original_order_id);
CREATE INDEX recleans_by_time ON recleans (requested_at);

-- Which lines of the original order a re-clean takes: each line once, ever (the primary key), so
-- that the guarantee cannot be asked twice for the same clothes.
CREATE TABLE reclean_lines (
    original_order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    -- The line's position in the original order (order_lines.position).
    original_position INTEGER NOT NULL,
    reclean_order_id TEXT NOT NULL REFERENCES recleans (order_id) ON DELETE CASCADE,
    PRIMARY KEY (original_order_id, original_position)
);
CREATE INDEX reclean_lines_by_reclean ON reclean_lines (reclean_order_id);
