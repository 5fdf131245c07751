-- Staff accounts and their sessions, failed logins (for the login limit), payment apart from the
-- work status, and handled contact messages. Times are UTC.
CREATE TABLE staff (
    id TEXT PRIMARY KEY NOT NULL,
    -- Lower case; the login name.
    email TEXT NOT NULL UNIQUE,
    -- argon2id, PHC string format.
    password_hash TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    last_login_at TIMESTAMP,
    -- Set: the account cannot log in and its sessions are gone.
    disabled_at TIMESTAMP
);

CREATE TABLE staff_sessions (
    -- SHA-256 of the cookie's value, in hex: a copy of this table lets nobody in.
    id_hash TEXT PRIMARY KEY NOT NULL,
    staff_id TEXT NOT NULL REFERENCES staff (id) ON DELETE CASCADE,
    csrf_token TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    last_seen_at TIMESTAMP NOT NULL,
    -- The absolute end, whatever the activity.
    expires_at TIMESTAMP NOT NULL
);
CREATE INDEX staff_sessions_staff ON staff_sessions (staff_id);
CREATE INDEX staff_sessions_expires ON staff_sessions (expires_at);

CREATE TABLE login_failures (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    -- Lower case, as typed (also for addresses that have no account).
    email TEXT NOT NULL,
    -- The client's IP address.
    client TEXT NOT NULL,
    failed_at TIMESTAMP NOT NULL
);
CREATE INDEX login_failures_email ON login_failures (email, failed_at);
CREATE INDEX login_failures_client ON login_failures (client, failed_at);

ALTER TABLE orders ADD COLUMN payment_status TEXT NOT NULL DEFAULT 'unpaid'
    CHECK (payment_status IN ('unpaid', 'paid'));
ALTER TABLE orders ADD COLUMN paid_via TEXT CHECK (paid_via IN ('mpesa', 'cash'));
ALTER TABLE orders ADD COLUMN mpesa_code TEXT;
ALTER TABLE orders ADD COLUMN paid_at TIMESTAMP;
ALTER TABLE orders ADD COLUMN payment_recorded_by TEXT;
CREATE INDEX orders_status_created ON orders (status, created_at);

ALTER TABLE contact_messages ADD COLUMN handled_at TIMESTAMP;
ALTER TABLE contact_messages ADD COLUMN handled_by TEXT;
CREATE INDEX contact_messages_status_created ON contact_messages (status, created_at);
