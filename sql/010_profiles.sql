-- 010: wallet profiles (docs/ARCHITECTURE.md, Wallet profiles). A profile
-- groups up to 8 Base wallets; its controller is the wallet that created
-- it, and is its first active wallet. Every rule is a key:
--   profiles.one_per_controller: one profile per controller, so a repeated
--     create finds the existing one (INSERT ... ON DUPLICATE KEY);
--   profile_wallets.one_profile_per_wallet: a wallet is active in at most
--     one profile (a generated column that is NULL unless active);
--   profile_wallets.one_per_slot: an active wallet holds one of the slots
--     1..8 of its profile, so a ninth active wallet has no key to take,
--     whatever the concurrency.
-- A member's link is pending (with its intent digest and a five-minute
-- expiry) until the member confirms it, then active until revoked.
CREATE TABLE profiles (
    profile_id      BINARY(16) NOT NULL,               -- UUID (version 4)
    chain_id        BIGINT UNSIGNED NOT NULL,          -- 8453
    controller      BINARY(20) NOT NULL,
    discovery_mode  ENUM('private', 'public_all') NOT NULL,
    created_at      BIGINT UNSIGNED NOT NULL,          -- Unix seconds
    updated_at      BIGINT UNSIGNED NOT NULL,          -- Unix seconds
    PRIMARY KEY (profile_id),
    UNIQUE KEY one_per_controller (chain_id, controller)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE profile_wallets (
    link_id         BINARY(16) NOT NULL,               -- UUID (version 4)
    profile_id      BINARY(16) NOT NULL,
    chain_id        BIGINT UNSIGNED NOT NULL,
    wallet          BINARY(20) NOT NULL,
    role            ENUM('controller', 'member') NOT NULL,
    state           ENUM('pending', 'active', 'revoked', 'expired') NOT NULL,
    slot            TINYINT UNSIGNED NULL,             -- 1..8 once active; the controller holds 1
    policy          ENUM('private', 'public_all') NOT NULL,  -- the discovery mode the member consents to
    intent_digest   BINARY(32) NULL,                   -- a member link's intent (docs/PROTOCOL.md)
    created_at      BIGINT UNSIGNED NOT NULL,          -- Unix seconds
    expires_at      BIGINT UNSIGNED NULL,              -- a pending link's end (created_at + 300)
    activated_at    BIGINT UNSIGNED NULL,
    ended_at        BIGINT UNSIGNED NULL,              -- revoked or expired
    active_wallet   BINARY(20) AS (IF(state = 'active', wallet, NULL)) PERSISTENT,
    active_slot     TINYINT UNSIGNED AS (IF(state = 'active', slot, NULL)) PERSISTENT,
    PRIMARY KEY (link_id),
    UNIQUE KEY one_profile_per_wallet (chain_id, active_wallet),
    UNIQUE KEY one_per_slot (profile_id, active_slot),
    KEY by_profile (profile_id, state),
    KEY by_wallet (chain_id, wallet, state),
    CONSTRAINT slot_range CHECK (slot IS NULL OR slot BETWEEN 1 AND 8),
    CONSTRAINT active_has_slot CHECK (state <> 'active' OR slot IS NOT NULL)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
