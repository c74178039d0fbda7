-- 002: routed recognitions indexed from the companion contract, the
-- indexer's checkpoint and recent block hashes (for reorg detection), and
-- the aggregates later reads need, kept consistent with the rows by the
-- indexer in the same transaction that changes the rows.
-- Hashes and addresses are raw bytes; USDC and BOON amounts are exact
-- decimals (uint256 values never pass through floating point).

CREATE TABLE routed_boons (
    chain_id          BIGINT UNSIGNED NOT NULL,
    tx_hash           BINARY(32) NOT NULL,
    log_index         INT UNSIGNED NOT NULL,
    contract          BINARY(20) NOT NULL,
    block_number      BIGINT UNSIGNED NOT NULL,
    block_hash        BINARY(32) NOT NULL,
    block_time        BIGINT UNSIGNED NOT NULL,
    route_id          BINARY(32) NOT NULL,
    tipper            BINARY(20) NOT NULL,
    context_ref       BINARY(32) NOT NULL,
    endpoint_pay_to   BINARY(20) NOT NULL,
    endpoint_usdc     DECIMAL(65,0) UNSIGNED NOT NULL,
    network_pay_to    BINARY(20) NOT NULL,
    network_usdc      DECIMAL(65,0) UNSIGNED NOT NULL,
    boon_burned       DECIMAL(65,0) UNSIGNED NOT NULL,
    PRIMARY KEY (chain_id, tx_hash, log_index),
    KEY by_route (chain_id, route_id, block_number, log_index),
    KEY by_block (chain_id, contract, block_number),
    KEY by_tipper (chain_id, tipper),
    KEY by_endpoint (chain_id, endpoint_pay_to),
    KEY by_network (chain_id, network_pay_to)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE indexer_checkpoints (
    chain_id          BIGINT UNSIGNED NOT NULL,
    contract          BINARY(20) NOT NULL,
    block_number      BIGINT NOT NULL,              -- last block fully indexed (start - 1 before any)
    block_hash        BINARY(32) NULL,
    head_block        BIGINT UNSIGNED NULL,         -- chain head at the last successful poll
    head_seen_at      DATETIME NULL,
    last_error        VARCHAR(300) NULL,
    last_error_at     DATETIME NULL,
    updated_at        DATETIME NOT NULL DEFAULT UTC_TIMESTAMP(),
    PRIMARY KEY (chain_id, contract)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE indexer_blocks (
    chain_id          BIGINT UNSIGNED NOT NULL,
    contract          BINARY(20) NOT NULL,
    block_number      BIGINT UNSIGNED NOT NULL,
    block_hash        BINARY(32) NOT NULL,
    PRIMARY KEY (chain_id, contract, block_number)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE route_recognition_stats (
    chain_id             BIGINT UNSIGNED NOT NULL,
    route_id             BINARY(32) NOT NULL,
    recognition_count    BIGINT UNSIGNED NOT NULL,
    tipper_count         BIGINT UNSIGNED NOT NULL,
    endpoint_usdc        DECIMAL(65,0) UNSIGNED NOT NULL,
    network_usdc         DECIMAL(65,0) UNSIGNED NOT NULL,
    total_usdc           DECIMAL(65,0) UNSIGNED NOT NULL,
    boon_burned          DECIMAL(65,0) UNSIGNED NOT NULL,
    first_block_time     BIGINT UNSIGNED NOT NULL,
    latest_block_time    BIGINT UNSIGNED NOT NULL,
    latest_block_number  BIGINT UNSIGNED NOT NULL,
    latest_tx_hash       BINARY(32) NOT NULL,
    PRIMARY KEY (chain_id, route_id),
    KEY by_latest (chain_id, latest_block_number)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE wallet_roles (
    chain_id             BIGINT UNSIGNED NOT NULL,
    wallet               BINARY(20) NOT NULL,
    role                 ENUM('tipper', 'endpoint', 'network') NOT NULL,
    recognition_count    BIGINT UNSIGNED NOT NULL,
    first_block_time     BIGINT UNSIGNED NOT NULL,
    latest_block_time    BIGINT UNSIGNED NOT NULL,
    PRIMARY KEY (chain_id, wallet, role)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
