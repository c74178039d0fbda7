-- 014: a revision counter on profiles (docs/ARCHITECTURE.md, Wallet
-- profiles). A change of the discovery mode (PUT discovery) and a member's
-- confirmation of a link must not interleave: publishing checks that every
-- active member consented to the public policy, and confirming checks that
-- the mode is still the one the member's intent names. Each of the two
-- transactions increments revision on the profile's row, a real change
-- that holds the row's lock until commit on one server and puts the row in
-- both write sets on a Galera cluster, so one of two concurrent
-- transactions waits or is aborted (and retried by db_txn), and its rerun
-- sees what the other did.
ALTER TABLE profiles
    ADD COLUMN revision BIGINT UNSIGNED NOT NULL DEFAULT 0;
