#!/usr/bin/env bash
# One node cut off from the other two (issue 29, Must show): node 1, the
# node host a prefers, has its link taken down under load. It drops out of
# the primary component and refuses writes as non-primary; host a's workers
# fail over to a node of the majority (host a's own /health answers 200
# again and it serves requests); a write tried on the minority side is
# refused and is nowhere once the node is back; the load loses nothing
# (t/lib/cluster.sh load_checks); healed, node 1 rejoins and holds what the
# majority wrote without it.
. "$(dirname "$0")/../lib/cluster-test.sh"
SQL_NODE=2
tmp=$(mktemp -d)
trap 'kill $load_pid 2>/dev/null; "$cl" heal-node 1 >/dev/null 2>&1; rm -rf "$tmp"' EXIT

status_of() { "$cl" sql "$1" "SHOW STATUS LIKE '$2'" 2>/dev/null | cut -f2; }
served_by() {
	tail -n +$(($2 + 1)) "$CLUSTER_ACCESS_LOG" | sed -n 's/^[^ ]* \(2[0-9][0-9]\) .* upstream=\([^ :]*\):.*/\2/p' |
		grep -cxF "$1"
}
nsql 2 "CREATE TABLE IF NOT EXISTS cluster_probe (id INT UNSIGNED NOT NULL PRIMARY KEY, side VARCHAR(16) NOT NULL)"
nsql 2 "DELETE FROM cluster_probe"

P1=$(test_key node-cut-1)
mint "$(addr_of "$P1")" 20000000
load_start "$tmp/load.json" --url "$URL" --keys "$P1" --free-c 3 --paid-c 1 --pub-c 1 --rpc "$RPC" --usdc "$USDC"
ok $? "the load runs through nginx"
s0=$(settled)
more_settled() { [ "$(settled)" -ge $(($1 + 3)) ]; }
poll more_settled "$s0"; ok $? "paid reads settle under the load"

"$cl" cut-node 1; ok $? "node 1 (host a's preferred node) cut off: its link is down"
non_primary() { [ "$(status_of 1 wsrep_cluster_status)" = non-Primary ]; }
poll non_primary; ok $? "node 1 leaves the primary component (non-Primary)"
two() { [ "$(status_of 2 wsrep_cluster_size)" = 2 ] && [ "$(status_of 2 wsrep_cluster_status)" = Primary ]; }
poll two; ok $? "nodes 2 and 3 go on as the primary component of two"
"$cl" sql 1 "INSERT INTO waymark.cluster_probe VALUES (1, 'minority')" > "$tmp/minority" 2>&1
ok "$([ $? != 0 ]; echo $?)" "a write on node 1 is refused ($(head -c 120 "$tmp/minority"))"
health_a() { [ "$("$cl" health a)" = 200 ]; }
poll health_a; ok $? "host a's workers fail over: its own /health answers 200"
from=$(wc -l < "$CLUSTER_ACCESS_LOG")
a_serves() { [ "$(served_by "$CLUSTER_HOST_A" "$from")" -ge 10 ]; }
poll a_serves; ok $? "  and host a serves requests again"
s1=$(settled)
poll more_settled "$s1"; ok $? "paid reads keep settling with node 1 cut off"
nsql 2 "INSERT INTO cluster_probe VALUES (2, 'majority')"

"$cl" heal-node 1; ok $? "node 1's link is up again"
back() { [ "$(status_of 1 wsrep_cluster_size)" = 3 ] && [ "$(status_of 1 wsrep_local_state_comment)" = Synced ]; }
poll back; ok $? "node 1 rejoins and is Synced in a cluster of three"
load_stop; ok $? "the load stops with a summary"
load_checks "$tmp/load.json" 1
for n in 1 2 3; do
	is "$(nsql $n "SELECT GROUP_CONCAT(side ORDER BY id) FROM cluster_probe")" majority \
		"node $n: the majority's write is there, the minority's is not"
done
for t in x402_payments profile_activity; do
	c2=$(nsql 2 "CHECKSUM TABLE $t" | cut -f2)
	is "$(nsql 1 "CHECKSUM TABLE $t" | cut -f2)" "$c2" "node 1 holds what the majority wrote: $t"
done
nsql 2 "DROP TABLE cluster_probe"
done_testing
