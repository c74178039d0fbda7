-- 008: the receipt_verified (V2) lane (docs/PROTOCOL.md, Review lanes) and
-- the evidence that pins a route's receipt authority.
--
-- catalog_resources.offer_signer: the recovered signer of an official x402
-- offer (extensions["offer-receipt"].info.offers[], format eip712) that the
-- catalog listing carried for this resource, matching its challenge's
-- network, scheme, asset, payTo and amount. NULL when the listing carried
-- none. See handlers/authority.c for how pins are chosen.
ALTER TABLE catalog_resources
    ADD COLUMN offer_signer BINARY(20) NULL AFTER pay_to;

-- reviews: a receipt_verified review keeps its receipt digest (each receipt
-- is used once), the public receipt record and the receipt authority pins
-- it was checked against, as recorded at publication (JSON). One review
-- per payer (= reviewer) and route, through a generated column that is
-- NULL in the other lanes.
ALTER TABLE reviews
    ADD COLUMN receipt_digest BINARY(32) NULL,
    ADD COLUMN receipt_json MEDIUMBLOB NULL,         -- the public receipt object
    ADD COLUMN evidence_json MEDIUMBLOB NULL,        -- {offer, receipt} exactly as received
    ADD COLUMN authority_json BLOB NULL,             -- the pins and where each came from
    ADD COLUMN receipt_reviewed_by BINARY(20)
        AS (IF(lane = 'receipt_verified', reviewer, NULL)) PERSISTENT,
    ADD UNIQUE KEY one_per_receipt (chain_id, receipt_digest),
    ADD UNIQUE KEY one_receipt_verified (chain_id, route_id, receipt_reviewed_by);

-- review_publications: a paid V2 publication holds its receipt digest from
-- the reservation on, so one receipt can never be charged for twice. Every
-- publication also keeps the complete review row it will write (checked
-- before any payment), so a settled_pending record can be finished by the
-- identical retry or by the scheduled task (`waymark publications-complete`)
-- with one INSERT ... SELECT, never from data the client sends again.
ALTER TABLE review_publications
    ADD COLUMN receipt_digest BINARY(32) NULL,
    ADD COLUMN review_text TEXT NULL,
    ADD COLUMN review_created_at BIGINT UNSIGNED NULL,
    ADD COLUMN signature VARBINARY(4096) NULL,
    ADD COLUMN signature_kind ENUM('eoa', 'erc1271') NULL,
    ADD COLUMN review_json MEDIUMBLOB NULL,
    ADD COLUMN receipt_json MEDIUMBLOB NULL,
    ADD COLUMN evidence_json MEDIUMBLOB NULL,
    ADD COLUMN authority_json BLOB NULL,
    ADD UNIQUE KEY publication_per_receipt (chain_id, receipt_digest);
