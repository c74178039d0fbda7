#!/usr/bin/env bash
# SIGKILL the indexer in the middle of a backfill of 10,000 mixed tips
# events (all ten kinds, chain/contracts/TipBenchEmitter.sol), twice;
# multiwatch starts it again and it resumes from its checkpoints: the same
# rows as the chain's logs, none twice, none missing, and every derived
# table equal to a recomputation from them. Then a malformed log stops the
# tips source alone: /health says so, routed recognitions go on.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
export WAYMARK_SEED=0 WAYMARK_CONFIRMATIONS=0
chain_stack tipcrash 123
"$top/tools/stack" indexer-stop
# The indexer reads the chain through a proxy that holds each call 30 ms
# while the kills are due, so a loaded machine cannot let the backfill end
# between two looks at its checkpoint (then there would be no second kill).
rpc_record $((WAYMARK_TEST_PORT_BASE + 124)); ok $? "the RPC proxy listens"
trap 'kill $RECORD_PID 2>/dev/null; "$top/tools/stack" stop >/dev/null 2>&1' EXIT
rpc_delay 30

emit=$(node "$top/chain/bench-tips.mjs" --rpc "$RPC" --state "$STATE" --events 10000)
from=$(jq -r .fromBlock <<<"$emit"); to=$(jq -r .toBlock <<<"$emit")
is "$(jq -r .events <<<"$emit")" 10000 "10,000 tips events emitted (blocks $from-$to)"

# The emitter as the tips contract, one block (500 events) per transaction.
export WAYMARK_TIPS_ADDRESS=$(jq -r .emitter <<<"$emit")
export WAYMARK_TIPS_START_BLOCK=$from WAYMARK_INDEXER_BLOCK_RANGE=1
sql "DELETE FROM indexer_checkpoints"
WAYMARK_RPC_URL=$RECORD_URL "$top/tools/stack" indexer-start
child() { pgrep -P "$(cat "$WAYMARK_VAR/run/indexer.pid")" | head -n1; }
tips_cp() { sql "SELECT block_number FROM indexer_checkpoints WHERE contract = UNHEX('${WAYMARK_TIPS_ADDRESS#0x}')"; }
kills=0
for target in $((from + 5)) $((from + 12)); do
	n=0; until [ "$(tips_cp)" -ge "$target" ] 2>/dev/null || [ $n -ge 300 ]; do n=$((n + 1)); sleep 0.05; done
	cp=$(tips_cp)
	if [ "$cp" -lt "$to" ]; then
		kill -KILL "$(child)" && kills=$((kills + 1))
		diag "SIGKILL at tips checkpoint $cp of $to"
		n=0; until [ -n "$(child)" ] || [ $n -ge 250 ]; do n=$((n + 1)); sleep 0.02; done
	fi
done
is "$kills" 2 "the indexer was killed twice in the middle of the backfill"
rpc_delay 0
n=0; until [ "$(tips_cp)" -ge "$to" ] 2>/dev/null || [ $n -ge 4500 ]; do n=$((n + 1)); sleep 0.02; done
is "$(tips_cp)" "$to" "it resumed and reached the last block"

is "$(sql "SELECT COUNT(*) FROM tip_events")" 10000 "exactly 10,000 rows"
is "$(sql "SELECT COUNT(*) FROM (SELECT DISTINCT tx_hash, log_index FROM tip_events) d")" 10000 "no duplicates"
rpc eth_getLogs "[{\"address\":\"$WAYMARK_TIPS_ADDRESS\",\"fromBlock\":\"$(printf '0x%x' "$from")\",\"toBlock\":\"$(printf '0x%x' "$to")\"}]" |
	jq -r '.[] | "\(.transactionHash) \(.logIndex)"' | sort > "$WAYMARK_VAR/chain-logs"
sql "SELECT CONCAT('0x', LOWER(HEX(tx_hash))), CONCAT('0x', LOWER(HEX(log_index))) FROM tip_events" |
	tr '\t' ' ' | sort > "$WAYMARK_VAR/db-rows"
is "$(wc -l < "$WAYMARK_VAR/chain-logs")" 10000 "the chain has 10,000 logs"
diff -q "$WAYMARK_VAR/chain-logs" "$WAYMARK_VAR/db-rows" >/dev/null
ok $? "the rows are exactly the chain's logs (transaction hash, log index)"
is "$(sql "SELECT GROUP_CONCAT(CONCAT(event, ':', n) ORDER BY event) FROM (SELECT event, COUNT(*) n FROM tip_events GROUP BY event) x")" \
	"Tip:1000,TipEscrowed:1000,TipAgent:1000,PrivateTip:1000,PrivateTipEscrowed:1000,EscrowedClaimed:1000,EscrowedRefunded:1000,DeferredAttestationMinted:1000,Linked:1000,Relinked:1000" \
	"1,000 of each of the ten events"
is "$(sql "SELECT GROUP_CONCAT(CONCAT(status, ':', n) ORDER BY status) FROM (SELECT status, COUNT(*) n FROM tips GROUP BY status) x")" \
	"pushed:3000,claimed:1000,refunded:1000" "5,000 tips: 3,000 pushed, 1,000 claimed, 1,000 refunded"
is "$(tips_diff)" "" "every derived table equals a recomputation from the events (and no private amount is kept)"

# A log with Tip's topic0 and a topic missing: the tips source stops before
# it and says why; the companion's source goes on.
bad=$(node "$top/chain/bench-tips.mjs" --rpc "$RPC" --state "$STATE" --malformed)
bb=$(jq -r .blockNumber <<<"$bad")
one=$(send --from-key $KEY7 --route $ROUTE_1 --endpoint $PAY_A --endpoint-usdc 5)
n=0; until [ "$(sql "SELECT COUNT(*) FROM routed_boons")" = 1 ] || [ $n -ge 500 ]; do n=$((n + 1)); sleep 0.02; done
is "$(sql "SELECT COUNT(*) FROM routed_boons")" 1 "a routed recognition after the malformed log is indexed"
n=0; until [ "$(curl -s "$URL/health" | jq -r .indexer.status)" = retrying ] || [ $n -ge 500 ]; do n=$((n + 1)); sleep 0.02; done
h=$(curl -s "$URL/health")
is "$(jq -r .indexer.status <<<"$h")" retrying "/health: the indexer is retrying"
like "$(jq -r .indexer.lastError <<<"$h")" '^tips: .*Tip has 3 topics' "/health names the tips source and the broken log"
is "$(tips_cp)" "$((bb - 1))" "the tips checkpoint stays just below the malformed log's block"
is "$(sql "SELECT COUNT(*) FROM tip_events")" 10000 "nothing of the malformed log is stored"
done_testing
