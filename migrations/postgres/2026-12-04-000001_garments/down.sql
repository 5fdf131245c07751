DROP TABLE rack_audits;
DROP TABLE claims;
DROP TABLE order_handling;
DROP TABLE garment_photos;
DROP TABLE garments;
