-- Issue 16: pickup and delivery slots, the valet's run, bills weighed at pickup, and staff roles.

-- Roles: owner (everything, staff accounts), staff (the dashboard), valet (the valet page only).
-- Accounts made before roles could do everything: they become owners.
ALTER TABLE staff ADD COLUMN role TEXT NOT NULL DEFAULT 'owner' CHECK (role IN ('owner', 'staff', 'valet'));

-- Nairobi addresses are landmarks; a map pin if the customer shared their position; next-day rush;
-- the unguessable token of the order's own page (/t/…); the customer's estimate, kept when the
-- bill changes at pickup.
ALTER TABLE orders ADD COLUMN landmark TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN pin_lat REAL;
ALTER TABLE orders ADD COLUMN pin_lng REAL;
ALTER TABLE orders ADD COLUMN rush BOOLEAN NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN link_token TEXT;
ALTER TABLE orders ADD COLUMN estimate_amount INTEGER NOT NULL DEFAULT 0;
UPDATE orders SET link_token = lower(hex(randomblob(8))), estimate_amount = total_amount;
CREATE UNIQUE INDEX orders_link_token ON orders (link_token);

-- A visit of a valet: an order's pickup or delivery, in a day's window (minutes after Nairobi's
-- midnight). A window's capacity counts the pickups in it that are not cancelled. Staff confirm
-- the pickup's slot, then put each stop in a valet's run.
CREATE TABLE stops (
    id TEXT PRIMARY KEY NOT NULL,
    order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('pickup', 'delivery')),
    day DATE NOT NULL,
    window_start INTEGER NOT NULL CHECK (window_start >= 0 AND window_start < 1440),
    window_end INTEGER NOT NULL CHECK (window_end > window_start AND window_end <= 1440),
    state TEXT NOT NULL DEFAULT 'planned' CHECK (state IN ('planned', 'on-the-way', 'done', 'cancelled')),
    valet_id TEXT REFERENCES staff (id),
    run_position INTEGER CHECK (run_position >= 1),
    confirmed_at TIMESTAMP,
    confirmed_by TEXT,
    on_the_way_at TIMESTAMP,
    done_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (order_id, kind)
);
CREATE INDEX stops_day_window ON stops (day, kind, window_start);
CREATE INDEX stops_valet_day ON stops (valet_id, day);

-- Every bill an order has had: the customer's estimate first, then each weighing at pickup. The
-- order's lines and total are the newest.
CREATE TABLE order_bills (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    total_amount INTEGER NOT NULL,
    lines TEXT NOT NULL,
    bags INTEGER,
    recorded_at TIMESTAMP NOT NULL,
    recorded_by TEXT
);
CREATE INDEX order_bills_order ON order_bills (order_id, id);
