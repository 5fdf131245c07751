DROP INDEX order_handling_missing;
