-- Issue 28: texts to the shop's number are kept for staff (the inbox): what the automatic reply
-- became (written, or why not), whether staff opened or handled the text, and staff's answers,
-- which are texts of their own kind ('sms-answer'). STOP and START are outcomes of their own.
ALTER TABLE outbox DROP CONSTRAINT outbox_kind_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_kind_check CHECK (kind IN (
    'order-admin', 'order-customer', 'contact-admin', 'order-status', 'slot-confirmed',
    'sms-order-received', 'sms-slot-confirmed', 'sms-eta', 'sms-on-the-way', 'sms-picked-up',
    'sms-ready', 'sms-out-for-delivery', 'sms-delivered', 'sms-payment-received', 'sms-reply',
    'sms-answer'));

-- What it led to: booked (a pickup), unknown (the letter from a number without a recent order),
-- full (no window free), help (any other text), stop / start (texts off / on again).
ALTER TABLE sms_incoming DROP CONSTRAINT sms_incoming_outcome_check;
ALTER TABLE sms_incoming ADD CONSTRAINT sms_incoming_outcome_check
    CHECK (outcome IN ('booked', 'unknown', 'help', 'full', 'stop', 'start'));
-- The automatic reply: written to the outbox, or why not.
ALTER TABLE sms_incoming ADD COLUMN reply TEXT NOT NULL DEFAULT 'written'
    CHECK (reply IN ('written', 'stranger', 'daily-cap', 'opted-out', 'switched-off', 'held', 'none'));
-- Staff's side: new (not opened yet), read (opened), handled; by whom and when it last changed.
-- The texts from before the inbox were all answered automatically: they are not new to staff.
ALTER TABLE sms_incoming ADD COLUMN status TEXT NOT NULL DEFAULT 'handled'
    CHECK (status IN ('new', 'read', 'handled'));
ALTER TABLE sms_incoming ALTER COLUMN status SET DEFAULT 'new';
ALTER TABLE sms_incoming ADD COLUMN status_by TEXT;
ALTER TABLE sms_incoming ADD COLUMN status_at TIMESTAMP;
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
