#!/usr/bin/env bash
# One database node SIGKILLed under load (issue 29, Must show): a mixed load
# through nginx (t/tools/cluster-load.mjs: free reads, paid reads with the
# real x402 client, activity publications with the SIWX client) runs while
# node 2, the node host b prefers, is killed and, later, started again.
# Free reads keep answering (at most 1% errors), every paid read ends 200
# charged once, no publication is lost or duplicated (t/lib/cluster.sh
# load_checks, against the database and the chain), /health reports two
# nodes while it is down and three once it is back, and the node catches up:
# its tables hold what the others hold, including what was written without it.
. "$(dirname "$0")/../lib/cluster-test.sh"
tmp=$(mktemp -d)
trap 'kill $load_pid 2>/dev/null; "$cl" start-node 2 >/dev/null 2>&1; rm -rf "$tmp"' EXIT

P1=$(test_key node-kill-1); P2=$(test_key node-kill-2)
for k in $P1 $P2; do mint "$(addr_of "$k")" 20000000; done
load_start "$tmp/load.json" --url "$URL" --keys "$P1,$P2" --free-c 3 --paid-c 2 --pub-c 1 \
	--rpc "$RPC" --usdc "$USDC"
ok $? "the load runs through nginx"
s0=$(settled)
more_settled() { [ "$(settled)" -ge $(($1 + 3)) ]; }
poll more_settled "$s0"; ok $? "paid reads settle under the load"

"$cl" kill-node 2; ok $? "node 2 (host b's preferred node) SIGKILLed"
size_is() { [ "$(health_field .database.cluster.size)" = "$1" ]; }
poll size_is 2; ok $? "/health reports a cluster of two nodes"
is "$(health_field '.database.cluster.status')" Primary "  still the primary component"
s1=$(settled); SQL_NODE=1
poll more_settled "$s1"; ok $? "paid reads keep settling with node 2 down"
before_pubs=$(sql "SELECT COUNT(*) FROM profile_activity")
more_pubs() { [ "$(sql "SELECT COUNT(*) FROM profile_activity")" -gt "$before_pubs" ]; }
poll more_pubs; ok $? "publications keep being stored with node 2 down"

"$cl" start-node 2; ok $? "node 2 started again: it rejoins and is Synced"
poll size_is 3; ok $? "/health reports three nodes again"
s2=$(settled)
poll more_settled "$s2"; ok $? "paid reads settle with node 2 back"
load_stop; ok $? "the load stops with a summary"
load_checks "$tmp/load.json" 1

# Node 2 caught up: every table the load wrote holds the same rows on each node.
for t in x402_payments profile_activity profiles profile_wallets; do
	c1=$(nsql 1 "CHECKSUM TABLE $t" | cut -f2)
	is "$(nsql 2 "CHECKSUM TABLE $t" | cut -f2)/$(nsql 3 "CHECKSUM TABLE $t" | cut -f2)" "$c1/$c1" \
		"node 2 caught up: $t is the same on every node"
done
done_testing
