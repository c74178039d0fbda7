-- 007: the self_reported (V3) lane and paid review publication records
-- (docs/ARCHITECTURE.md, Paid publication). Uniqueness is decided by unique
-- keys, never by a read-then-write in C:
-- reviews: one self_reported review per (wallet, route), through a
-- generated column that is NULL in the other lanes (a UNIQUE index ignores
-- NULLs), so the boon_backed and receipt_verified lanes are untouched.
ALTER TABLE reviews
    ADD COLUMN self_reported_by BINARY(20)
        AS (IF(lane = 'self_reported', reviewer, NULL)) PERSISTENT,
    ADD UNIQUE KEY one_self_reported (chain_id, route_id, self_reported_by);

-- review_publications: one row per paid publication of a signed review,
-- keyed by its EIP-712 digest, and at most one per (lane, wallet, route),
-- so a second bundle for the same lane slot is refused before any payment.
-- state: reserved_unpaid (the bundle passed every check and a payment was
-- presented; nothing charged yet), settled_pending (the payment settled but
-- the review is not written yet: an identical retry with the same
-- authorization publishes it without settling again), published (the
-- review row exists; final), cancel_pending (the payment was not charged:
-- the row is being removed so the lane is not locked; a leftover
-- cancel_pending row, or a reserved_unpaid one older than 10 minutes, is
-- removed by the next reservation of the same slot).
CREATE TABLE review_publications (
    chain_id      BIGINT UNSIGNED NOT NULL,
    digest        BINARY(32) NOT NULL,            -- EIP-712 digest of the signed review
    lane          ENUM('receipt_verified', 'self_reported') NOT NULL,
    route_id      BINARY(32) NOT NULL,
    reviewer      BINARY(20) NOT NULL,
    state         ENUM('reserved_unpaid', 'settled_pending', 'published', 'cancel_pending') NOT NULL,
    payer         BINARY(20) NULL,                -- the authorization that paid (x402_payments)
    auth_nonce    BINARY(32) NULL,
    tx_hash       BINARY(32) NULL,                -- its settlement transaction
    created_at    DATETIME(6) NOT NULL,           -- UTC
    updated_at    DATETIME(6) NOT NULL,           -- UTC
    PRIMARY KEY (chain_id, digest),
    UNIQUE KEY one_per_slot (chain_id, lane, reviewer, route_id),
    KEY by_state (state, updated_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
