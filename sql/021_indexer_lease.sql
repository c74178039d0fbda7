-- 021: the indexer lease: one row per chain naming the indexer process that
-- may write chain facts, until when.
--
-- Several hosts may each run an indexer; only the holder of an unexpired
-- lease indexes, the others stand by and take the row over once it has
-- expired. Taking, renewing and releasing are single conditional UPDATEs,
-- and every transaction that stores events or moves a checkpoint first
-- renews the row with one that must match it (indexer/lease.h), so a
-- holder that lost the lease can commit nothing. Times are the database's
-- clock (UTC_TIMESTAMP(3)), never a host's. The indexer inserts the row
-- when it is missing (expired at once); workers of the previous version
-- never read it.
CREATE TABLE indexer_lease (
    chain_id     BIGINT UNSIGNED NOT NULL,
    holder       VARCHAR(128) NOT NULL,          -- indexer_id of the holder (or the last one)
    term         BIGINT UNSIGNED NOT NULL DEFAULT 0,   -- times it was taken
    expires_at   DATETIME(3) NOT NULL,           -- free from then on
    taken_at     DATETIME(3) NULL,
    renewed_at   DATETIME(3) NULL,
    PRIMARY KEY (chain_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
