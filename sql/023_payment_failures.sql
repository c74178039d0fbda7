-- 023: failed payment attempts per client address and minute (lib/paymeter.h).
--
-- A payment that is malformed or wrongly signed, or that the facilitator's
-- /verify refuses, counts against the address that sent it (IPv4, or the
-- /64 of an IPv6 address); past payment_failures_per_min in the current
-- minute, that address's paid requests get 429 before
-- any facilitator call, so junk payments cannot spend the operator's
-- facilitator quota or grow x402_payments without bound. One upsert per
-- failure on the row's key; payments-reconcile deletes minutes past.
CREATE TABLE payment_failures (
    client     VARBINARY(16) NOT NULL,          -- the address's bytes (IPv6: its /64)
    minute     BIGINT UNSIGNED NOT NULL,        -- Unix time / 60
    failures   INT UNSIGNED NOT NULL,
    PRIMARY KEY (client, minute)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
