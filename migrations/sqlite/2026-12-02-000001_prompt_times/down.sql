DROP INDEX mpesa_prompts_created;
