-- The e-mail outbox: written in the same transaction as the order or message an e-mail is about,
-- sent by the mail worker. Times are UTC.
CREATE TABLE email_outbox (
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
CREATE INDEX email_outbox_due ON email_outbox (status, next_attempt_at);
CREATE INDEX email_outbox_order ON email_outbox (order_id);

-- One row: the earliest time the next request to the mail API may go, shared by every instance.
CREATE TABLE email_pace (
    id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
    next_send_at TIMESTAMP NOT NULL
);
INSERT INTO email_pace (id, next_send_at) VALUES (1, '1970-01-01 00:00:00');
