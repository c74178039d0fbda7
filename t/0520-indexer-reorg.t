#!/usr/bin/env bash
# A reorg (anvil snapshot and revert, then different transactions) removes
# the orphaned rows and indexes the canonical ones.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
export WAYMARK_SEED=0 WAYMARK_CONFIRMATIONS=0
chain_stack reorg 12

# A first recognition that stays canonical.
keep=$(send --from-key $KEY8 --route $ROUTE_2 --endpoint $PAY_B --endpoint-usdc 42)
snap=$(rpc evm_snapshot '[]')
old=$(send --from-key $KEY7 --route $ROUTE_1 --endpoint $PAY_A --endpoint-usdc 250000 --count 3)
last=$(printf '%s\n' "$old" | jq -s 'map(.blockNumber) | max')
wait_indexed "$last"; ok $? "three recognitions on the soon-orphaned branch are indexed"
is "$(sql "SELECT COUNT(*) FROM routed_boons")" 4 "4 rows before the reorg"

is "$(rpc evm_revert "[$snap]")" true "chain reverted to the snapshot"
new=$(send --from-key $KEY8 --route $ROUTE_1 --endpoint $PAY_A --endpoint-usdc 999 --count 2)
rpc anvil_mine '["0x4"]' >/dev/null
nlast=$(printf '%s\n' "$new" | jq -s 'map(.blockNumber) | max')
n=0
until [ "$(sql "SELECT COUNT(*) FROM routed_boons")" = 3 ] && [ "$(checkpoint)" -ge "$nlast" ] || [ $n -ge 500 ]; do
	n=$((n + 1)); sleep 0.02
done
is "$(sql "SELECT COUNT(*) FROM routed_boons")" 3 "after the reorg: the kept row and the 2 canonical ones"
gone=0
for tx in $(printf '%s\n' "$old" | jq -r .txHash); do
	[ "$(sql "SELECT COUNT(*) FROM routed_boons WHERE tx_hash = UNHEX('${tx#0x}')")" = 0 ] || gone=$((gone + 1))
done
is "$gone" 0 "no orphaned recognition is left"
present=0
for tx in $(printf '%s\n' "$new" "$keep" | jq -r .txHash); do
	[ "$(sql "SELECT COUNT(*) FROM routed_boons WHERE tx_hash = UNHEX('${tx#0x}')")" = 1 ] && present=$((present + 1))
done
is "$present" 3 "every canonical recognition is indexed"
is "$(sql "SELECT endpoint_usdc FROM route_recognition_stats WHERE route_id = UNHEX('${ROUTE_1#0x}')")" 1998 \
	"route 1's aggregate reflects only the canonical branch"
is "$(aggregate_diff)" "" "aggregates equal a recomputation from the rows"
grep -q 'reorg: blocks above' "$WAYMARK_VAR/log/indexer.log"; ok $? "the indexer logged the reorg"
done_testing
