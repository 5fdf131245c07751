-- Back to one payment per order: paid when the entries settle the bill, by the last payment's way.
ALTER TABLE orders ADD COLUMN payment_status TEXT NOT NULL DEFAULT 'unpaid' CHECK (payment_status IN ('unpaid', 'paid'));
ALTER TABLE orders ADD COLUMN paid_via TEXT CHECK (paid_via IN ('mpesa', 'cash'));
ALTER TABLE orders ADD COLUMN mpesa_code TEXT;
ALTER TABLE orders ADD COLUMN paid_at TIMESTAMP;
ALTER TABLE orders ADD COLUMN payment_recorded_by TEXT;
ALTER TABLE orders ADD COLUMN refund_due INTEGER NOT NULL DEFAULT 0 CHECK (refund_due >= 0);
UPDATE orders SET payment_status = 'paid',
    paid_via = (SELECT CASE WHEN e.method = 'cash' THEN 'cash' ELSE 'mpesa' END FROM ledger_entries e
                WHERE e.order_id = orders.id AND e.kind = 'payment' AND e.amount > 0 ORDER BY e.id DESC LIMIT 1),
    paid_at = (SELECT MAX(e.recorded_at) FROM ledger_entries e WHERE e.order_id = orders.id AND e.kind = 'payment')
WHERE total_amount > 0 AND status <> 'cancelled'
  AND (SELECT COALESCE(SUM(CASE WHEN kind = 'payment' THEN amount WHEN kind = 'refund' THEN -amount ELSE 0 END), 0)
       FROM ledger_entries e WHERE e.order_id = orders.id) >= total_amount;
UPDATE orders SET mpesa_code = (SELECT e.reference FROM ledger_entries e WHERE e.order_id = orders.id
    AND e.kind = 'payment' AND e.amount > 0 AND e.reference IS NOT NULL ORDER BY e.id DESC LIMIT 1)
WHERE paid_via = 'mpesa';
CREATE UNIQUE INDEX orders_mpesa_code ON orders (mpesa_code);
DROP TABLE cash_handovers;
DROP TABLE ledger_entries;
