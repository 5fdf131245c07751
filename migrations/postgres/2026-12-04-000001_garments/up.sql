-- Issue 36: every garment traced. Staff record each item taken in (its tag number is unique in the
-- order and never given again, so a removed item keeps its row), photos of stains and damage, the
-- bags, the rack the order hangs on once ready, the valet's count at delivery, and claims.

-- One item of an order: tag 1, 2, … within the order (the label reads `AB12CD34-3`).
CREATE TABLE garments (
    order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    tag INTEGER NOT NULL,
    item TEXT NOT NULL,
    colour TEXT NOT NULL,
    note TEXT NOT NULL,
    damage TEXT NOT NULL,
    recorded_by TEXT NOT NULL,
    recorded_at TIMESTAMP NOT NULL,
    removed_by TEXT,
    removed_at TIMESTAMP,
    PRIMARY KEY (order_id, tag)
);

-- A photo kept in the photo store under its id (a random, unguessable key): of an item at intake
-- (`tag`), or sent with a claim (`claim_id`).
CREATE TABLE garment_photos (
    id TEXT PRIMARY KEY NOT NULL,
    order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    tag INTEGER,
    claim_id TEXT,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    taken_by TEXT NOT NULL,
    taken_at TIMESTAMP NOT NULL
);
CREATE INDEX garment_photos_order ON garment_photos (order_id, taken_at);

-- How an order is handled in the shop: the items the valet counted at the door, its bags, the rack
-- it hangs on once ready (and whether an audit missed it there), and the valet's count at delivery.
CREATE TABLE order_handling (
    order_id TEXT PRIMARY KEY NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    door_items INTEGER,
    bags INTEGER,
    rack TEXT,
    racked_by TEXT,
    racked_at TIMESTAMP,
    missing_since TIMESTAMP,
    counted_items INTEGER,
    counted_bags INTEGER,
    counted_by TEXT,
    counted_at TIMESTAMP
);
CREATE INDEX order_handling_rack ON order_handling (rack);

-- A missing or damaged item, reported by the customer from the order's page or opened by a short
-- count at delivery; resolved by staff with a note, a re-clean, or money back or credit (ledger).
CREATE TABLE claims (
    id TEXT PRIMARY KEY NOT NULL,
    order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    tags TEXT NOT NULL,
    story TEXT NOT NULL,
    opened_by TEXT NOT NULL,
    opened_at TIMESTAMP NOT NULL,
    outcome TEXT,
    outcome_note TEXT,
    amount BIGINT,
    given_back BIGINT,
    resolved_by TEXT,
    resolved_at TIMESTAMP
);
CREATE INDEX claims_order ON claims (order_id, opened_at);
CREATE INDEX claims_open ON claims (resolved_at, opened_at);

-- Each rack audit: when, by whom, and how many orders it looked for and missed.
CREATE TABLE rack_audits (
    id TEXT PRIMARY KEY NOT NULL,
    done_by TEXT NOT NULL,
    done_at TIMESTAMP NOT NULL,
    expected INTEGER NOT NULL,
    missing INTEGER NOT NULL
);
CREATE INDEX rack_audits_done ON rack_audits (done_at);
