-- 001: the version table. Every file in sql/ is applied once, in order, and
-- recorded here with its SHA-256 so an edited, already-applied migration is
-- detected instead of silently diverging.
CREATE TABLE schema_migrations (
    version     INT UNSIGNED NOT NULL PRIMARY KEY,
    name        VARCHAR(200) NOT NULL,
    sha256      CHAR(64) NOT NULL,
    applied_at  DATETIME NOT NULL DEFAULT UTC_TIMESTAMP()
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
