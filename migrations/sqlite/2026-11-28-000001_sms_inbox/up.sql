-- Issue 28: texts to the shop's number are kept for staff (the inbox): what the automatic reply
-- became (written, or why not), whether staff opened or handled the text, and staff's answers,
-- which are texts of their own kind ('sms-answer'). STOP and START are outcomes of their own.
-- SQLite cannot change a CHECK: sms_incoming and outbox are rebuilt the way SQLite documents
-- (https://www.sqlite.org/lang_altertable.html), with foreign keys off while they are.
PRAGMA foreign_keys = OFF;
BEGIN;

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

CREATE TABLE sms_incoming_rebuilt (
    id TEXT PRIMARY KEY NOT NULL,
    from_phone TEXT NOT NULL,
    to_code TEXT NOT NULL,
    text TEXT NOT NULL,
    received_at TIMESTAMP NOT NULL,
    -- What it led to: booked (a pickup), unknown (the letter from a number without a recent
    -- order), full (no window free), help (any other text), stop / start (texts off / on again).
    outcome TEXT NOT NULL CHECK (outcome IN ('booked', 'unknown', 'help', 'full', 'stop', 'start')),
    order_id TEXT REFERENCES orders (id) ON DELETE SET NULL,
    -- The automatic reply: written to the outbox, or why not.
    reply TEXT NOT NULL DEFAULT 'written'
        CHECK (reply IN ('written', 'stranger', 'daily-cap', 'opted-out', 'switched-off', 'held', 'none')),
    -- Staff's side: new (not opened yet), read (opened), handled; by whom and when it last changed.
    status TEXT NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'read', 'handled')),
    status_by TEXT,
    status_at TIMESTAMP
);
-- The texts from before the inbox were all answered automatically: they are not new to staff.
INSERT INTO sms_incoming_rebuilt (id, from_phone, to_code, text, received_at, outcome, order_id, reply, status)
SELECT id, from_phone, to_code, text, received_at, outcome, order_id, 'written', 'handled' FROM sms_incoming;
DROP TABLE sms_incoming;
ALTER TABLE sms_incoming_rebuilt RENAME TO sms_incoming;
-- The replies of one number on one day (the daily cap), and the inbox, newest first.
CREATE INDEX sms_incoming_phone ON sms_incoming (from_phone, received_at);
CREATE INDEX sms_incoming_status ON sms_incoming (status, received_at);

-- Staff's answers to a text: what, to whom, who and when, and the outbox row that carries it.
CREATE TABLE sms_answers (
    id TEXT PRIMARY KEY NOT NULL,
    incoming_id TEXT NOT NULL REFERENCES sms_incoming (id) ON DELETE CASCADE,
    to_phone TEXT NOT NULL,
    text TEXT NOT NULL,
    answered_by TEXT NOT NULL,
    answered_at TIMESTAMP NOT NULL,
    outbox_id TEXT NOT NULL
);
CREATE INDEX sms_answers_incoming ON sms_answers (incoming_id, answered_at);

COMMIT;
PRAGMA foreign_keys = ON;
