DROP INDEX outbox_sent;
DROP INDEX outbox_to_phone;
