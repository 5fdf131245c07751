-- Issue 34: the owner's reports count missed stops per week. A missed stop that is moved to a new
-- window is the same row with its miss cleared, so each miss is written down as it happens, by the
-- trigger below (every code path that marks a stop missed passes through it): the stop, its order,
-- pickup or delivery, the day and window it was missed in, why, when and by whom.
CREATE TABLE stop_misses (
    id BIGSERIAL PRIMARY KEY,
    stop_id TEXT NOT NULL,
    order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    day DATE NOT NULL,
    window_start INTEGER NOT NULL,
    reason TEXT,
    missed_at TIMESTAMP NOT NULL,
    missed_by TEXT
);
CREATE INDEX stop_misses_day ON stop_misses (day, kind);
INSERT INTO stop_misses (stop_id, order_id, kind, day, window_start, reason, missed_at, missed_by)
SELECT id, order_id, kind, day, window_start, missed_reason, COALESCE(missed_at, created_at), missed_by
FROM stops WHERE state = 'missed';

CREATE FUNCTION stop_misses_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO stop_misses (stop_id, order_id, kind, day, window_start, reason, missed_at, missed_by)
    VALUES (NEW.id, NEW.order_id, NEW.kind, NEW.day, NEW.window_start, NEW.missed_reason,
            COALESCE(NEW.missed_at, NEW.created_at), NEW.missed_by);
    RETURN NULL;
END;
$$;
CREATE TRIGGER stop_misses_keep AFTER UPDATE OF state ON stops
    FOR EACH ROW WHEN (NEW.state = 'missed' AND OLD.state <> 'missed')
    EXECUTE FUNCTION stop_misses_keep();

-- The parts of the Reports tab the owner lets staff see (one row each); none at first.
CREATE TABLE report_sharing (
    section TEXT PRIMARY KEY NOT NULL,
    shared_by TEXT NOT NULL,
    shared_at TIMESTAMP NOT NULL
);
