DROP TABLE report_sharing;
DROP TRIGGER stop_misses_keep;
DROP TABLE stop_misses;
