-- Issue 34: the owner's reports over a year must not read a year of orders, entries and stops on
-- every view. Each past Nairobi day's figures (money by method, orders, kilos and pieces, stops
-- done, on time and missed, turnaround, re-cleans, cash by holder, the customers who ordered and
-- what each paid) are kept here once counted,
-- as JSON (models::reports::DayFigures), and forgotten by the triggers below the moment anything
-- they were counted from changes: an entry, an order (and the same number's later orders: whether
-- an order is a customer's first depends on those before it) or its lines, a stop (both days of its
-- order's stops: a pickup's time is a delivery's turnaround), a miss, a re-clean, a handover. A
-- forgotten day is counted again at the next view. The triggers are the one place that forgets:
-- no code path that writes these tables can leave a day stale.
CREATE TABLE report_days (
    day DATE PRIMARY KEY NOT NULL,
    figures TEXT NOT NULL,
    counted_at TIMESTAMP NOT NULL
);

-- A stored UTC time's Nairobi day.
CREATE FUNCTION report_day_of(at TIMESTAMP) RETURNS DATE LANGUAGE sql IMMUTABLE AS $$
    SELECT (at + interval '3 hours')::date
$$;

CREATE FUNCTION report_days_forget_entry() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        DELETE FROM report_days WHERE day = report_day_of(OLD.recorded_at);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        DELETE FROM report_days WHERE day = report_day_of(NEW.recorded_at);
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER report_days_entry AFTER INSERT OR UPDATE OR DELETE ON ledger_entries
    FOR EACH ROW EXECUTE FUNCTION report_days_forget_entry();

-- An order's day, and the days of the same number's later orders: whether an order is a
-- customer's first depends on the orders before it.
CREATE FUNCTION report_days_forget_order() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        DELETE FROM report_days WHERE day = report_day_of(OLD.created_at);
        DELETE FROM report_days WHERE day IN
            (SELECT report_day_of(created_at) FROM orders WHERE phone = OLD.phone AND created_at > OLD.created_at);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        DELETE FROM report_days WHERE day = report_day_of(NEW.created_at);
        DELETE FROM report_days WHERE day IN
            (SELECT report_day_of(created_at) FROM orders WHERE phone = NEW.phone AND created_at > NEW.created_at);
    END IF;
    IF TG_OP = 'UPDATE' AND OLD.phone <> NEW.phone THEN
        DELETE FROM report_days WHERE day IN
            (SELECT report_day_of(recorded_at) FROM ledger_entries WHERE order_id = NEW.id);
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER report_days_order AFTER INSERT OR DELETE ON orders
    FOR EACH ROW EXECUTE FUNCTION report_days_forget_order();
CREATE TRIGGER report_days_order_update AFTER UPDATE OF status, total_amount, created_at, phone ON orders
    FOR EACH ROW EXECUTE FUNCTION report_days_forget_order();

CREATE FUNCTION report_days_forget_line() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        DELETE FROM report_days WHERE day = (SELECT report_day_of(created_at) FROM orders WHERE id = OLD.order_id);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        DELETE FROM report_days WHERE day = (SELECT report_day_of(created_at) FROM orders WHERE id = NEW.order_id);
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER report_days_line AFTER INSERT OR UPDATE OR DELETE ON order_lines
    FOR EACH ROW EXECUTE FUNCTION report_days_forget_line();

CREATE FUNCTION report_days_forget_stop() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        DELETE FROM report_days WHERE day = OLD.day;
        DELETE FROM report_days WHERE day IN (SELECT day FROM stops WHERE order_id = OLD.order_id);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        DELETE FROM report_days WHERE day IN (SELECT day FROM stops WHERE order_id = NEW.order_id);
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER report_days_stop AFTER INSERT OR DELETE ON stops
    FOR EACH ROW EXECUTE FUNCTION report_days_forget_stop();
CREATE TRIGGER report_days_stop_update AFTER UPDATE OF state, day, window_end, done_at ON stops
    FOR EACH ROW EXECUTE FUNCTION report_days_forget_stop();

CREATE FUNCTION report_days_forget_day() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        DELETE FROM report_days WHERE day = OLD.day;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        DELETE FROM report_days WHERE day = NEW.day;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER report_days_miss AFTER INSERT OR UPDATE OR DELETE ON stop_misses
    FOR EACH ROW EXECUTE FUNCTION report_days_forget_day();
CREATE TRIGGER report_days_handover AFTER INSERT OR UPDATE OR DELETE ON cash_handovers
    FOR EACH ROW EXECUTE FUNCTION report_days_forget_day();

CREATE FUNCTION report_days_forget_reclean() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        DELETE FROM report_days WHERE day = report_day_of(OLD.requested_at);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        DELETE FROM report_days WHERE day = report_day_of(NEW.requested_at);
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER report_days_reclean AFTER INSERT OR UPDATE OR DELETE ON recleans
    FOR EACH ROW EXECUTE FUNCTION report_days_forget_reclean();
