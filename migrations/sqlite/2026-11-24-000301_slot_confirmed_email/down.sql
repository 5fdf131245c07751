PRAGMA foreign_keys = OFF;
BEGIN;
CREATE TABLE email_outbox_rebuilt (
    id TEXT PRIMARY KEY NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('order-admin', 'order-customer', 'contact-admin', 'order-status')),
    order_id TEXT REFERENCES orders (id) ON DELETE SET NULL,
    contact_message_id TEXT REFERENCES contact_messages (id) ON DELETE SET NULL,
    -- NULL for staff e-mails: ADMIN_NOTIFY_EMAIL when sent.
    to_email TEXT,
    -- The template parameters, JSON.
    params TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'blocked')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMP NOT NULL,
    lease_owner TEXT,
    lease_until TIMESTAMP,
    last_error TEXT,
    -- When the last request was made (or failed to be made).
    last_attempt_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    sent_at TIMESTAMP
);
INSERT INTO email_outbox_rebuilt (id, kind, order_id, contact_message_id, to_email, params, status, attempts, next_attempt_at, lease_owner, lease_until, last_error, last_attempt_at, created_at, sent_at)
SELECT id, kind, order_id, contact_message_id, to_email, params, status, attempts, next_attempt_at, lease_owner, lease_until, last_error, last_attempt_at, created_at, sent_at FROM email_outbox WHERE kind <> 'slot-confirmed';
DROP TABLE email_outbox;
ALTER TABLE email_outbox_rebuilt RENAME TO email_outbox;
CREATE INDEX email_outbox_due ON email_outbox (status, next_attempt_at);
CREATE INDEX email_outbox_order ON email_outbox (order_id);
COMMIT;
PRAGMA foreign_keys = ON;
