DROP INDEX outbox_skipped;
DROP INDEX outbox_created;
DROP TABLE outbox_archive;
