DROP TABLE email_pace;
DROP TABLE email_outbox;
