-- Issue 28: limits on texts. The texts written to one phone in the last hour are counted when a
-- text is written (the limits per phone), and the texts sent in a Nairobi day when the worker
-- claims one (the daily budget): an index for each count.
CREATE INDEX outbox_to_phone ON outbox (to_phone, created_at);
CREATE INDEX outbox_sent ON outbox (channel, sent_at);
