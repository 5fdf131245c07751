-- Issue 30: a ledger for each order. Charges (the lines at booking, the bill's difference at each
-- weighing, a cancellation taken back, staff discounts), payments (a prompt, the till, a code
-- typed in, cash, store credit) and refunds are entries that are only ever added; the balance and
-- "paid / part-paid / unpaid / in credit" are derived from them. The order's one payment status,
-- method, code and refund due go: they were a second account that drifted from the first.
CREATE TABLE ledger_entries (
    id BIGSERIAL PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    -- charge (a line at booking), adjustment (a new bill's difference, a cancellation, its undo),
    -- discount (given by staff, with a reason), payment, refund.
    kind TEXT NOT NULL CHECK (kind IN ('charge', 'adjustment', 'discount', 'payment', 'refund')),
    -- Payments: prompt, till, code (typed by staff or a valet), cash, credit (store credit used).
    -- Refunds: mpesa-reversal (done by hand), cash, credit (kept as store credit).
    method TEXT CHECK (method IN ('prompt', 'till', 'code', 'cash', 'credit', 'mpesa-reversal')),
    -- Whole shillings: charges and adjustments signed (a discount negative), payments and refunds
    -- positive, and a correction the negative of the entry it corrects.
    amount INTEGER NOT NULL,
    -- The M-PESA code of a payment, or a refund's reference.
    reference TEXT,
    -- The prompt a payment answered.
    prompt_id TEXT REFERENCES mpesa_prompts (id) ON DELETE SET NULL,
    -- What it is, or why (a discount's reason, a correction's).
    note TEXT NOT NULL DEFAULT '',
    -- The entry this one corrects (each at most once).
    corrects BIGINT REFERENCES ledger_entries (id),
    -- Who: a staff member's or valet's e-mail, 'M-PESA', or NULL for the customer and the site.
    recorded_by TEXT,
    recorded_at TIMESTAMP NOT NULL,
    CHECK ((kind IN ('payment', 'refund')) = (method IS NOT NULL))
);
CREATE INDEX ledger_entries_order ON ledger_entries (order_id, id);
CREATE INDEX ledger_entries_money ON ledger_entries (kind, recorded_at);
CREATE INDEX ledger_entries_cash ON ledger_entries (method, recorded_by, recorded_at);
-- An M-PESA code is entered on one order at a time: checked under a lock on the code
-- (`lifecycle::money::pay`), not by a unique index, since a payment entered on the wrong order and
-- corrected may then be entered on the right one. A prompt's payment is entered once.
CREATE INDEX ledger_entries_code ON ledger_entries (reference);
CREATE UNIQUE INDEX ledger_entries_prompt ON ledger_entries (prompt_id)
    WHERE kind = 'payment' AND amount > 0 AND prompt_id IS NOT NULL;
CREATE UNIQUE INDEX ledger_entries_corrects ON ledger_entries (corrects) WHERE corrects IS NOT NULL;

-- Cash a valet (or anyone who took cash) handed in at the shop for a day, counted by staff.
CREATE TABLE cash_handovers (
    id BIGSERIAL PRIMARY KEY,
    -- The e-mail the cash entries were recorded under.
    holder TEXT NOT NULL,
    -- The Nairobi day the cash was collected.
    day DATE NOT NULL,
    amount INTEGER NOT NULL CHECK (amount >= 0),
    note TEXT NOT NULL DEFAULT '',
    recorded_by TEXT NOT NULL,
    recorded_at TIMESTAMP NOT NULL
);
CREATE INDEX cash_handovers_day ON cash_handovers (day, holder);

-- Every existing order gets the entries that reproduce its money as it stands: the estimate
-- charged when it was placed, the bill's difference when it was weighed, a paid order's payment
-- (how, with its code and who recorded it), and a cancellation's charges taken back (so a paid
-- cancelled order owes its money back, as `refund_due` said).
INSERT INTO ledger_entries (order_id, kind, method, amount, note, recorded_at)
SELECT id, 'charge', NULL, estimate_amount, 'Order placed', created_at FROM orders;

INSERT INTO ledger_entries (order_id, kind, method, amount, note, recorded_by, recorded_at)
SELECT o.id, 'adjustment', NULL, o.total_amount - o.estimate_amount, 'Bill after weighing',
       (SELECT b.recorded_by FROM order_bills b WHERE b.order_id = o.id ORDER BY b.id DESC LIMIT 1),
       COALESCE((SELECT MAX(b.recorded_at) FROM order_bills b WHERE b.order_id = o.id), o.updated_at)
FROM orders o WHERE o.total_amount <> o.estimate_amount;

INSERT INTO ledger_entries (order_id, kind, method, amount, reference, prompt_id, note, recorded_by, recorded_at)
SELECT o.id, 'payment',
       CASE
           WHEN o.paid_via = 'cash' THEN 'cash'
           WHEN o.mpesa_code IS NULL THEN 'prompt'
           WHEN EXISTS (SELECT 1 FROM mpesa_prompts p WHERE p.order_id = o.id AND p.receipt = o.mpesa_code) THEN 'prompt'
           WHEN EXISTS (SELECT 1 FROM mpesa_receipts r WHERE r.receipt = o.mpesa_code AND r.order_id = o.id) THEN 'till'
           ELSE 'code'
       END,
       o.total_amount, o.mpesa_code,
       CASE WHEN o.paid_via = 'mpesa' THEN
           (SELECT p.id FROM mpesa_prompts p WHERE p.order_id = o.id AND p.state = 'paid'
            AND (p.receipt = o.mpesa_code OR (o.mpesa_code IS NULL AND p.receipt IS NULL))
            ORDER BY p.created_at DESC LIMIT 1)
       END,
       '', o.payment_recorded_by, COALESCE(o.paid_at, o.updated_at)
FROM orders o WHERE o.payment_status = 'paid' AND o.total_amount > 0;

INSERT INTO ledger_entries (order_id, kind, method, amount, note, recorded_at)
SELECT id, 'adjustment', NULL, -total_amount, 'Cancelled' || COALESCE(': ' || cancel_reason, ''), updated_at
FROM orders WHERE status = 'cancelled' AND total_amount <> 0;

DROP INDEX orders_mpesa_code;
ALTER TABLE orders DROP COLUMN payment_status;
ALTER TABLE orders DROP COLUMN paid_via;
ALTER TABLE orders DROP COLUMN mpesa_code;
ALTER TABLE orders DROP COLUMN paid_at;
ALTER TABLE orders DROP COLUMN payment_recorded_by;
ALTER TABLE orders DROP COLUMN refund_due;
