-- 006: published reviews, in evidence lanes kept separate (docs/PROTOCOL.md,
-- Review lanes). Rows are immutable once written. The typed-data digest identifies
-- a signed review; lane rules are unique keys, never read-then-write:
-- boon_backed (V1): one review per routed recognition.
CREATE TABLE reviews (
    id                     BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    chain_id               BIGINT UNSIGNED NOT NULL,
    lane                   ENUM('boon_backed', 'receipt_verified', 'self_reported') NOT NULL,
    route_id               BINARY(32) NOT NULL,
    reviewer               BINARY(20) NOT NULL,
    review_text            TEXT NOT NULL,
    created_at             BIGINT UNSIGNED NOT NULL,       -- signed, Unix seconds
    published_at           DATETIME(6) NOT NULL,
    digest                 BINARY(32) NOT NULL,            -- EIP-712 digest of the signed review
    signature              VARBINARY(4096) NOT NULL,
    signature_kind         ENUM('eoa', 'erc1271') NOT NULL,
    review_json            MEDIUMBLOB NOT NULL,            -- the signed review object as received
    recognition_tx_hash    BINARY(32) NULL,                -- boon_backed: the cited recognition
    recognition_log_index  INT UNSIGNED NULL,
    UNIQUE KEY one_per_recognition (chain_id, recognition_tx_hash, recognition_log_index),
    UNIQUE KEY by_digest (chain_id, digest),
    KEY by_route (chain_id, route_id, lane, published_at),
    KEY by_reviewer (chain_id, reviewer, published_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
