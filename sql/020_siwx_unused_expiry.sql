-- 020: a way to the unused sign-in challenges by their expiry.
--
-- Every request to a sign-in row without a proof issues a challenge, so an
-- unauthenticated caller can make rows. An unused challenge that expired
-- can never be used again (the accepting UPDATE requires an unexpired row),
-- so it is deleted soon after its expiry instead of a day after
-- (lib/siwxstore.h, siwxstore_prune); this key finds those rows without
-- walking the used ones, which are kept a day. Only a key is added:
-- workers of the previous version keep running.
ALTER TABLE siwx_challenges
    ADD KEY unused_by_expiry (used_at, expires_at);
