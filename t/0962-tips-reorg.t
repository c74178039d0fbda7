#!/usr/bin/env bash
# A reorg (anvil snapshot and revert, then other transactions) under the
# tip contracts: the orphaned claim, push, relink, agent wallet and agent
# tip disappear, the state goes back to what the canonical events imply
# (escrowed again, the first wallet, the owner as payout), and the new
# branch's tip is indexed.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
export WAYMARK_SEED=0 WAYMARK_CONFIRMATIONS=0
chain_stack tipreorg 126
W1=0x90F79bf6EB2c4f870365E785982E1f101E93b906
W2=0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65
OWNER=0x70997970C51812dc3A010C7d01b50e0d17dc79C8
lc() { tr 'A-F' 'a-f' <<<"${1#0x}"; }
q1() { sql "$1" | head -n1; }
settled() { wait_indexed "$(head_block)"; }

# Canonical throughout: an agent, an escrowed tip, the link.
tips register --from-key $KEY1 > /dev/null
tips tip --from-key $KEY7 --handle github:alice --amount 300000 --note kept > /dev/null
tips link --handle github:alice --wallet $W1 > /dev/null
settled
snap=$(rpc evm_snapshot '[]')

# The branch about to be orphaned.
old=$( { tips claim --handle github:alice
	tips tip --from-key $KEY8 --handle github:alice --amount 111111 --note orphan
	tips relink --handle github:alice --wallet $W2
	tips set-agent-wallet --from-key $KEY1 --agent 1 --wallet-key $KEY2
	tips tip-agent --from-key $KEY7 --agent 1 --amount 222222 --attest; } )
settled; ok $? "the soon-orphaned branch is indexed"
is "$(q1 "SELECT GROUP_CONCAT(CONCAT(tip_id, ':', status) ORDER BY tip_id) FROM tips")" "1:claimed,2:pushed,3:pushed" \
	"before the reorg: tip 1 claimed, tips 2 and 3 pushed"
is "$(q1 "SELECT LOWER(HEX(wallet)) FROM handle_links")" "$(lc $W2)" "before the reorg: alice relinked to W2"

is "$(rpc evm_revert "[$snap]")" true "chain reverted to the snapshot"
new=$(tips tip --from-key $KEY8 --handle x:zed --amount 150000 --note canonical)
rpc anvil_mine '["0x8"]' >/dev/null
n=0
until [ "$(q1 "SELECT COUNT(*) FROM tips WHERE handle = 'x:zed'")" = 1 ] && [ "$(checkpoint)" -ge "$(head_block)" ] ||
	[ $n -ge 500 ]; do n=$((n + 1)); sleep 0.02; done
is "$(q1 "SELECT GROUP_CONCAT(CONCAT(tip_id, ':', handle, ':', status) ORDER BY tip_id) FROM tips")" \
	"1:github:alice:escrowed,2:x:zed:escrowed" "after the reorg: tip 1 escrowed again, tip 2 is the canonical one"
gone=0
for tx in $(printf '%s\n' "$old" | jq -r .txHash); do
	[ "$(q1 "SELECT COUNT(*) FROM tip_events WHERE tx_hash = UNHEX('${tx#0x}')")" = 0 ] || gone=$((gone + 1))
done
is "$gone" 0 "no orphaned event is left"
is "$(q1 "SELECT CONCAT(LOWER(HEX(wallet)), ' ', relinks) FROM handle_links")" "$(lc $W1) 0" "alice is linked to W1 again"
is "$(q1 "SELECT CONCAT(LOWER(HEX(owner)), ' ', LOWER(HEX(agent_wallet)), ' ', LOWER(HEX(payout_wallet))) FROM agents")" \
	"$(lc $OWNER) $(lc $OWNER) $(lc $OWNER)" "the agent wallet is the owner again"
is "$(q1 "SELECT COUNT(*) FROM tip_attestations")" 0 "the orphaned attestation is gone"
is "$(q1 "SELECT CONCAT(escrowed_count, ' ', claimed_count, ' ', escrowed_usdc) FROM handle_tip_stats WHERE handle = 'github:alice'")" \
	"1 0 300000" "alice's totals are back to one escrowed tip"
is "$(q1 "SELECT CONCAT(tips, ' ', attestations) FROM tip_chain_stats")" "2 0" "the chain totals count the canonical tips only"
is "$(tips_diff)" "" "every derived table equals a recomputation from the remaining events"
is "$(q1 "SELECT CONCAT((SELECT COUNT(*) FROM tip_link_keys), ' ', (SELECT COUNT(*) FROM tip_events WHERE event IN ('Linked', 'Relinked')),
	' ', (SELECT COUNT(*) FROM tip_agent_keys), ' ', (SELECT COUNT(*) FROM tip_events WHERE event LIKE 'Agent%'),
	' ', (SELECT COUNT(*) FROM tip_link_keys k LEFT JOIN tip_events e ON e.chain_id = k.chain_id AND e.tx_hash = k.tx_hash
	AND e.log_index = k.log_index WHERE e.tx_hash IS NULL))")" "1 1 2 2 0" \
	"the orphaned relink and agent wallet took their keys with them: one key per remaining link and agent event"
grep -q 'reorg: blocks above .* tips events' "$WAYMARK_VAR/log/indexer.log"; ok $? "the indexer logged the reorg of the tips contract"
done_testing
