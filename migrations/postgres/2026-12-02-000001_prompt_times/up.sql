-- Issue 35: the metrics count the M-PESA prompts of the last day by state; this index reads that
-- day's prompts, not every prompt ever asked for.
CREATE INDEX mpesa_prompts_created ON mpesa_prompts (created_at, state);
