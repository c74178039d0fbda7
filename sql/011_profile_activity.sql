-- 011: profile activity facts and activity reviews (docs/ARCHITECTURE.md,
-- Profile activity). A fact is evidence a linked wallet published and the
-- service verified, stored once in normalized form:
--   used             an official x402 offer/receipt pair bound to a route,
--                    or (evidence_kind client_settlement) a wallet-attested
--                    method and URL bound to a verified USDC settlement;
--   paid_settlement  a verified Base USDC transfer from a linked wallet,
--                    without a route.
-- The reviewed, recognized and linked_wallet categories are not stored:
-- they are read from reviews, routed_boons and profile_wallets.
-- Every rule is a key:
--   activity_id: 0x + SHA-256 of the fact's identity (the profile and the
--     evidence key), so publishing the same evidence again finds the same
--     row (INSERT ... ON DUPLICATE KEY, idempotent);
--   one_per_evidence: one fact per piece of evidence in a profile.
-- Rows are immutable once written.
CREATE TABLE profile_activity (
    activity_id     BINARY(32) NOT NULL,
    profile_id      BINARY(16) NOT NULL,
    chain_id        BIGINT UNSIGNED NOT NULL,          -- 8453
    account         BINARY(20) NOT NULL,               -- the linked wallet that published it
    kind            ENUM('used', 'paid_settlement') NOT NULL,
    evidence_kind   VARCHAR(64) NOT NULL,              -- x402_receipt, usdc_transfer, client_settlement
    evidence_key    BINARY(32) NOT NULL,               -- SHA-256 of the evidence's identity
    route_id        BINARY(32) NULL,
    origin          VARCHAR(2048) NULL,
    method          VARCHAR(16) NULL,
    path            VARCHAR(2048) NULL,
    network         VARCHAR(32) NULL,                  -- eip155:8453
    asset           BINARY(20) NULL,                   -- the token contract (USDC)
    amount_atomic   DECIMAL(65,0) UNSIGNED NULL,
    tx_hash         BINARY(32) NULL,
    log_index       INT UNSIGNED NULL,
    occurred_at     BIGINT UNSIGNED NOT NULL,          -- Unix seconds (the block's or the receipt's)
    details         MEDIUMTEXT NULL CHECK (details IS NULL OR JSON_VALID(details)),
    published_at    BIGINT UNSIGNED NOT NULL,          -- Unix seconds
    PRIMARY KEY (activity_id),
    UNIQUE KEY one_per_evidence (profile_id, evidence_key),
    KEY by_profile (profile_id, occurred_at, activity_id),
    KEY by_account (chain_id, account, occurred_at),
    KEY by_route (chain_id, route_id, kind)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- A review attached to a public client_settlement fact by the wallet that
-- published it: one per activity, and one per wallet and route, both keys.
CREATE TABLE activity_reviews (
    activity_id     BINARY(32) NOT NULL,
    profile_id      BINARY(16) NOT NULL,
    chain_id        BIGINT UNSIGNED NOT NULL,
    route_id        BINARY(32) NOT NULL,
    reviewer        BINARY(20) NOT NULL,
    tx_hash         BINARY(32) NOT NULL,               -- the settlement the fact verified
    review_text     TEXT NOT NULL,
    created_at      BIGINT UNSIGNED NOT NULL,          -- signed, Unix seconds
    digest          BINARY(32) NOT NULL,               -- digest of the signed review
    published_at    BIGINT UNSIGNED NOT NULL,          -- Unix seconds
    PRIMARY KEY (activity_id),
    UNIQUE KEY one_per_wallet_route (chain_id, reviewer, route_id),
    KEY by_route (chain_id, route_id, published_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
