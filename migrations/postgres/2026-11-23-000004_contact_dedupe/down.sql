DROP INDEX contact_messages_dedupe_key;
ALTER TABLE contact_messages DROP COLUMN dedupe_key;
