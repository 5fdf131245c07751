DROP TABLE contact_messages;
DROP TABLE order_status_history;
DROP TABLE orders;
