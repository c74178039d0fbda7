-- 024: several catalogs (catalog_urls, docs/PROTOCOL.md, Network catalog).
-- Each configured source has a row of its own; a run reads its source into
-- catalog_stage and applies it only once the source was read to its end, so
-- a failed or partial run changes nothing of that source. A route listed by
-- several sources is one catalog_resources row with a catalog_listings row
-- per source (first and last seen); a listing missing from three complete
-- runs of its source in a row is retired. Refused listings keep their
-- reasons per run (catalog_refusals), read for the source's last complete run.
CREATE TABLE catalog_sources (
    source_id         INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    url_key           BINARY(32) NOT NULL,           -- keccak256(source_url): unique as a key
    source_url        VARCHAR(2048) NOT NULL,
    added_at          DATETIME NOT NULL,
    UNIQUE KEY by_url (url_key)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

ALTER TABLE catalog_syncs
    ADD COLUMN source_id INT UNSIGNED NULL AFTER generation,
    ADD COLUMN items_retired INT UNSIGNED NOT NULL DEFAULT 0 AFTER items_rejected,
    MODIFY COLUMN status ENUM('running', 'applying', 'complete', 'failed') NOT NULL,
    ADD KEY by_source (source_id, status, generation);

-- What the served Bazaar item needs besides the columns of 004: the item as
-- this service serves it again (GET /discovery/resources: resource, type,
-- x402Version, accepts, lastUpdated, description, serviceName, tags,
-- extensions; bounded and cleaned at sync), the filters' facts, and the
-- words of its tags and its Bazaar input/output fields for the ranking.
ALTER TABLE catalog_resources
    ADD COLUMN item_json MEDIUMTEXT NULL,
    ADD COLUMN schemes VARCHAR(200) NOT NULL DEFAULT '',      -- the accepts entries' schemes, comma-separated
    ADD COLUMN networks VARCHAR(600) NOT NULL DEFAULT '',     -- their networks (CAIP-2), comma-separated
    ADD COLUMN pay_tos VARCHAR(600) NOT NULL DEFAULT '',      -- their payTo addresses, lower case, comma-separated
    ADD COLUMN extension_keys VARCHAR(300) NOT NULL DEFAULT '', -- the item's extension keys, comma-separated
    ADD COLUMN tags_text VARCHAR(600) NOT NULL DEFAULT '',    -- tags, space-separated
    ADD COLUMN fields_text VARCHAR(2000) NOT NULL DEFAULT ''; -- Bazaar input/output field names and descriptions

CREATE TABLE catalog_listings (
    source_id         INT UNSIGNED NOT NULL,
    item_key          BINARY(32) NOT NULL,
    first_seen        DATETIME NOT NULL,
    last_seen         DATETIME NOT NULL,
    seen_gen          BIGINT UNSIGNED NOT NULL,      -- the last complete run of the source that listed it
    PRIMARY KEY (source_id, item_key),
    KEY by_item (item_key),
    KEY by_seen (source_id, seen_gen)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE catalog_stage (
    generation        BIGINT UNSIGNED NOT NULL,
    item_key          BINARY(32) NOT NULL,
    resource_url      VARCHAR(2048) NOT NULL,
    method            VARCHAR(16) NOT NULL,
    route_id          BINARY(32) NULL,
    description       VARCHAR(1000) NOT NULL,
    service_name      VARCHAR(160) NOT NULL,
    network           VARCHAR(64) NOT NULL,
    asset             VARCHAR(64) NOT NULL,
    pay_to            VARCHAR(64) NOT NULL,
    offer_signer      BINARY(20) NULL,
    amount_atomic     VARCHAR(80) NOT NULL,
    price_usdc        VARCHAR(80) NULL,
    x402_version      TINYINT UNSIGNED NOT NULL,
    last_updated      VARCHAR(40) NOT NULL,
    search_text       TEXT COLLATE utf8mb4_unicode_ci NOT NULL,
    item_json         MEDIUMTEXT NOT NULL,
    schemes           VARCHAR(200) NOT NULL,
    networks          VARCHAR(600) NOT NULL,
    pay_tos           VARCHAR(600) NOT NULL,
    extension_keys    VARCHAR(300) NOT NULL,
    tags_text         VARCHAR(600) NOT NULL,
    fields_text       VARCHAR(2000) NOT NULL,
    PRIMARY KEY (generation, item_key)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE catalog_refusals (
    generation        BIGINT UNSIGNED NOT NULL,
    seq               INT UNSIGNED NOT NULL,         -- the item's position in the source's listing
    resource_url      VARCHAR(300) NOT NULL,         -- as listed, cut; '' when none
    reason_code       VARCHAR(32) NOT NULL,
    reason            VARCHAR(200) NOT NULL,
    PRIMARY KEY (generation, seq)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
