DROP TABLE mpesa_receipts;
DROP TABLE mpesa_prompts;
