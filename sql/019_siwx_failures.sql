-- 019: failed proofs per sign-in challenge.
--
-- A proof whose signature does not verify leaves its challenge usable, so a
-- wallet that mistyped can try again; but only SIWXSTORE_MAX_FAILURES times
-- (lib/siwxstore.h): then the challenge is burned, and guessing against one
-- challenge stops there.

ALTER TABLE siwx_challenges
    ADD COLUMN failures TINYINT UNSIGNED NOT NULL DEFAULT 0 AFTER used_at;
