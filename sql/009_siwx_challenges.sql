-- 009: Sign-In-With-X challenges (docs/ARCHITECTURE.md, Sign-In-With-X).
-- One row per challenge a SIWX row issued in a 402: a server-made nonce
-- bound to the public domain, the exact operation URI (public base URL +
-- path + query) and the dispatch-table row, valid five minutes, usable
-- once. A proof is accepted only by one conditional UPDATE that sets
-- used_at on an unexpired, unused row with the same binding; its affected
-- row count decides, so two uses of one nonce can never both pass (also
-- on a Galera cluster, where the loser's write fails certification and
-- its retry finds the row used). Only the proof's digest (the EIP-191 hash
-- of the signed text) and verification metadata are kept, never the proof
-- or its signature. Rows are pruned a day after they expire.
CREATE TABLE siwx_challenges (
    nonce           CHAR(32) NOT NULL,                 -- 16 random bytes as lowercase hex
    endpoint_id     VARCHAR(128) NOT NULL,             -- dispatch-table row id
    domain          VARCHAR(255) NOT NULL,             -- the public origin's host[:port]
    uri_digest      BINARY(32) NOT NULL,               -- SHA-256 of the exact operation URI
    issued_at       BIGINT UNSIGNED NOT NULL,          -- Unix seconds
    expires_at      BIGINT UNSIGNED NOT NULL,          -- Unix seconds, issued_at + 300
    used_at         BIGINT UNSIGNED NULL,              -- set once, by the accepting UPDATE
    account         BINARY(20) NULL,                   -- the verified signer (eip155:8453)
    proof_digest    BINARY(32) NULL,                   -- EIP-191 hash of the signed text
    signature_kind  ENUM('eoa', 'erc1271', 'erc6492') NULL,
    PRIMARY KEY (nonce),
    KEY by_expiry (expires_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
