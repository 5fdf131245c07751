PRAGMA foreign_keys = OFF;
BEGIN;
DELETE FROM outbox WHERE kind IN ('sms-missed', 'sms-cancelled', 'sms-moved', 'sms-reinstated');
CREATE TABLE stops_rebuilt (
    id TEXT PRIMARY KEY NOT NULL,
    order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('pickup', 'delivery')),
    day DATE NOT NULL,
    window_start INTEGER NOT NULL CHECK (window_start >= 0 AND window_start < 1440),
    window_end INTEGER NOT NULL CHECK (window_end > window_start AND window_end <= 1440),
    state TEXT NOT NULL DEFAULT 'planned' CHECK (state IN ('planned', 'on-the-way', 'done', 'cancelled')),
    valet_id TEXT REFERENCES staff (id),
    run_position INTEGER CHECK (run_position >= 1),
    confirmed_at TIMESTAMP,
    confirmed_by TEXT,
    on_the_way_at TIMESTAMP,
    done_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (order_id, kind)
);
INSERT INTO stops_rebuilt (id, order_id, kind, day, window_start, window_end, state, valet_id, run_position, confirmed_at, confirmed_by, on_the_way_at, done_at, created_at)
SELECT id, order_id, kind, day, window_start, window_end, CASE state WHEN 'missed' THEN 'cancelled' ELSE state END, valet_id, run_position, confirmed_at, confirmed_by, on_the_way_at, done_at, created_at FROM stops;
DROP TABLE stops;
ALTER TABLE stops_rebuilt RENAME TO stops;
CREATE INDEX stops_day_window ON stops (day, kind, window_start);
CREATE INDEX stops_valet_day ON stops (valet_id, day);

CREATE TABLE outbox_rebuilt (
    id TEXT PRIMARY KEY NOT NULL,
    channel TEXT NOT NULL CHECK (channel IN ('email', 'sms')),
    kind TEXT NOT NULL CHECK (kind IN (
        'order-admin', 'order-customer', 'contact-admin', 'order-status', 'slot-confirmed',
        'sms-order-received', 'sms-slot-confirmed', 'sms-eta', 'sms-on-the-way', 'sms-picked-up',
        'sms-ready', 'sms-out-for-delivery', 'sms-delivered', 'sms-payment-received', 'sms-reply',
        'sms-answer')),
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
INSERT INTO outbox_rebuilt (id, channel, kind, order_id, contact_message_id, to_email, to_phone, params, status, attempts, next_attempt_at, lease_owner, lease_until, last_error, last_attempt_at, created_at, sent_at, provider_id, delivery, delivery_detail, delivery_at, dedupe_key, send_before)
SELECT id, channel, kind, order_id, contact_message_id, to_email, to_phone, params, status, attempts, next_attempt_at, lease_owner, lease_until, last_error, last_attempt_at, created_at, sent_at, provider_id, delivery, delivery_detail, delivery_at, dedupe_key, send_before FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_rebuilt RENAME TO outbox;
CREATE INDEX outbox_due ON outbox (channel, status, next_attempt_at);
CREATE INDEX outbox_order ON outbox (order_id);
CREATE INDEX outbox_provider_id ON outbox (provider_id);

ALTER TABLE orders DROP COLUMN cancel_reason;
ALTER TABLE orders DROP COLUMN refund_due;

COMMIT;
PRAGMA foreign_keys = ON;
