#!/usr/bin/env bash
# SIGKILL the indexer in the middle of a backfill of 20,000 recognitions,
# twice; multiwatch starts it again and it resumes from its checkpoint:
# the same rows as the chain's logs, no duplicates, none missing.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
export WAYMARK_SEED=0 WAYMARK_CONFIRMATIONS=0
chain_stack crash 11
"$top/tools/stack" indexer-stop

emit=$(node "$top/chain/bench-emit.mjs" --rpc "$RPC" --state "$STATE" --events 20000)
from=$(jq -r .fromBlock <<<"$emit"); to=$(jq -r .toBlock <<<"$emit")
is "$(jq -r .events <<<"$emit")" 20000 "20,000 recognitions emitted (blocks $from-$to)"

# Point the indexer at the emitter, one block (500 events) per transaction.
export WAYMARK_COMPANION_ADDRESS=$(jq -r .emitter <<<"$emit")
export WAYMARK_COMPANION_START_BLOCK=$from WAYMARK_INDEXER_BLOCK_RANGE=1
sql "DELETE FROM indexer_checkpoints"
"$top/tools/stack" indexer-start
child() { pgrep -P "$(cat "$WAYMARK_VAR/run/indexer.pid")" | head -n1; }
kills=0
for target in $((from + 8)) $((from + 20)); do
	n=0; until [ "$(checkpoint)" -ge "$target" ] 2>/dev/null || [ $n -ge 200 ]; do n=$((n + 1)); sleep 0.05; done
	cp=$(checkpoint)
	if [ "$cp" -lt "$to" ]; then
		kill -KILL "$(child)" && kills=$((kills + 1))
		diag "SIGKILL at checkpoint $cp of $to"
		n=0; until [ -n "$(child)" ] || [ $n -ge 250 ]; do n=$((n + 1)); sleep 0.02; done
	fi
done
is "$kills" 2 "the indexer was killed twice in the middle of the backfill"
n=0; until [ "$(checkpoint)" -ge "$to" ] 2>/dev/null || [ $n -ge 4500 ]; do n=$((n + 1)); sleep 0.02; done
is "$(checkpoint)" "$to" "it resumed and reached the last block"

is "$(sql "SELECT COUNT(*) FROM routed_boons")" 20000 "exactly 20,000 rows"
is "$(sql "SELECT COUNT(*) FROM (SELECT DISTINCT tx_hash, log_index FROM routed_boons) d")" 20000 "no duplicates"
is "$(sql "SELECT COUNT(*) FROM (SELECT block_number FROM routed_boons GROUP BY block_number HAVING COUNT(*) <> 500) b")" 0 \
	"every block's 500 events are there"
rpc eth_getLogs "[{\"address\":\"$WAYMARK_COMPANION_ADDRESS\",\"fromBlock\":\"$(printf '0x%x' "$from")\",\"toBlock\":\"$(printf '0x%x' "$to")\"}]" |
	jq -r '.[] | "\(.transactionHash) \(.logIndex)"' | sort > "$WAYMARK_VAR/chain-logs"
sql "SELECT CONCAT('0x', LOWER(HEX(tx_hash))), CONCAT('0x', LOWER(HEX(log_index))) FROM routed_boons" |
	tr '\t' ' ' | sort > "$WAYMARK_VAR/db-rows"
is "$(wc -l < "$WAYMARK_VAR/chain-logs")" 20000 "the chain has 20,000 logs"
diff -q "$WAYMARK_VAR/chain-logs" "$WAYMARK_VAR/db-rows" >/dev/null
ok $? "the rows are exactly the chain's logs (transaction hash, log index)"
is "$(aggregate_diff)" "" "aggregates equal a recomputation from the rows"
is "$(sql "SELECT SUM(recognition_count), SUM(boon_burned) FROM route_recognition_stats" | tr '\t' ' ')" \
	"20000 2000000000000000000000000000" "aggregate counts and burn: 20,000 x 1e23"
done_testing
