DROP INDEX outbox_created;
DROP TABLE outbox_archive;
