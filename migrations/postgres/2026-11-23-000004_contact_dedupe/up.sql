-- A contact message sent twice (a double click, a resent form) is stored once: the key is made of
-- the message, its sender's address and the ten minutes it came in (see models/contact_message.rs).
-- Messages stored before this have none (NULL is never a duplicate).
ALTER TABLE contact_messages ADD COLUMN dedupe_key TEXT;
CREATE UNIQUE INDEX contact_messages_dedupe_key ON contact_messages (dedupe_key);
