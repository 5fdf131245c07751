ALTER TABLE orders DROP COLUMN credit_key_hash;
