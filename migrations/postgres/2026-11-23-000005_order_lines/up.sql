-- An order holds lines (DESIGN.md): by the kg (a service, the first line), by the piece (the price
-- list), and a first-order discount (a negative amount). Each line keeps the catalogue's label and
-- price at the time of the order. The order's total_amount is the sum of its lines.
CREATE TABLE order_lines (
    order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    kind TEXT NOT NULL,
    item TEXT NOT NULL,
    label TEXT NOT NULL,
    quantity INTEGER NOT NULL,
    unit TEXT NOT NULL,
    unit_price INTEGER NOT NULL,
    amount INTEGER NOT NULL,
    PRIMARY KEY (order_id, position)
);

-- Orders placed before lines existed had one kg line: their service, kg and price per kg.
INSERT INTO order_lines (order_id, position, kind, item, label, quantity, unit, unit_price, amount)
SELECT id, 0, 'kg', service_type, service_label, quantity, 'kg', price_per_kg, total_amount FROM orders;
