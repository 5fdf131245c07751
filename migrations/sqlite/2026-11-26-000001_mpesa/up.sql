-- Issue 18: M-PESA through Safaricom's Daraja API: prompts to the customer's phone (STK push) and
-- the money M-PESA reports (the prompts' callbacks, the till's confirmations). Times are UTC.

-- One prompt to pay, sent to a customer's phone, and what became of it. Written `queued` in the
-- transaction that asks for it (the order placed, the bill set, "send it again"); an instance's
-- prompt worker claims it (`sending`, under a lease), Daraja accepts it (`waiting`, with its
-- CheckoutRequestID), and its callback or a status query ends it: `paid`, `failed` or
-- `cancelled` (by the customer, on the phone).
CREATE TABLE mpesa_prompts (
    id TEXT PRIMARY KEY NOT NULL,
    order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    -- E.164 (+2547…); Daraja gets it without the plus.
    phone TEXT NOT NULL,
    -- Whole shillings asked.
    amount INTEGER NOT NULL CHECK (amount >= 1),
    state TEXT NOT NULL DEFAULT 'queued'
        CHECK (state IN ('queued', 'sending', 'waiting', 'paid', 'failed', 'cancelled')),
    -- Who asked: 'customer', 'order' (placed), 'bill' (set at pickup), or the staff member's e-mail.
    asked_by TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    -- While `sending`: the claim of one instance; after it, another may take the row over.
    lease_until TIMESTAMP,
    -- When Daraja accepted the request.
    sent_at TIMESTAMP,
    checkout_request_id TEXT UNIQUE,
    merchant_request_id TEXT,
    -- Daraja's ResultCode (callback or query); NULL while waiting or when the request was refused.
    result_code INTEGER,
    -- ResultDesc, or why the request could not be made.
    detail TEXT,
    -- MpesaReceiptNumber, when paid and M-PESA said it.
    receipt TEXT,
    resolved_at TIMESTAMP,
    -- Status queries made while waiting (the callback can go missing), and when the next is due.
    queries INTEGER NOT NULL DEFAULT 0,
    next_query_at TIMESTAMP,
    -- The callback as it came, JSON.
    raw_callback TEXT
);
CREATE INDEX mpesa_prompts_order ON mpesa_prompts (order_id, created_at);
CREATE INDEX mpesa_prompts_due ON mpesa_prompts (state, next_query_at);

-- Money M-PESA says arrived, one row per M-PESA receipt number (a prompt's callback and a till
-- confirmation of the same payment are one row). Matched to the order it pays, or waiting for
-- staff to pick one; a problem (an amount other than the bill, an order paid already) waits for
-- staff to look, and the order is not marked paid by it.
CREATE TABLE mpesa_receipts (
    receipt TEXT PRIMARY KEY NOT NULL,
    source TEXT NOT NULL CHECK (source IN ('prompt', 'till')),
    amount INTEGER NOT NULL,
    -- As M-PESA gave it: 2547… from a prompt; a till confirmation's MSISDN may be masked or hashed.
    phone TEXT,
    payer_name TEXT,
    -- A till payment's account reference (BillRefNumber), usually empty for a till.
    bill_ref TEXT,
    -- When M-PESA says it was paid (TransactionDate, TransTime: Nairobi time, stored UTC).
    paid_at TIMESTAMP,
    received_at TIMESTAMP NOT NULL,
    order_id TEXT REFERENCES orders (id) ON DELETE SET NULL,
    -- 'prompt', 'order-id', 'phone-and-amount', or the e-mail of the staff member who matched it.
    matched_by TEXT,
    matched_at TIMESTAMP,
    problem TEXT CHECK (problem IN ('amount', 'already-paid', 'code')),
    -- The staff member who looked at the problem and when.
    checked_by TEXT,
    checked_at TIMESTAMP,
    -- The callback or confirmation as it came, JSON.
    raw TEXT NOT NULL
);
CREATE INDEX mpesa_receipts_order ON mpesa_receipts (order_id);
CREATE INDEX mpesa_receipts_received ON mpesa_receipts (received_at);
