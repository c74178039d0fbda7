#!/usr/bin/env bash
# make cluster comes up (tools/cluster, run by tools/run-cluster-tests):
# three Galera nodes Synced in one primary component, both worker hosts'
# pools and indexers running, /health through nginx 200 naming a cluster of
# three nodes, free and paid requests served
# by both hosts (nginx's access log of the cluster names the upstream of
# each request), and a paid read through the local facilitator charged
# exactly its price.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${WAYMARK_TEST_URL:?run through make test-cluster}"
cl=$top/tools/cluster
eval "$("$cl" env)"
tool=$WAYMARK_BUILD/waymark

st=$("$cl" status)
for n in 1 2 3; do
	like "$st" "^node $n: Synced, cluster size 3 \\(Primary\\)" "node $n is Synced in a primary component of three"
done
for h in a b; do
	like "$st" "host $h \\([0-9.]+\\): free up, remote up, indexer up, health 200" \
		"host $h runs both pools and an indexer, and its own /health is 200"
done
is "$("$cl" sql 1 "SELECT COUNT(*) FROM waymark.schema_migrations")" "$(ls "$top"/sql/*.sql | wc -l)" \
	"every migration applied once, on the cluster"

code=$(curl -s -o /tmp/cl-health.$$ -w '%{http_code}' "$WAYMARK_TEST_URL/health")
is "$code" 200 "/health through nginx"
is "$(jq -r '.database.cluster.size' /tmp/cl-health.$$)" 3 "/health reports a cluster of three nodes"
rm -f /tmp/cl-health.$$

# Free requests: nginx's round robin gives each host a share.
log=$CLUSTER_ACCESS_LOG
before=$(wc -l < "$log")
codes=$(for _ in $(seq 20); do curl -s -o /dev/null -w '%{http_code}\n' "$WAYMARK_TEST_URL/health"; done | sort -u)
is "$codes" 200 "twenty /health requests through nginx all answered 200"
free=$(tail -n +$((before + 1)) "$log" | grep ' 200 "GET /health HTTP' | sed -n 's/.* upstream=\([^ ]*\) .*/\1/p' | sort -u | tr '\n' ' ')
is "$free" "$CLUSTER_HOST_A:9000 $CLUSTER_HOST_B:9000 " "free requests were served by both hosts' free pools"

# Paid reads with the real x402 client, paid by anvil #1 in the local test
# USDC (its open mint, sent by anvil #0) through the local facilitator.
rpc_url=$("$tool" -c "$CLUSTER_CONF" config get rpc_url)
usdc=$(jq -r .usdc "$CLUSTER_VAR/chain.json")
KEY1=0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d
PAYER=70997970c51812dc3a010c7d01b50e0d17dc79c8
rpc() {
	curl -s -H 'Content-Type: application/json' \
		-d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"$1\",\"params\":$2}" "$rpc_url" | jq -r .result
}
balance() { printf '%d' "$(rpc eth_call "[{\"to\":\"$usdc\",\"data\":\"0x70a08231000000000000000000000000$PAYER\"},\"latest\"]")"; }
rpc eth_sendTransaction "[{\"from\":\"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266\",\"to\":\"$usdc\",\"data\":\"0x40c10f19000000000000000000000000$PAYER$(printf '%064x' 1000000)\"}]" >/dev/null
price=$("$tool" -c "$CLUSTER_CONF" routes list | awk -F'\t' '$1 == "GET" && $2 == "/api/v1/x402/routes" { print $5 }')
atomic=$(awk -v p="$price" 'BEGIN { printf "%d", p * 1000000 + 0.5 }')
b0=$(balance)
before=$(wc -l < "$log")
good=0
for i in 1 2 3 4; do
	res=$(node "$top/t/tools/pay.mjs" --key $KEY1 --url "$WAYMARK_TEST_URL/api/v1/x402/routes?limit=$i")
	[ "$(jq -r .status <<<"$res")" = 200 ] && [ "$(jq -r .paymentResponse.success <<<"$res")" = true ] &&
		good=$((good + 1))
done
is "$good" 4 "four paid reads answered 200 with a settled payment through the local facilitator"
is "$(( b0 - $(balance) ))" $((4 * atomic)) "the payer was charged the price ($price USDC) once for each"
paid=$(tail -n +$((before + 1)) "$log" | grep '"GET /api/v1/x402/routes?limit=' |
	sed -n 's/.* upstream=\([^ ]*\) .*/\1/p' | sort -u | tr '\n' ' ')
is "$paid" "$CLUSTER_HOST_A:9001 $CLUSTER_HOST_B:9001 " "paid reads were served by both hosts' remote pools"

done_testing
