-- Issue 49: orders a rack audit did not find wait in "Needs attention" until they are found. The
-- dashboard reads them at every load: through an index of those few, not a scan of every order
-- ever taken in.
CREATE INDEX order_handling_missing ON order_handling (missing_since) WHERE missing_since IS NOT NULL;
