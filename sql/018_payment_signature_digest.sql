-- 018: the digest of the signature each payment row was reserved with.
--
-- A payment whose row is settled (for a resumable paid publication) or of
-- unknown outcome is served again without the facilitator, on the chain's
-- word that its authorization was used. A contract wallet's signature is
-- not checked locally, so without this anyone who read (payer, nonce) off
-- the chain could present it with any signature and be served what the
-- payer paid for. Such a row now serves only the identical payment: the
-- same signature bytes (docs/ARCHITECTURE.md, Payment state machine).
-- Rows reserved before this migration have none and serve no one again.

ALTER TABLE x402_payments
    ADD COLUMN sig_digest BINARY(32) NULL AFTER auth_nonce;  -- SHA-256 of the signature bytes
