-- 022: one authorization, one rail, one body; grants of paid private-tip
-- unlocks (docs/ARCHITECTURE.md, Payment state machine).
--
-- rail and body_digest bind a payment row to how it was first presented:
-- the rail that carried it (x402's PAYMENT-SIGNATURE or MPP's
-- Authorization: Payment) and the SHA-256 of the request body. The same
-- authorization on the other rail, or with another body, is refused from
-- the row before any facilitator call, so an MPP credential (whose
-- challenge binds the body) cannot be re-wrapped as an x402 header to pay
-- for a body of someone else's choosing. valid_before is the
-- authorization's own: reconciliation checks refused rows against the
-- chain while it may still land, and expires open rows past it. Rows
-- written before this migration have NULLs and keep their old meaning.
--
-- A settlement known only from the chain (reason late_settled) serves the
-- identical public request again until an hour past valid_before: its header can be
-- rebuilt from the transfer's calldata, so a third party can at most read
-- what the payer bought, and the payer is never refused.
ALTER TABLE x402_payments
    ADD COLUMN rail ENUM('x402', 'mpp') NULL AFTER sig_digest,
    ADD COLUMN body_digest BINARY(32) NULL AFTER rail,     -- SHA-256 of the request body
    ADD COLUMN valid_before BIGINT UNSIGNED NULL AFTER body_digest;  -- Unix seconds

-- A paid unlock of a private tip: the paying wallet (the authorization's
-- from) may read that tip by its own PrivateTipUnlock signature, free,
-- once the payment (payer, auth_nonce) is settled, whichever path settled
-- it (the request itself, the chain on a retry, payments-reconcile). The
-- row is written by the paid handler before settlement, and counts only
-- while the ledger row says settled.
CREATE TABLE private_tip_grants (
    payer        BINARY(20) NOT NULL,            -- x402_payments.payer
    auth_nonce   BINARY(32) NOT NULL,            -- x402_payments.auth_nonce
    chain_id     BIGINT UNSIGNED NOT NULL,
    tip_id       BIGINT UNSIGNED NOT NULL,
    created_at   DATETIME(6) NOT NULL,           -- UTC
    PRIMARY KEY (payer, auth_nonce),
    KEY by_tip (chain_id, tip_id, payer)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
