ALTER TABLE orders
    DROP CONSTRAINT orders_quantity_check,
    DROP CONSTRAINT orders_price_per_kg_check,
    DROP CONSTRAINT orders_total_amount_check,
    ADD CONSTRAINT orders_quantity_check CHECK (quantity >= 1),
    ADD CONSTRAINT orders_price_per_kg_check CHECK (price_per_kg > 0),
    ADD CONSTRAINT orders_total_amount_check CHECK (total_amount > 0);
