DROP INDEX orders_mpesa_code;
