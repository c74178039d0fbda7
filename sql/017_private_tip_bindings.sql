-- 017: private tips, from review (docs/PROTOCOL.md, Private tips). A blob
-- belongs to the earliest indexed tip that carries its commitment: another
-- tip that copies a commitment from the chain reveals nothing. That rule,
-- and the prune of unused blobs, look tips up by commitment. A withdrawn
-- disclosure is final (its row says so), so no table of spent signatures
-- is kept: a signature can be encoded more than one way.
ALTER TABLE tips ADD KEY by_commitment (chain_id, private_commitment, tip_id);
DROP TABLE tip_disclosure_spent;
ALTER TABLE tip_disclosures DROP COLUMN disclose_sig;
