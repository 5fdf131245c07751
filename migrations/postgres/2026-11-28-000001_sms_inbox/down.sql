DROP TABLE sms_answers;
DROP INDEX sms_incoming_status;
DROP INDEX sms_incoming_phone;
ALTER TABLE sms_incoming DROP COLUMN status_at;
ALTER TABLE sms_incoming DROP COLUMN status_by;
ALTER TABLE sms_incoming DROP COLUMN status;
ALTER TABLE sms_incoming DROP COLUMN reply;
UPDATE sms_incoming SET outcome = 'help' WHERE outcome IN ('stop', 'start');
ALTER TABLE sms_incoming DROP CONSTRAINT sms_incoming_outcome_check;
ALTER TABLE sms_incoming ADD CONSTRAINT sms_incoming_outcome_check
    CHECK (outcome IN ('booked', 'unknown', 'help', 'full'));
DELETE FROM outbox WHERE kind = 'sms-answer';
ALTER TABLE outbox DROP CONSTRAINT outbox_kind_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_kind_check CHECK (kind IN (
    'order-admin', 'order-customer', 'contact-admin', 'order-status', 'slot-confirmed',
    'sms-order-received', 'sms-slot-confirmed', 'sms-eta', 'sms-on-the-way', 'sms-picked-up',
    'sms-ready', 'sms-out-for-delivery', 'sms-delivered', 'sms-payment-received', 'sms-reply'));
