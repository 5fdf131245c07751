-- Issue 32: on SQLite this migration rebuilds the search index so that it matches the words as
-- stored. PostgreSQL's index (`words LIKE`, pg_trgm) already does, and a search's walk tests the
-- same `LIKE` on each order's own columns: nothing changes here. Kept so that both backends list
-- the same migrations.
SELECT 1;
