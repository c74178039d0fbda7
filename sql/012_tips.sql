-- 012: tips, handle links, gratitude attestations and ERC-8004 agents,
-- indexed from three contracts (docs/ARCHITECTURE.md, Indexer and Data
-- model; docs/PROTOCOL.md, Tips). Like routed_boons (002), every chain
-- fact comes from the indexer only, in one transaction per block range
-- together with that contract's checkpoint (indexer_checkpoints, one row
-- per contract) and the derived rows it changes.
--
-- tip_events is the record: one row per log, keyed by (chain, tx, log
-- index), so a range read twice stores nothing twice. Every other table
-- here is a pure function of tip_events, recomputed for the keys a range
-- (or a reorg rollback) touched, so deleting events above a fork and
-- recomputing gives exactly the state the remaining events imply.
--
-- Private tips: their events carry no amount and no note. The amount a
-- later claim or refund of a private tip reveals is not kept either
-- (tip_events.usdc_amount is NULL on those rows), so no column holds a
-- private tip's amount or note; reads count private tips but can show
-- nothing else of their value.
--
-- Hashes and addresses are raw bytes, amounts exact DECIMAL(65,0), times
-- Unix seconds of the block, agent ids canonical decimal strings (an
-- ERC-8004 id is a uint256: up to 78 digits).

