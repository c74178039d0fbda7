-- 003: route contexts (docs/PROTOCOL.md, Route contexts): signed route notes
-- published by the participants of a route (a tipper, or a funded endpoint
-- or network payTo of one of its routed recognitions).
-- One current slot per participant per route: the primary key (chain_id,
-- route_id, publisher). A publication replaces the slot's row only when
-- its note has a later createdAt, decided by one conditional INSERT ... ON
-- DUPLICATE KEY UPDATE (handlers/contexts.c), never a read-then-write.
-- note_json and offer_json hold the exact bytes received and are returned
-- as they are, never re-serialized; every other column is a value parsed
-- from them (or from the signature), kept for reads and queries.
-- Hashes and addresses are raw bytes; the amount is an exact decimal.

CREATE TABLE route_contexts (
    chain_id             BIGINT UNSIGNED NOT NULL,
    route_id             BINARY(32) NOT NULL,
    publisher            BINARY(20) NOT NULL,            -- recovered signer, = offer payTo
    method               VARCHAR(64) NOT NULL,           -- normalized (uppercase)
    origin               VARCHAR(2048) NOT NULL,         -- https://host[:port]
    public_path          TEXT NOT NULL,                  -- normalized path, hashed into route_id
    public_endpoint_url  TEXT NOT NULL,                  -- origin + public_path
    note_json            MEDIUMBLOB NOT NULL,            -- the exact note bytes
    offer_json           MEDIUMBLOB NOT NULL,            -- the exact offer bytes (wrapper included)
    signature            VARBINARY(65) NOT NULL,         -- 64 or 65 bytes, as given
    note_digest          BINARY(32) NOT NULL,            -- keccak256(note_json) = offer responseDigest
    intent               VARCHAR(280) NOT NULL,          -- trimmed
    fit                  VARCHAR(280) NOT NULL,          -- trimmed
    limits               TEXT NOT NULL,                  -- JSON array of the trimmed limits
    limits_text          TEXT NOT NULL,                  -- the same limits joined by newlines, for text search
    request_schema_uri   VARCHAR(2048) NULL,
    documentation_uri    VARCHAR(2048) NULL,
    context_uris         TEXT NOT NULL,                  -- JSON array
    note_created_at      BIGINT UNSIGNED NOT NULL,       -- Unix seconds; decides replacement
    note_expires_at      BIGINT UNSIGNED NOT NULL,       -- Unix seconds; expired rows are not listed
    note_endpoint        TEXT NOT NULL,                  -- offer: where the note is sold
    offer_method         VARCHAR(64) NOT NULL,
    asset                BINARY(20) NOT NULL,
    pay_to               BINARY(20) NOT NULL,
    amount_atomic        DECIMAL(65,0) UNSIGNED NOT NULL,
    offer_expires_at     BIGINT UNSIGNED NOT NULL,
    participant_roles    SET('tipper', 'endpoint', 'network') NOT NULL, -- at publication time
    published_at         DATETIME(6) NOT NULL,           -- UTC, when this row's publication was stored
    PRIMARY KEY (chain_id, route_id, publisher),
    KEY by_route_expiry (chain_id, route_id, note_expires_at),
    KEY by_expiry (chain_id, note_expires_at),
    KEY by_publisher (chain_id, publisher)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
