-- Issue 17: SMS through Africa's Talking, from the same outbox as e-mail.

-- One outbox for every message: e-mail and SMS rows side by side, claimed per channel, with the
-- same leases, retries and staff view. The e-mail outbox's rows move here as they are.
CREATE TABLE outbox (
    id TEXT PRIMARY KEY NOT NULL,
    channel TEXT NOT NULL CHECK (channel IN ('email', 'sms')),
    kind TEXT NOT NULL CHECK (kind IN (
        'order-admin', 'order-customer', 'contact-admin', 'order-status', 'slot-confirmed',
        'sms-order-received', 'sms-slot-confirmed', 'sms-eta', 'sms-on-the-way', 'sms-picked-up',
        'sms-ready', 'sms-out-for-delivery', 'sms-delivered', 'sms-payment-received', 'sms-reply')),
    order_id TEXT REFERENCES orders (id) ON DELETE SET NULL,
    contact_message_id TEXT REFERENCES contact_messages (id) ON DELETE SET NULL,
    -- E-mail: the recipient, NULL for staff e-mails (ADMIN_NOTIFY_EMAIL when sent).
    to_email TEXT,
    -- SMS: the recipient, E.164 (+2547…).
    to_phone TEXT,
    -- E-mail: the template parameters, JSON. SMS: {"message": "…"}, the text as sent.
    params TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'blocked', 'skipped')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMP NOT NULL,
    lease_owner TEXT,
    lease_until TIMESTAMP,
    last_error TEXT,
    -- When the last request was made (or failed to be made).
    last_attempt_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    sent_at TIMESTAMP,
    -- SMS: the provider's id of the sent message (Africa's Talking's messageId), which its delivery
    -- reports name.
    provider_id TEXT,
    -- SMS: what the last delivery report said: waiting (Sent, Submitted, Buffered), delivered
    -- (Success) or failed (Rejected, Failed); its words, and when it came.
    delivery TEXT CHECK (delivery IN ('waiting', 'delivered', 'failed')),
    delivery_detail TEXT,
    delivery_at TIMESTAMP,
    -- A message that must exist at most once (the 5:30pm text of an order and day): a second row
    -- with the same key is never written.
    dedupe_key TEXT UNIQUE,
    -- A text about a moment (the 5:30pm ETA, "on the way") is not sent after this, UTC: late, it
    -- would mislead.
    send_before TIMESTAMP,
    CHECK ((channel = 'sms') = (to_phone IS NOT NULL))
);
INSERT INTO outbox (id, channel, kind, order_id, contact_message_id, to_email, params, status, attempts,
                    next_attempt_at, lease_owner, lease_until, last_error, last_attempt_at, created_at, sent_at)
SELECT id, 'email', kind, order_id, contact_message_id, to_email, params, status, attempts,
       next_attempt_at, lease_owner, lease_until, last_error, last_attempt_at, created_at, sent_at
FROM email_outbox;
DROP TABLE email_outbox;
CREATE INDEX outbox_due ON outbox (channel, status, next_attempt_at);
CREATE INDEX outbox_order ON outbox (order_id);
CREATE INDEX outbox_provider_id ON outbox (provider_id);

-- The pace of each provider's API: the earliest time its next request may go, shared by every
-- instance.
CREATE TABLE outbox_pace (
    channel TEXT PRIMARY KEY NOT NULL CHECK (channel IN ('email', 'sms')),
    next_send_at TIMESTAMP NOT NULL
);
INSERT INTO outbox_pace (channel, next_send_at) SELECT 'email', next_send_at FROM email_pace;
INSERT INTO outbox_pace (channel, next_send_at) VALUES ('sms', '1970-01-01 00:00:00');
DROP TABLE email_pace;

-- Phone numbers (E.164) that asked for no more texts, from an order's page.
CREATE TABLE sms_opt_outs (
    phone TEXT PRIMARY KEY NOT NULL,
    opted_out_at TIMESTAMP NOT NULL,
    -- The order whose page it was asked from.
    order_id TEXT REFERENCES orders (id) ON DELETE SET NULL
);

-- Kinds of message staff switched off (a kind without a row is on).
CREATE TABLE message_switches (
    kind TEXT PRIMARY KEY NOT NULL,
    enabled BOOLEAN NOT NULL,
    changed_by TEXT NOT NULL,
    changed_at TIMESTAMP NOT NULL
);

-- Texts customers sent to the shop's number, by Africa's Talking's id: a callback delivered twice
-- finds its row and does nothing more.
CREATE TABLE sms_incoming (
    id TEXT PRIMARY KEY NOT NULL,
    from_phone TEXT NOT NULL,
    to_code TEXT NOT NULL,
    text TEXT NOT NULL,
    received_at TIMESTAMP NOT NULL,
    -- What it led to: booked (a pickup), unknown (a number without an earlier order), help.
    outcome TEXT NOT NULL CHECK (outcome IN ('booked', 'unknown', 'help', 'full')),
    order_id TEXT REFERENCES orders (id) ON DELETE SET NULL
);

-- Scheduled jobs (the 5:30pm ETA texts): one row per job and Nairobi day, claimed under a lease,
-- marked done once every message of that day is in the outbox.
CREATE TABLE job_runs (
    job TEXT NOT NULL,
    day DATE NOT NULL,
    lease_owner TEXT,
    lease_until TIMESTAMP,
    done_at TIMESTAMP,
    -- Messages it wrote.
    written INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (job, day)
);

-- How an order came in: the web form, a text to the shop's number, a phone call or WhatsApp.
ALTER TABLE orders ADD COLUMN source TEXT NOT NULL DEFAULT 'web' CHECK (source IN ('web', 'sms', 'phone', 'whatsapp'));
