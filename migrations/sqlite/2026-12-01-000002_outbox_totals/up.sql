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
FROM (SELECT 'email' AS channel UNION ALL SELECT 'sms') c,
     (SELECT 'pending' AS status UNION ALL SELECT 'sent' UNION ALL SELECT 'failed' UNION ALL SELECT 'blocked'
      UNION ALL SELECT 'skipped') s;

CREATE TRIGGER outbox_totals_insert AFTER INSERT ON outbox BEGIN
    UPDATE outbox_totals SET messages = messages + 1,
        undelivered = undelivered + CASE WHEN NEW.delivery = 'failed' THEN 1 ELSE 0 END
    WHERE channel = NEW.channel AND status = NEW.status;
END;
CREATE TRIGGER outbox_totals_update AFTER UPDATE OF channel, status, delivery ON outbox BEGIN
    UPDATE outbox_totals SET messages = messages - 1,
        undelivered = undelivered - CASE WHEN OLD.delivery = 'failed' THEN 1 ELSE 0 END
    WHERE channel = OLD.channel AND status = OLD.status;
    UPDATE outbox_totals SET messages = messages + 1,
        undelivered = undelivered + CASE WHEN NEW.delivery = 'failed' THEN 1 ELSE 0 END
    WHERE channel = NEW.channel AND status = NEW.status;
END;
CREATE TRIGGER outbox_totals_delete AFTER DELETE ON outbox BEGIN
    UPDATE outbox_totals SET messages = messages - 1,
        undelivered = undelivered - CASE WHEN OLD.delivery = 'failed' THEN 1 ELSE 0 END
    WHERE channel = OLD.channel AND status = OLD.status;
END;

CREATE INDEX outbox_attempts ON outbox (channel, status, last_attempt_at);
CREATE INDEX outbox_delivery ON outbox (channel, status, delivery, delivery_at);
