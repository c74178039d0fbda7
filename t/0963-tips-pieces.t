#!/usr/bin/env bash
# A dense tips range comes in pieces (indexer/main.c, index_range): a
# thread reads the next piece from the node while the range's transaction
# stores this one. Through a JSON-RPC proxy that records the tips
# contract's eth_getLogs calls (t/tools/rpc-faults.mjs), over 2,000 events
# of the ten kinds in 20 blocks:
# - the first range is asked in four adjoining pieces, and the rows equal a
#   recomputation from the events;
# - a piece that cannot be fetched abandons the whole range: none of its
#   events, not even the earlier pieces' that were already stored in the
#   transaction, and no checkpoint; the next run stores exactly the rows of
#   a clean run;
# - a node that refuses wide ranges gets the range halved, then pieces of
#   the narrower range, with the same rows in the end.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
export WAYMARK_SEED=0 WAYMARK_CONFIRMATIONS=0
chain_stack tippieces 150
"$top/tools/stack" indexer-stop

emit=$(node "$top/chain/bench-tips.mjs" --rpc "$RPC" --state "$STATE" --events 2000 --batch 100)
from=$(jq -r .fromBlock <<<"$emit"); to=$(jq -r .toBlock <<<"$emit")
is "$(jq -r .events <<<"$emit")" 2000 "2,000 tips events emitted (blocks $from-$to)"
tipsaddr=$(jq -r .emitter <<<"$emit")
proxy_port=$((WAYMARK_TEST_PORT_BASE + 155))
plog=$WAYMARK_VAR/getlogs.log
proxy=
# proxy [ARGS...]: (re)start the proxy with these fault options, empty log.
proxy() {
	[ -z "$proxy" ] || { kill "$proxy"; wait "$proxy" 2>/dev/null; }
	: > "$plog"
	node "$top/t/tools/rpc-faults.mjs" --upstream "$RPC" --port "$proxy_port" --address "$tipsaddr" \
		--log "$plog" "$@" > "$WAYMARK_VAR/proxy.out" 2>> "$WAYMARK_VAR/log/proxy.log" &
	proxy=$!
	local n=0
	until grep -q listening "$WAYMARK_VAR/proxy.out" 2>/dev/null || [ $n -ge 100 ]; do n=$((n + 1)); sleep 0.1; done
}
trap '[ -z "$proxy" ] || kill "$proxy" 2>/dev/null; "$top/tools/stack" stop >/dev/null 2>&1' EXIT
# The indexer once through the proxy: every source from the first tips
# block, until caught up (-x) or for at most $1 seconds.
index() {
	WAYMARK_CONFIG=$WAYMARK_VAR/waymark.conf WAYMARK_RPC_URL=http://127.0.0.1:$proxy_port \
		WAYMARK_TIPS_ADDRESS=$tipsaddr WAYMARK_TIPS_START_BLOCK=$from WAYMARK_COMPANION_START_BLOCK=$from \
		WAYMARK_ATTESTATION_START_BLOCK=$from WAYMARK_IDENTITY_REGISTRY_START_BLOCK=$from \
		timeout "$1" "$WAYMARK_BUILD/waymark-indexer" -x > "$WAYMARK_VAR/index.out" 2> "$WAYMARK_VAR/index.err"
}
empty() {
	sql "TRUNCATE tip_events; TRUNCATE tips; TRUNCATE tip_attestations; TRUNCATE handle_links;
		TRUNCATE agents; TRUNCATE handle_tip_stats; TRUNCATE wallet_tip_stats; TRUNCATE tip_chain_stats;
		TRUNCATE tip_link_keys; TRUNCATE tip_agent_keys; TRUNCATE indexer_checkpoints; TRUNCATE indexer_blocks"
}
tables="tip_events, tips, tip_attestations, handle_links, agents, handle_tip_stats, wallet_tip_stats, tip_chain_stats, tip_link_keys, tip_agent_keys, handle_names"
sums() { sql "CHECKSUM TABLE $tables" | awk '{ printf "%s ", $2 }'; }
tips_cp() { sql "SELECT IFNULL(MAX(block_number), 'none') FROM indexer_checkpoints WHERE contract = UNHEX('${tipsaddr#0x}')"; }
head=$(head_block)

# 1. Clean: four pieces that tile the range.
empty
proxy
index 60; ok $? "a clean run indexes every block up to the head"
is "$(sql "SELECT COUNT(*) FROM tip_events")" 2000 "every event stored once"
is "$(tips_diff)" "" "every derived table equals a recomputation from the events"
clean=$(sums)
is "$(awk '$3 == "ok"' "$plog" | head -n4 | awk -v f="$from" -v h="$head" '
	NR == 1 && $1 != f { bad = "first piece starts at " $1 } NR > 1 && $1 != prev + 1 { bad = "gap before " $1 }
	$2 < $1 { bad = "empty piece" } { prev = $2; n++ } END { if (n != 4) bad = n " pieces"; else if (prev != h) bad = "ends at " prev; print bad ? bad : "tiled" }')" \
	tiled "the range $from-$head was asked in four adjoining pieces: $(head -n4 "$plog" | awk '{ printf "%s-%s ", $1, $2 }')"

# 2. The third piece cannot be fetched, nor anything after it.
empty
proxy --fail-from 3
index 3
is "$(sql "SELECT COUNT(*) FROM tip_events")" 0 "a piece that failed: none of the range's events stay, not even the first two pieces'"
is "$(sql "SELECT (SELECT COUNT(*) FROM tips) + (SELECT COUNT(*) FROM handle_tip_stats) + (SELECT COUNT(*) FROM tip_link_keys)")" 0 \
	"and no derived row"
is "$(tips_cp)" "$((from - 1))" "and the tips checkpoint still before the range (block $((from - 1)))"
cp "$WAYMARK_VAR/index.err" "$WAYMARK_VAR/index-failed.err"
why=$(grep -v ' from block ' "$WAYMARK_VAR/index.err" | grep -m1 'tips: ')
like "$why" "tips: rpc: .*500" "the indexer says why the tips range failed: $why"
is "$(awk 'NR <= 3 { printf "%s ", $3 }' "$plog")" "ok ok failed " "the first two pieces were fetched, the third failed"
proxy
index 60; ok $? "the next run catches up"
is "$(sums)" "$clean" "and leaves exactly the rows of the clean run"

# 3. A node that refuses more than 4 blocks per call.
empty
proxy --max-span 4
index 60; ok $? "a run against a node refusing wide ranges catches up"
like "$(awk '{ printf "%s-%s:%s ", $1, $2, $3 }' "$plog")" "refused.* [0-9]+-[0-9]+:ok" \
	"pieces were refused, then narrower ones answered: $(awk '{ printf "%s-%s:%s ", $1, $2, $3 }' "$plog" | cut -c1-200)"
is "$(awk '$3 == "ok" && $2 - $1 + 1 > 4' "$plog" | wc -l)" 0 "no answered call spans more than 4 blocks"
is "$(sums)" "$clean" "the same rows as the clean run"
is "$(tips_diff)" "" "every derived table equals a recomputation from the events"
done_testing