CREATE TABLE tip_events (
    chain_id           BIGINT UNSIGNED NOT NULL,
    tx_hash            BINARY(32) NOT NULL,
    log_index          INT UNSIGNED NOT NULL,
    contract           BINARY(20) NOT NULL,           -- tips, attestation or registry contract
    block_number       BIGINT UNSIGNED NOT NULL,
    block_hash         BINARY(32) NOT NULL,
    block_time         BIGINT UNSIGNED NOT NULL,
    event              ENUM('Tip', 'TipEscrowed', 'TipAgent', 'PrivateTip', 'PrivateTipEscrowed',
                            'EscrowedClaimed', 'EscrowedRefunded', 'DeferredAttestationMinted',
                            'Linked', 'Relinked',
                            'AttestationMinted', 'AttestationBurned',
                            'AgentRegistered', 'AgentTransfer', 'AgentWalletSet') NOT NULL,
    tip_id             BIGINT UNSIGNED NULL,          -- tip events; attestation token id (= tip id)
    handle_hash        BINARY(32) NULL,
    agent_id           VARCHAR(78) NULL,              -- TipAgent and registry events
    actor              BINARY(20) NULL,               -- tipper; Relinked old wallet; Transfer from; Registered owner
    wallet             BINARY(20) NULL,               -- see below
    usdc_amount        DECIMAL(65,0) UNSIGNED NULL,   -- NULL on private tips and their claims/refunds
    mint_attestation   TINYINT(1) NULL,               -- as the event says; NULL when it does not say
    display_handle     VARCHAR(90) NULL,              -- tip events' displayHandle (agent:<id> for TipAgent)
    note               VARCHAR(280) NULL,             -- public tips only
    private_commitment BINARY(32) NULL,               -- private tips only
    PRIMARY KEY (chain_id, tx_hash, log_index),
    KEY by_block (chain_id, contract, block_number),
    KEY by_tip (chain_id, tip_id, event),
    KEY by_handle (chain_id, handle_hash, event),
    KEY by_agent (chain_id, agent_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- tip_events.wallet: Tip the linked wallet paid; TipAgent the resolved
-- agent wallet; EscrowedClaimed the claimer; DeferredAttestationMinted,
-- AttestationMinted the holder; AttestationBurned the holder; Linked the
-- wallet; Relinked the new wallet; AgentRegistered the owner (the agent
-- wallet a registration sets); AgentTransfer the new owner; AgentWalletSet
-- the new agent wallet, NULL when cleared.

-- One row per tip, from its creating event and its settlement (a claim
-- or a refund) and, for the attestation flag of a private push, the mint.
CREATE TABLE tips (
    chain_id             BIGINT UNSIGNED NOT NULL,
    tip_id               BIGINT UNSIGNED NOT NULL,
    contract             BINARY(20) NOT NULL,
    kind                 ENUM('handle', 'agent') NOT NULL,
    is_private           TINYINT(1) NOT NULL,
    handle_hash          BINARY(32) NOT NULL,         -- keccak256 of the handle (agent:<id> for agents)
    handle               VARCHAR(90) NOT NULL,        -- displayHandle as emitted, or agent:<id>
    agent_id             VARCHAR(78) NULL,            -- agent tips
    tipper               BINARY(20) NOT NULL,
    recipient            BINARY(20) NULL,             -- wallet paid: push target, agent payout at tip time, claimer;
                                                      -- NULL while escrowed, after a refund, and on a private push
    usdc_amount          DECIMAL(65,0) UNSIGNED NULL, -- NULL exactly for private tips
    note                 VARCHAR(280) NULL,           -- NULL exactly for private tips ('' when empty)
    private_commitment   BINARY(32) NULL,             -- private tips
    mint_attestation     TINYINT(1) NOT NULL,
    boon_burned          DECIMAL(65,0) UNSIGNED NOT NULL, -- private burn + attestation burn, by the tipper
    status               ENUM('escrowed', 'pushed', 'claimed', 'refunded') NOT NULL,
    tx_hash              BINARY(32) NOT NULL,
    log_index            INT UNSIGNED NOT NULL,
    block_number         BIGINT UNSIGNED NOT NULL,
    block_time           BIGINT UNSIGNED NOT NULL,
    settled_tx_hash      BINARY(32) NULL,             -- claim or refund
    settled_log_index    INT UNSIGNED NULL,
    settled_block_number BIGINT UNSIGNED NULL,
    settled_block_time   BIGINT UNSIGNED NULL,
    PRIMARY KEY (chain_id, tip_id),
    UNIQUE KEY one_per_log (chain_id, tx_hash, log_index),
    KEY by_handle (chain_id, handle_hash, block_number, tip_id),
    KEY by_tipper (chain_id, tipper, block_number, tip_id),
    KEY by_recipient (chain_id, recipient, block_number),
    KEY by_settled_tx (chain_id, settled_tx_hash),
    KEY by_agent (chain_id, agent_id),
    KEY by_time (chain_id, block_time, tip_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The soulbound attestation of a tip (token id = tip id).
CREATE TABLE tip_attestations (
    chain_id           BIGINT UNSIGNED NOT NULL,
    tip_id             BIGINT UNSIGNED NOT NULL,
    contract           BINARY(20) NOT NULL,
    recipient          BINARY(20) NOT NULL,
    handle_hash        BINARY(32) NOT NULL,
    tx_hash            BINARY(32) NOT NULL,
    log_index          INT UNSIGNED NOT NULL,
    block_number       BIGINT UNSIGNED NOT NULL,
    minted_at          BIGINT UNSIGNED NOT NULL,
    burned             TINYINT(1) NOT NULL,           -- the holder burned it
    burned_at          BIGINT UNSIGNED NULL,
    PRIMARY KEY (chain_id, tip_id),
    KEY by_recipient (chain_id, recipient)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The current wallet of each linked handle: the latest Linked/Relinked.
CREATE TABLE handle_links (
    chain_id           BIGINT UNSIGNED NOT NULL,
    handle_hash        BINARY(32) NOT NULL,
    wallet             BINARY(20) NOT NULL,
    first_linked_at    BIGINT UNSIGNED NOT NULL,
    linked_at          BIGINT UNSIGNED NOT NULL,      -- block time of the latest Linked/Relinked
    link_tx_hash       BINARY(32) NOT NULL,
    link_block_number  BIGINT UNSIGNED NOT NULL,
    relinks            INT UNSIGNED NOT NULL,
    PRIMARY KEY (chain_id, handle_hash),
    KEY by_wallet (chain_id, wallet)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Preimages of handle hashes: canonical handles seen in tip events (only
-- when keccak256(handle) is the event's handleHash) and agent:<id> of
-- registered agents. A preimage is true on every chain and after any
-- reorg, so rows are only ever added (INSERT IGNORE).
CREATE TABLE handle_names (
    handle_hash        BINARY(32) NOT NULL,
    handle             VARCHAR(90) NOT NULL,
    PRIMARY KEY (handle_hash),
    UNIQUE KEY one_per_handle (handle)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- ERC-8004 agents as the registry's events leave them.
CREATE TABLE agents (
    chain_id             BIGINT UNSIGNED NOT NULL,
    agent_id             VARCHAR(78) NOT NULL,
    registry             BINARY(20) NOT NULL,
    owner                BINARY(20) NOT NULL,
    agent_wallet         BINARY(20) NULL,             -- verified payout wallet; NULL when unset or cleared
    payout_wallet        BINARY(20) NOT NULL,         -- agent_wallet, else owner: where a tip pays now
    registered_tx_hash   BINARY(32) NOT NULL,
    registered_block_number BIGINT UNSIGNED NOT NULL,
    registered_at        BIGINT UNSIGNED NOT NULL,
    updated_block_number BIGINT UNSIGNED NOT NULL,
    updated_at           BIGINT UNSIGNED NOT NULL,
    PRIMARY KEY (chain_id, agent_id),
    KEY by_owner (chain_id, owner),
    KEY by_agent_wallet (chain_id, agent_wallet),
    KEY by_payout (chain_id, payout_wallet)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Per handle (recipient side). Amounts are of public tips only; counts
-- include private tips. total_usdc = pushed + escrowed + claimed (refunds
-- excluded); received_usdc = pushed + claimed (what reached a wallet).
CREATE TABLE handle_tip_stats (
    chain_id           BIGINT UNSIGNED NOT NULL,
    handle_hash        BINARY(32) NOT NULL,
    handle             VARCHAR(90) NOT NULL,          -- from the latest tip
    tips_received      BIGINT UNSIGNED NOT NULL,
    private_received   BIGINT UNSIGNED NOT NULL,
    pushed_count       BIGINT UNSIGNED NOT NULL,
    escrowed_count     BIGINT UNSIGNED NOT NULL,      -- still in escrow
    claimed_count      BIGINT UNSIGNED NOT NULL,
    refunded_count     BIGINT UNSIGNED NOT NULL,
    tipper_count       BIGINT UNSIGNED NOT NULL,      -- distinct tippers
    total_usdc         DECIMAL(65,0) UNSIGNED NOT NULL,
    received_usdc      DECIMAL(65,0) UNSIGNED NOT NULL,
    pushed_usdc        DECIMAL(65,0) UNSIGNED NOT NULL,
    escrowed_usdc      DECIMAL(65,0) UNSIGNED NOT NULL,
    claimed_usdc       DECIMAL(65,0) UNSIGNED NOT NULL,
    refunded_usdc      DECIMAL(65,0) UNSIGNED NOT NULL,
    first_tip_at       BIGINT UNSIGNED NOT NULL,
    last_tip_at        BIGINT UNSIGNED NOT NULL,
    last_tip_id        BIGINT UNSIGNED NOT NULL,
    PRIMARY KEY (chain_id, handle_hash),
    KEY by_total (chain_id, total_usdc),
    KEY by_count (chain_id, tips_received)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Per wallet: as tipper (sent_*) and as the wallet a tip paid (paid_*).
-- sent_usdc excludes refunded tips; amounts are of public tips only.
CREATE TABLE wallet_tip_stats (
    chain_id           BIGINT UNSIGNED NOT NULL,
    wallet             BINARY(20) NOT NULL,
    tips_sent          BIGINT UNSIGNED NOT NULL,
    private_sent       BIGINT UNSIGNED NOT NULL,
    handles_tipped     BIGINT UNSIGNED NOT NULL,      -- distinct recipient handles
    sent_usdc          DECIMAL(65,0) UNSIGNED NOT NULL,
    refunded_usdc      DECIMAL(65,0) UNSIGNED NOT NULL,
    first_sent_at      BIGINT UNSIGNED NULL,
    last_sent_at       BIGINT UNSIGNED NULL,
    tips_paid          BIGINT UNSIGNED NOT NULL,      -- tips whose recipient is this wallet
    paid_usdc          DECIMAL(65,0) UNSIGNED NOT NULL,
    PRIMARY KEY (chain_id, wallet),
    KEY by_sent (chain_id, sent_usdc),
    KEY by_sent_count (chain_id, tips_sent)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- One row per chain: the board's aggregate stats.
CREATE TABLE tip_chain_stats (
    chain_id           BIGINT UNSIGNED NOT NULL,
    tips               BIGINT UNSIGNED NOT NULL,
    private_tips       BIGINT UNSIGNED NOT NULL,
    tippers            BIGINT UNSIGNED NOT NULL,      -- wallets with tips_sent > 0
    recipients         BIGINT UNSIGNED NOT NULL,      -- handles with tips_received > 0
    total_usdc         DECIMAL(65,0) UNSIGNED NOT NULL,
    pushed_usdc        DECIMAL(65,0) UNSIGNED NOT NULL,
    escrowed_usdc      DECIMAL(65,0) UNSIGNED NOT NULL,
    claimed_usdc       DECIMAL(65,0) UNSIGNED NOT NULL,
    refunded_usdc      DECIMAL(65,0) UNSIGNED NOT NULL,
    attestations       BIGINT UNSIGNED NOT NULL,      -- minted, not burned
    linked_handles     BIGINT UNSIGNED NOT NULL,
    agents             BIGINT UNSIGNED NOT NULL,
    PRIMARY KEY (chain_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
