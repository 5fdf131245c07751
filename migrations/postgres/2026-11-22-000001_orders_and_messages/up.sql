-- Orders, their status history, and contact messages (spec section 3). Times are UTC.
CREATE TABLE orders (
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
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX orders_phone_created ON orders (phone, created_at);
CREATE INDEX orders_created ON orders (created_at);

CREATE TABLE order_status_history (
    id BIGSERIAL PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    status TEXT NOT NULL,
    changed_at TIMESTAMP NOT NULL,
    changed_by TEXT
);
CREATE INDEX order_status_history_order ON order_status_history (order_id, changed_at);

CREATE TABLE contact_messages (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT,
    subject TEXT NOT NULL,
    message TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'new',
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX contact_messages_created ON contact_messages (created_at);
