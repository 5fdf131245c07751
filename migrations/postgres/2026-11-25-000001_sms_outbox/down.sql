ALTER TABLE orders DROP COLUMN source;
DROP TABLE job_runs;
DROP TABLE sms_incoming;
DROP TABLE message_switches;
DROP TABLE sms_opt_outs;
CREATE TABLE email_pace (
    id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
    next_send_at TIMESTAMP NOT NULL
);
INSERT INTO email_pace (id, next_send_at) SELECT 1, next_send_at FROM outbox_pace WHERE channel = 'email';
DROP TABLE outbox_pace;
CREATE TABLE email_outbox (
    id TEXT PRIMARY KEY NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('order-admin', 'order-customer', 'contact-admin', 'order-status', 'slot-confirmed')),
    order_id TEXT REFERENCES orders (id) ON DELETE SET NULL,
    contact_message_id TEXT REFERENCES contact_messages (id) ON DELETE SET NULL,
    to_email TEXT,
    params TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'blocked')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMP NOT NULL,
    lease_owner TEXT,
    lease_until TIMESTAMP,
    last_error TEXT,
    last_attempt_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    sent_at TIMESTAMP
);
INSERT INTO email_outbox (id, kind, order_id, contact_message_id, to_email, params, status, attempts,
                          next_attempt_at, lease_owner, lease_until, last_error, last_attempt_at, created_at, sent_at)
SELECT id, kind, order_id, contact_message_id, to_email, params,
       CASE WHEN status = 'skipped' THEN 'failed' ELSE status END, attempts,
       next_attempt_at, lease_owner, lease_until, last_error, last_attempt_at, created_at, sent_at
FROM outbox WHERE channel = 'email';
DROP TABLE outbox;
CREATE INDEX email_outbox_due ON email_outbox (status, next_attempt_at);
CREATE INDEX email_outbox_order ON email_outbox (order_id);
