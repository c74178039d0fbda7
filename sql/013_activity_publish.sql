-- 013: what publishing a fact and attaching an activity review keep besides
-- the fact and the review (docs/ARCHITECTURE.md, Profile activity). Only
-- added NULL-able columns, so workers of the previous version keep running.
--   profile_activity, activity_reviews: the sign-in proof that published
--     the row: its EIP-191 digest and the kind of signature check (never
--     the proof itself);
--   activity_reviews.statement_json: the exact statement the wallet signed
--     (its canonical JSON, whose SHA-256 is `digest` and was the Request ID
--     of that proof).
ALTER TABLE profile_activity
    ADD COLUMN proof_digest    BINARY(32) NULL,
    ADD COLUMN signature_kind  ENUM('eoa', 'erc1271', 'erc6492') NULL;

ALTER TABLE activity_reviews
    ADD COLUMN statement_json  MEDIUMTEXT NULL CHECK (statement_json IS NULL OR JSON_VALID(statement_json)),
    ADD COLUMN proof_digest    BINARY(32) NULL,
    ADD COLUMN signature_kind  ENUM('eoa', 'erc1271', 'erc6492') NULL;
