-- 015: the board's order (docs/ARCHITECTURE.md, Handle reads and the
-- board). Recipients rank by distinct tippers, then tips received;
-- tippers by distinct handles tipped, then tips sent; ties by the key,
-- all descending, so each list is a short backward scan of one index
-- whatever the number of tips.
ALTER TABLE handle_tip_stats
    ADD KEY by_board (chain_id, tipper_count, tips_received, handle_hash);
ALTER TABLE wallet_tip_stats
    ADD KEY by_board (chain_id, handles_tipped, tips_sent, wallet);
