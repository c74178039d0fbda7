-- 005: the x402 replay ledger (docs/ARCHITECTURE.md, Payment ledger). One row
-- per payment
-- authorization a paid route accepted, keyed by (payer, authorization
-- nonce): the row is inserted BEFORE the facilitator verifies or settles,
-- so the same payment can never be used twice, nor on another route; the
-- unique key decides, never a read-then-write in C (fcgi/pay.c, lib/ledger.c).
-- status: reserved (inserted, being verified or served), settled, failed
-- (refused by the facilitator, or settlement failed or its outcome is
-- unknown: never reused), released (not charged because the handler failed
-- or the facilitator was unreachable before settlement: the same payment may
-- be presented again, for the same resource URL only).
-- Payment headers and payloads are never stored.

CREATE TABLE x402_payments (
    payer            BINARY(20) NOT NULL,              -- authorization.from
    auth_nonce       BINARY(32) NOT NULL,              -- authorization.nonce
    network          VARCHAR(64) NOT NULL,             -- CAIP-2
    asset            BINARY(20) NOT NULL,
    pay_to           BINARY(20) NOT NULL,
    amount           DECIMAL(65,0) UNSIGNED NOT NULL,  -- atomic units
    endpoint_id      VARCHAR(128) NOT NULL,            -- dispatch-table row id
    resource_url     TEXT NOT NULL,                    -- the URL the payment is bound to
    status           ENUM('reserved', 'settled', 'failed', 'released') NOT NULL,
    reason           VARCHAR(96) NULL,                 -- facilitator reason code of a failure
    tx_hash          BINARY(32) NULL,                  -- settlement transaction
    created_at       DATETIME(6) NOT NULL,             -- UTC
    updated_at       DATETIME(6) NOT NULL,             -- UTC
    PRIMARY KEY (payer, auth_nonce),
    KEY by_status (status, updated_at),
    KEY by_endpoint (endpoint_id, created_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
