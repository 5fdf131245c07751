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

CREATE TRIGGER report_days_entry_insert AFTER INSERT ON ledger_entries BEGIN
    DELETE FROM report_days WHERE day = date(NEW.recorded_at, '+3 hours');
END;
CREATE TRIGGER report_days_entry_update AFTER UPDATE ON ledger_entries BEGIN
    DELETE FROM report_days WHERE day IN (date(OLD.recorded_at, '+3 hours'), date(NEW.recorded_at, '+3 hours'));
END;
CREATE TRIGGER report_days_entry_delete AFTER DELETE ON ledger_entries BEGIN
    DELETE FROM report_days WHERE day = date(OLD.recorded_at, '+3 hours');
END;

-- An order's day, and the days of the same number's later orders: whether an order is a
-- customer's first depends on the orders before it.
CREATE TRIGGER report_days_order_insert AFTER INSERT ON orders BEGIN
    DELETE FROM report_days WHERE day = date(NEW.created_at, '+3 hours');
    DELETE FROM report_days WHERE day IN
        (SELECT date(created_at, '+3 hours') FROM orders WHERE phone = NEW.phone AND created_at > NEW.created_at);
END;
CREATE TRIGGER report_days_order_update AFTER UPDATE OF status, total_amount, created_at, phone ON orders BEGIN
    DELETE FROM report_days WHERE day IN (date(OLD.created_at, '+3 hours'), date(NEW.created_at, '+3 hours'));
    DELETE FROM report_days WHERE day IN
        (SELECT date(created_at, '+3 hours') FROM orders
         WHERE phone IN (OLD.phone, NEW.phone) AND created_at > min(OLD.created_at, NEW.created_at));
    DELETE FROM report_days WHERE day IN
        (SELECT date(recorded_at, '+3 hours') FROM ledger_entries WHERE order_id = NEW.id AND OLD.phone <> NEW.phone);
END;
CREATE TRIGGER report_days_order_delete AFTER DELETE ON orders BEGIN
    DELETE FROM report_days WHERE day = date(OLD.created_at, '+3 hours');
    DELETE FROM report_days WHERE day IN
        (SELECT date(created_at, '+3 hours') FROM orders WHERE phone = OLD.phone AND created_at > OLD.created_at);
END;

CREATE TRIGGER report_days_line_insert AFTER INSERT ON order_lines BEGIN
    DELETE FROM report_days WHERE day = (SELECT date(created_at, '+3 hours') FROM orders WHERE id = NEW.order_id);
END;
CREATE TRIGGER report_days_line_update AFTER UPDATE ON order_lines BEGIN
    DELETE FROM report_days WHERE day IN (SELECT date(created_at, '+3 hours') FROM orders WHERE id IN (OLD.order_id, NEW.order_id));
END;
CREATE TRIGGER report_days_line_delete AFTER DELETE ON order_lines BEGIN
    DELETE FROM report_days WHERE day = (SELECT date(created_at, '+3 hours') FROM orders WHERE id = OLD.order_id);
END;

CREATE TRIGGER report_days_stop_insert AFTER INSERT ON stops BEGIN
    DELETE FROM report_days WHERE day IN (SELECT day FROM stops WHERE order_id = NEW.order_id);
END;
CREATE TRIGGER report_days_stop_update AFTER UPDATE OF state, day, window_end, done_at ON stops BEGIN
    DELETE FROM report_days WHERE day = OLD.day;
    DELETE FROM report_days WHERE day IN (SELECT day FROM stops WHERE order_id IN (OLD.order_id, NEW.order_id));
END;
CREATE TRIGGER report_days_stop_delete AFTER DELETE ON stops BEGIN
    DELETE FROM report_days WHERE day = OLD.day;
    DELETE FROM report_days WHERE day IN (SELECT day FROM stops WHERE order_id = OLD.order_id);
END;

CREATE TRIGGER report_days_miss_insert AFTER INSERT ON stop_misses BEGIN
    DELETE FROM report_days WHERE day = NEW.day;
END;
CREATE TRIGGER report_days_miss_update AFTER UPDATE ON stop_misses BEGIN
    DELETE FROM report_days WHERE day IN (OLD.day, NEW.day);
END;
CREATE TRIGGER report_days_miss_delete AFTER DELETE ON stop_misses BEGIN
    DELETE FROM report_days WHERE day = OLD.day;
END;

CREATE TRIGGER report_days_reclean_insert AFTER INSERT ON recleans BEGIN
    DELETE FROM report_days WHERE day = date(NEW.requested_at, '+3 hours');
END;
CREATE TRIGGER report_days_reclean_update AFTER UPDATE ON recleans BEGIN
    DELETE FROM report_days WHERE day IN (date(OLD.requested_at, '+3 hours'), date(NEW.requested_at, '+3 hours'));
END;
CREATE TRIGGER report_days_reclean_delete AFTER DELETE ON recleans BEGIN
    DELETE FROM report_days WHERE day = date(OLD.requested_at, '+3 hours');
END;

CREATE TRIGGER report_days_handover_insert AFTER INSERT ON cash_handovers BEGIN
    DELETE FROM report_days WHERE day = NEW.day;
END;
CREATE TRIGGER report_days_handover_update AFTER UPDATE ON cash_handovers BEGIN
    DELETE FROM report_days WHERE day IN (OLD.day, NEW.day);
END;
CREATE TRIGGER report_days_handover_delete AFTER DELETE ON cash_handovers BEGIN
    DELETE FROM report_days WHERE day = OLD.day;
END;
