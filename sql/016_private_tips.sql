-- 016: private tips (docs/PROTOCOL.md, Private tips): the blobs that hold
-- their notes, the single-use nonces of unlock challenges, and the sender
-- disclosures. Every uniqueness rule is a key, so it holds with many
-- workers and a Galera cluster: one blob per commitment (the first upload
-- wins, a repeat is compared), one nonce used once (a conditional update),
-- one disclosure row per tip, and a disclose signature that a withdrawal
-- ended is refused for good (tip_disclosure_spent).

-- A blob: AES-256-GCM of salt (32 bytes) || note under private_tip_key,
-- the commitment as associated data; sealed = ciphertext || tag (16).
-- Which tip uses a blob is the chain's to say (tips.private_commitment).
CREATE TABLE private_tip_blobs (
    commitment         BINARY(32) NOT NULL,
    iv                 BINARY(12) NOT NULL,
    sealed             VARBINARY(1100) NOT NULL,
    created_at         BIGINT UNSIGNED NOT NULL,
    PRIMARY KEY (commitment),
    KEY by_created (created_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- A challenge of POST /tips/{tipId}/auth-challenge: used at most once,
-- for its tip, until expires_at (Unix seconds; the signed deadline).
CREATE TABLE private_tip_nonces (
    nonce              BINARY(32) NOT NULL,
    chain_id           BIGINT UNSIGNED NOT NULL,
    tip_id             BIGINT UNSIGNED NOT NULL,
    expires_at         BIGINT UNSIGNED NOT NULL,
    used_at            BIGINT UNSIGNED NULL,
    PRIMARY KEY (nonce),
    KEY by_expiry (expires_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The tipper's disclosure of a private tip: while disclosed, the note
-- (from its blob) and the amount (from the chain) are public and kept
-- here in the clear; a withdrawal clears them.
CREATE TABLE tip_disclosures (
    chain_id           BIGINT UNSIGNED NOT NULL,
    tip_id             BIGINT UNSIGNED NOT NULL,
    tx_hash            BINARY(32) NOT NULL,
    disclosed          TINYINT(1) NOT NULL,
    action             ENUM('disclose', 'withdraw') NOT NULL,
    signer             BINARY(20) NOT NULL,
    disclose_sig       BINARY(32) NULL,              -- SHA-256 of the current disclose signature
    usdc_amount        DECIMAL(65,0) UNSIGNED NULL,  -- while disclosed
    note               VARCHAR(1000) NULL,           -- while disclosed; NULL when the tip has no blob
    updated_at         BIGINT UNSIGNED NOT NULL,
    PRIMARY KEY (chain_id, tip_id),
    KEY by_tx (chain_id, tx_hash)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Disclose signatures (SHA-256) that a withdrawal ended: never accepted again.
CREATE TABLE tip_disclosure_spent (
    chain_id           BIGINT UNSIGNED NOT NULL,
    tip_id             BIGINT UNSIGNED NOT NULL,
    sig_digest         BINARY(32) NOT NULL,
    PRIMARY KEY (chain_id, tip_id, sig_digest)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
