#!/usr/bin/env bash
# A dense tips range comes in pieces (indexer/main.c, index_range): a
# thread reads the next piece from the node while the range's transaction
# stores this one. Through a JSON-RPC proxy that records the tips
# contract's eth_getLogs calls (t/tools/rpc-faults.mjs), over 2,000 events
# of the ten kinds in 20 blocks:
# - the first range is asked in four adjoining pieces, and the rows equal a
#   recomputation from the events;
# - while the third piece is held at the node, the range's transaction has
#   already stored the first two pieces' events (uncommitted); when that
#   piece then fails, the whole range is abandoned: none of its events,
#   no derived row, no checkpoint; the next run stores exactly the rows of
#   a clean run;
# - a node that refuses wide ranges gets the range halved, then pieces of
#   the narrower range, with the same rows in the end;
# - a reorg while the last piece is held (the second half of the events
#   replaced by another branch) is caught when that piece re-reads the
#   earlier pieces' blocks: the range is read again, and every stored
#   event carries its block's hash on the chain as it is now.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
export WAYMARK_SEED=0 WAYMARK_CONFIRMATIONS=0
chain_stack tippieces 150
"$top/tools/stack" indexer-stop

emit=$(node "$top/chain/bench-tips.mjs" --rpc "$RPC" --state "$STATE" --events 1000 --batch 100)
snap=$(rpc evm_snapshot '[]')     # between the halves: step 4 replaces the second
emit2=$(node "$top/chain/bench-tips.mjs" --rpc "$RPC" --state "$STATE" --events 1000 --batch 100)
from=$(jq -r .fromBlock <<<"$emit"); to=$(jq -r .toBlock <<<"$emit2")
is "$(jq -r .events <<<"$emit") $(jq -r .events <<<"$emit2")" "1000 1000" "2,000 tips events emitted (blocks $from-$to)"
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
	until grep -q listening "$WAYMARK_VAR/proxy.out" 2>/dev/null || [ $n -ge 500 ]; do n=$((n + 1)); sleep 0.02; done
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
is "$(awk -v f="$from" -v h="$head" '
	$3 != "ok" { bad = "a call " $3 } NR == 1 && $1 != f { bad = "first piece starts at " $1 }
	NR > 1 && $1 != prev + 1 { bad = "gap or overlap before " $1 } { prev = $2 }
	END { if (NR != 4) bad = NR " calls"; else if (prev != h) bad = "ends at " prev; print bad ? bad : "tiled" }' "$plog")" \
	tiled "the range $from-$head was asked in four adjoining pieces, and nothing else: $(awk '{ printf "%s-%s ", $1, $2 }' "$plog")"

# 2. The third piece is held at the node, then fails, as does every later call.
empty
release=$WAYMARK_VAR/release
rm -f "$release"
proxy --fail-from 3 --hold-at 3 --release "$release"
index 6 &
ix=$!
n=0; until grep -q held "$plog" || [ $n -ge 500 ]; do n=$((n + 1)); sleep 0.02; done
is "$(awk '{ printf "%s ", $3 }' "$plog")" "ok ok held " "the first two pieces fetched, the third held at the node"
modified() { sql "SELECT IFNULL(MAX(trx_rows_modified), 0) FROM information_schema.innodb_trx"; }
n=0; until [ "$(modified)" -ge 1000 ] || [ $n -ge 500 ]; do n=$((n + 1)); sleep 0.02; done
rows=$(modified)
ok $([ "$rows" -ge 1000 ] && echo 0 || echo 1) \
	"meanwhile the range's open transaction stored the first two pieces' events ($rows rows written, 1,000 events)"
is "$(sql "SELECT COUNT(*) FROM tip_events")" 0 "uncommitted: no other session sees them"
touch "$release"
wait "$ix"
is $? 124 "the indexer never caught up (every later call failed) and was stopped"
is "$(sql "SELECT COUNT(*) FROM tip_events")" 0 "the failed piece took the whole range with it: none of its events stay"
is "$(sql "SELECT (SELECT COUNT(*) FROM tips) + (SELECT COUNT(*) FROM handle_tip_stats) + (SELECT COUNT(*) FROM tip_link_keys)")" 0 \
	"and no derived row"
is "$(tips_cp)" "$((from - 1))" "and the tips checkpoint still before the range (block $((from - 1)))"
why=$(grep -v ' from block ' "$WAYMARK_VAR/index.err" | grep -m1 'tips: ')
like "$why" "tips: rpc: .*500" "the indexer says why the tips range failed: $why"
proxy
index 60; ok $? "the next run catches up"
is "$(sums)" "$clean" "and leaves exactly the rows of the clean run"

# 3. A node that refuses more than 4 blocks per call.
empty
proxy --max-span 4
index 60; ok $? "a run against a node refusing wide ranges catches up"
like "$(awk '{ printf "%s-%s:%s ", $1, $2, $3 }' "$plog")" "refused.* [0-9]+-[0-9]+:ok" \
	"pieces were refused, then narrower ones answered: $(awk '{ printf "%s-%s:%s ", $1, $2, $3 }' "$plog" | cut -c1-200)"
is "$(awk '$3 == "refused" { a[$1] = $2 - $1 } $3 == "ok" && ($1 in a) && $2 - $1 < a[$1] { halved++ }
	END { print (halved > 0 ? "halved" : "not halved") }' "$plog")" halved "a refused range was asked again from its first block, narrower"
is "$(sums)" "$clean" "the same rows as the clean run"
is "$(tips_diff)" "" "every derived table equals a recomputation from the events"

# 4. The last piece is held while the chain reorganises under the earlier ones.
empty
rm -f "$release"
proxy --hold-at 4 --release "$release"
index 60 &
ix=$!
n=0; until grep -q held "$plog" || [ $n -ge 500 ]; do n=$((n + 1)); sleep 0.02; done
is "$(awk '{ printf "%s ", $3 }' "$plog")" "ok ok ok held " "three pieces read, the last held"
is "$(rpc evm_revert "[$snap]")" true "the chain goes back to the first half"
node "$top/chain/bench-tips.mjs" --rpc "$RPC" --state "$STATE" --events 1000 --batch 100 >/dev/null
is "$(head_block)" "$head" "another branch of the second half, up to the same height"
touch "$release"
wait "$ix"; ok $? "the indexer catches up on the new branch"
like "$(grep -c 'chain changed while reading blocks' "$WAYMARK_VAR/index.err")" '^[1-9]' \
	"the last piece found an earlier piece's block replaced, and the range was read again"
chain_hashes() {
	local b
	for b in $(sql "SELECT DISTINCT block_number FROM tip_events ORDER BY 1"); do
		printf '%s\t%s\n' "$b" "$(rpc eth_getBlockByNumber "[\"$(printf '0x%x' "$b")\",false]" | jq -r .hash | cut -c3-)"
	done
}
is "$(sql "SELECT DISTINCT block_number, LOWER(HEX(block_hash)) FROM tip_events ORDER BY 1")" "$(chain_hashes)" \
	"every stored event carries its block's hash on the chain as it is now"
is "$(sql "SELECT COUNT(*) FROM tip_events")" 2000 "2,000 events: the first half and the new branch's"
is "$(tips_diff)" "" "every derived table equals a recomputation from the events"
done_testing
