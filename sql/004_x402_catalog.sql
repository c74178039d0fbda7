-- 004: the x402 network catalog: endpoints listed by a Bazaar-compatible
-- discovery API (catalog_url), synced by `waymark catalog-sync`. Untrusted
-- data: stored bounded, shown as given, never fetched further.
CREATE TABLE catalog_resources (
    item_key          BINARY(32) NOT NULL,         -- keccak256(method "\n" resource URL)
    resource_url      VARCHAR(2048) NOT NULL,
    method            VARCHAR(16) NOT NULL,        -- '' when the listing does not say
    route_id          BINARY(32) NULL,             -- set when method and URL give a route ID
    description       VARCHAR(1000) NOT NULL,
    service_name      VARCHAR(160) NOT NULL,
    network           VARCHAR(64) NOT NULL,
    asset             VARCHAR(64) NOT NULL,
    pay_to            VARCHAR(64) NOT NULL,
    amount_atomic     VARCHAR(80) NOT NULL,        -- as listed; '' when none
    price_usdc        VARCHAR(80) NULL,            -- display amount when the asset is USDC of the network
    x402_version      TINYINT UNSIGNED NOT NULL,
    last_updated      VARCHAR(40) NOT NULL,        -- as listed (ISO 8601 or Unix seconds)
    generation        BIGINT UNSIGNED NOT NULL,
    synced_at         DATETIME NOT NULL,
    search_text       TEXT COLLATE utf8mb4_unicode_ci NOT NULL, -- service name, description, URL
    PRIMARY KEY (item_key),
    KEY by_route (route_id),
    KEY by_generation (generation)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE catalog_syncs (
    generation        BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    source_url        VARCHAR(2048) NOT NULL,
    started_at        DATETIME NOT NULL,
    finished_at       DATETIME NULL,
    pages             INT UNSIGNED NOT NULL DEFAULT 0,
    items_seen        INT UNSIGNED NOT NULL DEFAULT 0,
    items_stored      INT UNSIGNED NOT NULL DEFAULT 0,
    items_rejected    INT UNSIGNED NOT NULL DEFAULT 0,
    status            ENUM('running', 'complete', 'failed') NOT NULL,
    error             VARCHAR(300) NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
