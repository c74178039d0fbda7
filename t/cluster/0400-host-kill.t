#!/usr/bin/env bash
# One worker host's processes SIGKILLed under load (issue 29, Must show):
# nginx sends everything to the other host, and no request sent after the
# kill fails (what was under way on the dead host is retried by nginx on the
# other, a GET at once; a paid read or a publication by its client, which
# t/tools/cluster-load.mjs does as a real one would); every paid read still
# ends 200 charged once, no publication is lost or duplicated. Host a is
# then started again and serves its share.
. "$(dirname "$0")/../lib/cluster-test.sh"
tmp=$(mktemp -d)
trap 'kill $load_pid 2>/dev/null; "$cl" start-host a >/dev/null 2>&1; rm -rf "$tmp"' EXIT

# upstreams FROM: the access log after line FROM, one line per request:
# status and the last upstream host that answered it (nginx lists every
# upstream it tried, "a:9000, b:9000", before ustatus=).
upstreams() {
	tail -n +$(($1 + 1)) "$CLUSTER_ACCESS_LOG" |
		sed -n 's/^[^ ]* \([0-9]*\) .* upstream=\(.*\) ustatus=.*$/\1 \2/p' |
		awk '{ u = $NF; sub(/:.*/, "", u); print $1, u }'
}
served_by() { upstreams "$2" | awk -v h="$1" '$2 == h' | wc -l; }

P1=$(test_key host-kill-1)
mint "$(addr_of "$P1")" 20000000
load_start "$tmp/load.json" --url "$URL" --keys "$P1" --free-c 3 --paid-c 1 --pub-c 1 --rpc "$RPC" --usdc "$USDC"
ok $? "the load runs through nginx"
from=$(wc -l < "$CLUSTER_ACCESS_LOG")
a_serves() { [ "$(served_by "$CLUSTER_HOST_A" "$from")" -ge 10 ] && [ "$(served_by "$CLUSTER_HOST_B" "$from")" -ge 10 ]; }
poll a_serves; ok $? "both hosts serve the load"

"$cl" kill-host a; ok $? "host a's pools and indexer SIGKILLed"
killed_at=$(date +%s%3N)
from=$(wc -l < "$CLUSTER_ACCESS_LOG")
s0=$(settled)
b_took_over() { [ "$(served_by "$CLUSTER_HOST_B" "$from")" -ge 200 ] && [ "$(settled)" -ge $((s0 + 3)) ]; }
poll b_took_over; ok $? "host b serves the load alone (200 requests, 3 paid reads settled)"
is "$(upstreams "$from" | awk -v b="$CLUSTER_HOST_B" '$2 != b' | wc -l)" 0 \
	"  nginx sent every request to host b (the access log's last upstream of each)"

"$cl" start-host a; ok $? "host a started again"
health_a() { [ "$("$cl" health a)" = 200 ]; }
poll health_a; ok $? "  its own /health answers 200"
from=$(wc -l < "$CLUSTER_ACCESS_LOG")
poll a_serves; ok $? "  and it serves its share again"
load_stop; ok $? "the load stops with a summary"
is "$(jq --argjson t "$killed_at" '[.free.failures[] | select(.start >= $t)] | length' "$tmp/load.json")" 0 \
	"no free read sent after the kill failed ($(jq -c '.free.failures | map(.status)' "$tmp/load.json"))"
load_checks "$tmp/load.json" 1
done_testing
