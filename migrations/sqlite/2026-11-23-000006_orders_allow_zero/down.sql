PRAGMA foreign_keys = OFF;
BEGIN;
CREATE TABLE orders_rebuilt (
    id TEXT PRIMARY KEY NOT NULL,
    reference TEXT NOT NULL UNIQUE,
    customer_name TEXT NOT NULL,
    phone TEXT NOT NULL,
    email TEXT,
    location TEXT NOT NULL,
    service_type TEXT NOT NULL,
    service_label TEXT NOT NULL,
    quantity INTEGER NOT NULL CHECK (quantity >= 1),
    payment_method TEXT NOT NULL CHECK (payment_method IN ('pay-now', 'pay-delivery')),
    special_instructions TEXT NOT NULL DEFAULT '',
    price_per_kg INTEGER NOT NULL CHECK (price_per_kg > 0),
    total_amount INTEGER NOT NULL CHECK (total_amount > 0),
    status TEXT NOT NULL DEFAULT 'pending',
    idempotency_key TEXT UNIQUE,
    request_fingerprint TEXT,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    payment_status TEXT NOT NULL DEFAULT 'unpaid' CHECK (payment_status IN ('unpaid', 'paid')),
    paid_via TEXT CHECK (paid_via IN ('mpesa', 'cash')),
    mpesa_code TEXT,
    paid_at TIMESTAMP,
    payment_recorded_by TEXT
);
INSERT INTO orders_rebuilt (id, reference, customer_name, phone, email, location, service_type, service_label, quantity, payment_method, special_instructions, price_per_kg, total_amount, status, idempotency_key, request_fingerprint, created_at, updated_at, payment_status, paid_via, mpesa_code, paid_at, payment_recorded_by)
SELECT id, reference, customer_name, phone, email, location, service_type, service_label, quantity, payment_method, special_instructions, price_per_kg, total_amount, status, idempotency_key, request_fingerprint, created_at, updated_at, payment_status, paid_via, mpesa_code, paid_at, payment_recorded_by FROM orders;
DROP TABLE orders;
ALTER TABLE orders_rebuilt RENAME TO orders;
CREATE INDEX orders_phone_created ON orders (phone, created_at);
CREATE INDEX orders_created ON orders (created_at);
CREATE INDEX orders_status_created ON orders (status, created_at);
CREATE UNIQUE INDEX orders_mpesa_code ON orders (mpesa_code);
COMMIT;
PRAGMA foreign_keys = ON;
