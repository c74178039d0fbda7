#!/usr/bin/env bash
# The indexer holder SIGKILLed (issue 29, Must show): of the two hosts'
# indexers, the one holding the lease row (indexer_lease, its holder the
# host's indexer_id) is killed while recognitions keep coming; the standby
# on the other host takes the lease over (after the lease lapses: the time
# is printed, not asserted) and indexes what came meanwhile. Every
# recognition sent is indexed exactly once (one routed_boons row per event,
# the aggregates recomputed from the rows match, t/lib/chain.sh
# aggregate_diff), with no gap. The killed one, started again, stands by.
. "$(dirname "$0")/../lib/cluster-test.sh"
tmp=$(mktemp -d)
down=   # the host whose indexer this test killed and has not started again
trap '[ -z "$down" ] || "$cl" start-indexer "$down" >/dev/null 2>&1; rm -rf "$tmp"' EXIT

holder() { sql "SELECT holder FROM indexer_lease WHERE expires_at > UTC_TIMESTAMP(3)"; }
term() { sql "SELECT term FROM indexer_lease"; }
held() { [ -n "$(holder)" ]; }
poll held; ok $? "an indexer holds the lease ($(holder))"
H=$(holder); H=${H#host-}
case $H in a) O=b ;; b) O=a ;; *) echo "Bail out! the lease holder '$(holder)' names no worker host"; exit 1 ;; esac
t0=$(term)

ROUTE=$(printf '0x%s' "$(printf 'cluster indexer %s' "$$" | sha256sum | cut -c1-64)")
: > "$tmp/sent"
# batch N: N recognitions of ROUTE by anvil #7, recorded in $tmp/sent
batch() { send --from-key "$KEY7" --route "$ROUTE" --endpoint "$PAY_A" --endpoint-usdc 1000 --count "$1" >> "$tmp/sent"; }
# Blocks on top, so the last recognition is deeper than the confirmation depth.
bury() { local i; for i in $(seq "$("$WAYMARK_BUILD/waymark" -c "$CLUSTER_CONF" config get confirmations)"); do rpc evm_mine '[]' >/dev/null; done; }
stored() { sql "SELECT COUNT(*) FROM routed_boons WHERE route_id = UNHEX('${ROUTE#0x}')"; }
indexed() { [ "$(stored)" -ge "$(wc -l < "$tmp/sent")" ]; }

batch 4; bury
poll indexed; ok $? "4 recognitions indexed by host $H's indexer"
"$cl" kill-indexer "$H"; ok $? "host $H's indexer (the holder) SIGKILLed"
down=$H
killed=$SECONDS
batch 4; bury
taken() { [ "$(holder)" = "host-$O" ]; }
poll taken; ok $? "the standby on host $O takes the lease over (after $((SECONDS - killed)) s; lease $("$WAYMARK_BUILD/waymark" -c "$CLUSTER_CONF" config get indexer_lease_ms) ms)"
is "$(term)" $((t0 + 1)) "  the lease's term moved on once"
poll indexed; ok $? "the recognitions sent meanwhile are indexed"
"$cl" start-indexer "$H"; ok $? "host $H's indexer started again"
down=
batch 4; bury
poll indexed; ok $? "4 more indexed"
is "$(holder)" "host-$O" "  host $O still holds the lease: the restarted one stands by"

is "$(stored)" 12 "every recognition sent is stored exactly once (12 rows)"
list=$(jq -r '"(UNHEX(\"\(.txHash[2:])\"),\(.logIndex))"' "$tmp/sent" | tr '"' "'" | paste -sd,)
is "$(sql "SELECT COUNT(*) FROM routed_boons WHERE (tx_hash, log_index) IN ($list)")" 12 \
	"  each one by its transaction and log index: no gap"
is "$(aggregate_diff)" "" "the route's aggregates match their rows (nothing counted twice)"
done_testing
