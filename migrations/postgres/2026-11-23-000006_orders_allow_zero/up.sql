-- An order of pieces alone has no kg line (quantity and price per kg 0), and a discount (or a free
-- re-clean) can bring a total to 0: the checks allow 0.
ALTER TABLE orders
    DROP CONSTRAINT orders_quantity_check,
    DROP CONSTRAINT orders_price_per_kg_check,
    DROP CONSTRAINT orders_total_amount_check,
    ADD CONSTRAINT orders_quantity_check CHECK (quantity >= 0),
    ADD CONSTRAINT orders_price_per_kg_check CHECK (price_per_kg >= 0),
    ADD CONSTRAINT orders_total_amount_check CHECK (total_amount >= 0);
