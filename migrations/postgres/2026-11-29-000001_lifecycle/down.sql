DELETE FROM outbox WHERE kind IN ('sms-missed', 'sms-cancelled', 'sms-moved', 'sms-reinstated');
ALTER TABLE outbox DROP CONSTRAINT outbox_kind_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_kind_check CHECK (kind IN (
    'order-admin', 'order-customer', 'contact-admin', 'order-status', 'slot-confirmed',
    'sms-order-received', 'sms-slot-confirmed', 'sms-eta', 'sms-on-the-way', 'sms-picked-up',
    'sms-ready', 'sms-out-for-delivery', 'sms-delivered', 'sms-payment-received', 'sms-reply',
    'sms-answer'));
UPDATE stops SET state = 'cancelled' WHERE state = 'missed';
DROP INDEX stops_state;
ALTER TABLE stops DROP COLUMN missed_reason;
ALTER TABLE stops DROP COLUMN missed_at;
ALTER TABLE stops DROP COLUMN missed_by;
ALTER TABLE stops DROP CONSTRAINT stops_state_check;
ALTER TABLE stops ADD CONSTRAINT stops_state_check CHECK (state IN ('planned', 'on-the-way', 'done', 'cancelled'));
ALTER TABLE orders DROP COLUMN cancel_reason;
ALTER TABLE orders DROP COLUMN refund_due;
