-- Issue 29: an order's life in one place. A stop can be missed (the valet found nobody home, or
-- the laundry not ready; or its window passed): it waits for a new window. Staff cancel with a
-- reason, and a paid order cancelled owes its money back. Four texts of their own kinds: missed,
-- cancelled, moved, reinstated.
ALTER TABLE stops DROP CONSTRAINT stops_state_check;
ALTER TABLE stops ADD CONSTRAINT stops_state_check
    CHECK (state IN ('planned', 'on-the-way', 'done', 'missed', 'cancelled'));
-- Missed: why (the valet's words: not home, not ready, …), when and who said so.
ALTER TABLE stops ADD COLUMN missed_reason TEXT;
ALTER TABLE stops ADD COLUMN missed_at TIMESTAMP;
ALTER TABLE stops ADD COLUMN missed_by TEXT;
CREATE INDEX stops_state ON stops (state, day);

ALTER TABLE outbox DROP CONSTRAINT outbox_kind_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_kind_check CHECK (kind IN (
    'order-admin', 'order-customer', 'contact-admin', 'order-status', 'slot-confirmed',
    'sms-order-received', 'sms-slot-confirmed', 'sms-eta', 'sms-on-the-way', 'sms-picked-up',
    'sms-ready', 'sms-out-for-delivery', 'sms-delivered', 'sms-payment-received', 'sms-reply',
    'sms-answer', 'sms-missed', 'sms-cancelled', 'sms-moved', 'sms-reinstated'));

-- Why staff cancelled the order, and what it owes back (money received before it was cancelled;
-- the ledger settles it).
ALTER TABLE orders ADD COLUMN cancel_reason TEXT;
ALTER TABLE orders ADD COLUMN refund_due INTEGER NOT NULL DEFAULT 0 CHECK (refund_due >= 0);
UPDATE orders SET refund_due = total_amount WHERE status = 'cancelled' AND payment_status = 'paid' AND total_amount > 0;
