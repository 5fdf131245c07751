-- Issue 32: the retention job (server/src/jobs/retention.rs) summarises the messages in the outbox
-- older than the owner's LAUNDRY_KEEP_MESSAGES_MONTHS and deletes them: what an order keeps of each
-- is what was sent and when (no recipient, no words), in outbox_archive. Messages are found by age
-- through outbox_created.
CREATE TABLE outbox_archive (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id TEXT REFERENCES orders (id) ON DELETE CASCADE,
    channel TEXT NOT NULL,
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    delivery TEXT,
    created_at TIMESTAMP NOT NULL,
    sent_at TIMESTAMP
);
CREATE INDEX outbox_archive_order ON outbox_archive (order_id, created_at);
CREATE INDEX outbox_created ON outbox (created_at);

-- The texts held back by a limit per phone (the outbox report's problems), among the skipped ones.
CREATE INDEX outbox_skipped ON outbox (channel, status, last_error);
