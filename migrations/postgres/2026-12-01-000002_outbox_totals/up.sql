-- Issue 32: the outbox report's counts (messages by channel and status, and texts the network did
-- not deliver) are kept by triggers as rows change, so that the report does not count every
-- message ever sent on each poll; and its two "newest problem" look-ups get indexes that reach
-- the rows they want without passing over the sent ones. Recounted after random histories by
-- server/tests/api/dashboard_totals.rs.
CREATE TABLE outbox_totals (
    channel TEXT NOT NULL,
    status TEXT NOT NULL,
    messages BIGINT NOT NULL,
    -- Of those, the ones whose last delivery report said failed.
    undelivered BIGINT NOT NULL,
    PRIMARY KEY (channel, status)
);
INSERT INTO outbox_totals (channel, status, messages, undelivered)
SELECT c.channel, s.status,
       (SELECT COUNT(*) FROM outbox o WHERE o.channel = c.channel AND o.status = s.status),
       (SELECT COUNT(*) FROM outbox o WHERE o.channel = c.channel AND o.status = s.status AND o.delivery = 'failed')
FROM (VALUES ('email'), ('sms')) AS c (channel),
     (VALUES ('pending'), ('sent'), ('failed'), ('blocked'), ('skipped')) AS s (status);

CREATE FUNCTION outbox_totals_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE outbox_totals SET messages = messages - 1,
            undelivered = undelivered - CASE WHEN OLD.delivery = 'failed' THEN 1 ELSE 0 END
        WHERE channel = OLD.channel AND status = OLD.status;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        UPDATE outbox_totals SET messages = messages + 1,
            undelivered = undelivered + CASE WHEN NEW.delivery = 'failed' THEN 1 ELSE 0 END
        WHERE channel = NEW.channel AND status = NEW.status;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER outbox_totals_insert_delete AFTER INSERT OR DELETE ON outbox
    FOR EACH ROW EXECUTE FUNCTION outbox_totals_keep();
CREATE TRIGGER outbox_totals_update AFTER UPDATE OF channel, status, delivery ON outbox
    FOR EACH ROW WHEN (OLD.channel IS DISTINCT FROM NEW.channel OR OLD.status IS DISTINCT FROM NEW.status
                       OR OLD.delivery IS DISTINCT FROM NEW.delivery)
    EXECUTE FUNCTION outbox_totals_keep();

CREATE INDEX outbox_attempts ON outbox (channel, status, last_attempt_at);
CREATE INDEX outbox_delivery ON outbox (channel, status, delivery, delivery_at);
