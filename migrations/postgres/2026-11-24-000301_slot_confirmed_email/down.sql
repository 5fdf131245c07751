DELETE FROM email_outbox WHERE kind = 'slot-confirmed';
ALTER TABLE email_outbox
    DROP CONSTRAINT email_outbox_kind_check,
    ADD CONSTRAINT email_outbox_kind_check
        CHECK (kind IN ('order-admin', 'order-customer', 'contact-admin', 'order-status'));
