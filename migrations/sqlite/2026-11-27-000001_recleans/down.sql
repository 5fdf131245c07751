DROP TABLE reclean_lines;
DROP TABLE recleans;
