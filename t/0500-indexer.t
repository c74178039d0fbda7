#!/usr/bin/env bash
# The indexer on a real anvil with the real companion contract: N
# recognitions sent, exactly N rows with every field right, only past the
# confirmation depth, aggregates equal to a recomputation from the rows,
# and /health reporting the indexed block, the head and the lag.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
export WAYMARK_CONFIRMATIONS=3 WAYMARK_SEED=0
chain_stack indexer 10
ok $? "a stack with a local chain starts"

base=$(sql "SELECT COUNT(*) FROM routed_boons")
is "$base" 0 "no recognitions before any are sent"

# Seven recognitions: two tippers, two routes, endpoint-only and with network.
out=$( { send --from-key $KEY7 --route $ROUTE_1 --endpoint $PAY_A --endpoint-usdc 250000 --count 3
	send --from-key $KEY8 --route $ROUTE_1 --endpoint $PAY_A --endpoint-usdc 10000 --network $NET_C --network-usdc 5000 --count 2
	send --from-key $KEY8 --route $ROUTE_2 --endpoint $PAY_B --endpoint-usdc 1 --count 1
	send --from-key $KEY7 --route $ROUTE_2 --network $NET_C --network-usdc 777 --count 1; } )
is "$(printf '%s\n' "$out" | grep -c txHash)" 7 "seven recognitions sent"
last=$(printf '%s\n' "$out" | jq -s 'map(.blockNumber) | max')

# Confirmations: with 3 required, recognitions in the last 3 blocks wait.
# Nothing mines meanwhile, so the indexer stops at head - 3: wait for that.
head=$(head_block)
wait_indexed $((head - 3)); ok $? "the checkpoint reaches block $((head - 3)), 3 below the head"
deep=$(printf '%s\n' "$out" | jq -s --argjson h "$head" 'map(select(.blockNumber <= $h - 3)) | length')
below=$(sql "SELECT COUNT(*) FROM routed_boons")
is "$below" "$deep" "only recognitions 3+ blocks below the head ($head) are indexed ($deep of 7)"
ok $([ "$deep" -lt 7 ] && echo 0 || echo 1) "so some recognitions are still waiting"
lag=$(curl -s "$URL/health" | jq .indexer.lag)
ok $([ "$lag" -ge 3 ] && echo 0 || echo 1) "/health reports the lag ($lag blocks)"
rpc anvil_mine '["0x3"]' >/dev/null
wait_indexed "$last"; ok $? "after 3 more blocks the checkpoint reaches block $last"
is "$(sql "SELECT COUNT(*) FROM routed_boons")" 7 "exactly 7 rows"

# Every row equals what the chain reported for it.
mismatch=0
while IFS= read -r line; do
	tx=$(jq -r .txHash <<<"$line"); li=$(jq -r .logIndex <<<"$line")
	want=$(jq -r '[.blockNumber, .blockHash, .routeId, .tipper, .contextRef, .endpointPayTo,
		.endpointGratuityUsdc, .networkPayTo, .networkGratuityUsdc, .boonBurned] | map(tostring | ascii_downcase) | join(" ")' <<<"$line")
	got=$(sql "SELECT block_number, CONCAT('0x', LOWER(HEX(block_hash))), CONCAT('0x', LOWER(HEX(route_id))),
		CONCAT('0x', LOWER(HEX(tipper))), CONCAT('0x', LOWER(HEX(context_ref))), CONCAT('0x', LOWER(HEX(endpoint_pay_to))),
		endpoint_usdc, CONCAT('0x', LOWER(HEX(network_pay_to))), network_usdc, boon_burned
		FROM routed_boons WHERE tx_hash = UNHEX('${tx#0x}') AND log_index = $li" | tr '\t' ' ')
	if [ "$got" != "$want" ]; then mismatch=$((mismatch + 1)); diag "tx $tx: got '$got' want '$want'"; fi
done < <(printf '%s\n' "$out" | grep txHash)
is "$mismatch" 0 "every row has the route, tipper, context, recipients, amounts and burn sent"
is "$(sql "SELECT COUNT(*) FROM routed_boons WHERE boon_burned <> 100000000000000000000000")" 0 \
	"every recognition burned exactly 100000 BOON (1e23 units)"
times=$(sql "SELECT COUNT(*) FROM routed_boons WHERE block_time < UNIX_TIMESTAMP() - 3600 OR block_time > UNIX_TIMESTAMP() + 60")
is "$times" 0 "block timestamps are recorded"

# Aggregates.
is "$(aggregate_diff)" "" "route and wallet aggregates equal a recomputation from the rows"
r1=$(sql "SELECT recognition_count, tipper_count, endpoint_usdc, network_usdc, total_usdc, boon_burned
	FROM route_recognition_stats WHERE route_id = UNHEX('${ROUTE_1#0x}')" | tr '\t' ' ')
is "$r1" "5 2 770000 10000 780000 500000000000000000000000" "route 1: 5 recognitions, 2 tippers, the USDC totals, the burn"
r2=$(sql "SELECT recognition_count, endpoint_usdc, network_usdc FROM route_recognition_stats WHERE route_id = UNHEX('${ROUTE_2#0x}')" | tr '\t' ' ')
is "$r2" "2 1 777" "route 2: endpoint-only and network-only recognitions"
roles=$(sql "SELECT CONCAT(LOWER(HEX(wallet)), ':', role, ':', recognition_count) FROM wallet_roles
	WHERE wallet IN (UNHEX('${PAY_A#0x}'), UNHEX('${PAY_B#0x}'), UNHEX('${NET_C#0x}')) ORDER BY wallet, role" | tr '\n' ' ')
is "$roles" "${PAY_A#0x}:endpoint:5 ${PAY_B#0x}:endpoint:1 ${NET_C#0x}:network:3 " \
	"wallet roles: funded endpoint and network payTo wallets (an unfunded payTo has no role)"

# Idempotence: the indexer restarted from an older checkpoint adds nothing.
"$top/tools/stack" indexer-stop
sql "UPDATE indexer_checkpoints SET block_number = block_number - 8, block_hash = NULL"
"$top/tools/stack" indexer-start
wait_indexed "$last"
sleep 0.5
is "$(sql "SELECT COUNT(*) FROM routed_boons")" 7 "re-reading indexed blocks adds no duplicates"
is "$(aggregate_diff)" "" "aggregates still consistent"

h=$(curl -s "$URL/health")
is "$(jq -r .indexer.status <<<"$h")" running "/health: indexer running"
is "$(jq -r .indexer.indexedBlock <<<"$h")" "$(checkpoint)" "/health: indexed block"
ok $([ "$(jq -r .indexer.chainHead <<<"$h")" -ge "$last" ] && echo 0 || echo 1) "/health: chain head"
done_testing
