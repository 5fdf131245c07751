-- Issue 50: store credit is used on a web order only from the link texted to the phone that
-- holds it. The link carries a key; its SHA-256 (hex) is kept here, never the key.
ALTER TABLE orders ADD COLUMN credit_key_hash TEXT;
