-- Issue 16: the customer's e-mail when staff confirm (or move and confirm) the pickup slot.
ALTER TABLE email_outbox
    DROP CONSTRAINT email_outbox_kind_check,
    ADD CONSTRAINT email_outbox_kind_check
        CHECK (kind IN ('order-admin', 'order-customer', 'contact-admin', 'order-status', 'slot-confirmed'));
