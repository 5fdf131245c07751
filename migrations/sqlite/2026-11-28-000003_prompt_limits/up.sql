-- Issue 28: prompts to pay per phone number are limited (per hour and per day, whoever asks). A
-- prompt over the limit is written but never sent: `failed` at once, with `held_until` saying when
-- the phone may be sent another; the customer's pages then give the till's steps. Held prompts do
-- not count towards the limit.
ALTER TABLE mpesa_prompts ADD COLUMN held_until TIMESTAMP;
-- The count, under the phone's lock, at each prompt.
CREATE INDEX mpesa_prompts_phone ON mpesa_prompts (phone, created_at);
