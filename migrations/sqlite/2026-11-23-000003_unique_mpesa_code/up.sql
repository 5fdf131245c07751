-- An M-PESA transaction code pays for one order: the same code typed in for a second order is a
-- typo or a reused payment message. Orders without a code (NULL) are not compared.
CREATE UNIQUE INDEX orders_mpesa_code ON orders (mpesa_code);
