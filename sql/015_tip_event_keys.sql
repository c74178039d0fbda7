-- 015: the link and agent events of tip_events, keyed by handle and by
-- agent in narrow tables of their own (docs/ARCHITECTURE.md, Indexer).
--
-- Only the indexer reads tip_events. It looks events up by handle hash for
-- Linked and Relinked alone, and by agent id for the identity registry's
-- events alone, yet the indexes by_handle and by_agent held an entry for
-- every event: on a first backfill of a busy tips contract they were about
-- a quarter of the cost of storing its events. Each of these tables holds
-- one row per such event instead, the event's key (chain, tx hash, log
-- index) under the handle or agent it is looked up by; the indexer writes
-- it in the same statement batch as the event and deletes it with the
-- event on a reorg, so tip_events stays the record.

CREATE TABLE tip_link_keys (
    chain_id           BIGINT UNSIGNED NOT NULL,
    handle_hash        BINARY(32) NOT NULL,
    tx_hash            BINARY(32) NOT NULL,
    log_index          INT UNSIGNED NOT NULL,
    PRIMARY KEY (chain_id, handle_hash, tx_hash, log_index)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE tip_agent_keys (
    chain_id           BIGINT UNSIGNED NOT NULL,
    agent_id           VARCHAR(78) NOT NULL,
    tx_hash            BINARY(32) NOT NULL,
    log_index          INT UNSIGNED NOT NULL,
    PRIMARY KEY (chain_id, agent_id, tx_hash, log_index)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

INSERT INTO tip_link_keys (chain_id, handle_hash, tx_hash, log_index)
SELECT chain_id, handle_hash, tx_hash, log_index FROM tip_events
WHERE event IN ('Linked', 'Relinked') AND handle_hash IS NOT NULL;

INSERT INTO tip_agent_keys (chain_id, agent_id, tx_hash, log_index)
SELECT chain_id, agent_id, tx_hash, log_index FROM tip_events
WHERE event IN ('AgentRegistered', 'AgentTransfer', 'AgentWalletSet') AND agent_id IS NOT NULL;

ALTER TABLE tip_events DROP KEY by_handle, DROP KEY by_agent;
