DROP INDEX mpesa_prompts_phone;
ALTER TABLE mpesa_prompts DROP COLUMN held_until;
