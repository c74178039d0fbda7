#!/usr/bin/env bash
# RPC unreachable: the indexer retries with growing backoff, /health
# reports the failure and the lag, the API keeps answering; when the node
# is back the indexer catches up.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
export WAYMARK_SEED=0 WAYMARK_CONFIRMATIONS=0
chain_stack rpcdown 13
one=$(send --from-key $KEY7 --route $ROUTE_1 --endpoint $PAY_A --endpoint-usdc 5)
wait_indexed "$(jq .blockNumber <<<"$one")"; ok $? "indexed while the node is up"

"$top/tools/stack" chain-stop
# The suite's workers keep no /health cache (health_ttl_ms 0): once one
# answer says retrying, every answer does. Another source (the registry,
# the tips) may fail first, and /health then names it ("registry:
# rpc_unavailable", seen under TSan): wait for the recognitions' own source.
n=0; until [ "$(curl -s "$URL/health" | jq -r .indexer.lastError)" = rpc_unavailable ] || [ $n -ge 500 ]; do n=$((n + 1)); sleep 0.02; done
h=$(curl -s -w '\n%{http_code}' "$URL/health")
is "$(tail -n1 <<<"$h")" 200 "/health still answers 200 with the node down"
is "$(head -n1 <<<"$h" | jq -r .indexer.status)" retrying "/health: indexer retrying"
is "$(head -n1 <<<"$h" | jq -r .indexer.lastError)" rpc_unavailable "/health: the last error is the RPC failure, as a code (never the node's text)"
ok $([ "$(head -n1 <<<"$h" | jq -r .indexer.headSeenSecondsAgo)" -ge 0 ] && echo 0 || echo 1) "/health: when the head was last seen"
code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
	--data-binary '{"requests":[{"method":"GET","path":"/health"}]}' "$URL/api/v1/workflows/cost-preview")
is "$code" 200 "the API keeps answering"
# Three retries take 0.5 + 1 s: wait for them (10 s at most), not for a fixed time.
# Each source (routed, tips, ...) backs off on its own: read the routed one's.
retries() { grep -c 'routed: .*retrying in [0-9]* ms' "$WAYMARK_VAR/log/indexer.log"; }
n=0; until [ "$(retries)" -ge 3 ] || [ $n -ge 500 ]; do n=$((n + 1)); sleep 0.02; done
waits=$(grep 'routed: ' "$WAYMARK_VAR/log/indexer.log" | grep -o 'retrying in [0-9]* ms' | awk '{print $3}' | tr '\n' ' ')
like "$waits" '^500 1000 2000' "the retries back off: $waits"
ok $(pgrep -P "$(cat "$WAYMARK_VAR/run/indexer.pid")" >/dev/null && echo 0 || echo 1) "the indexer process stays up"

"$top/tools/stack" start >/dev/null
two=$(send --from-key $KEY8 --route $ROUTE_2 --endpoint $PAY_B --endpoint-usdc 6)
n=0; until [ "$(checkpoint)" -ge "$(jq .blockNumber <<<"$two")" ] 2>/dev/null || [ $n -ge 1000 ]; do n=$((n + 1)); sleep 0.02; done
is "$(sql "SELECT COUNT(*) FROM routed_boons")" 2 "after the node returns, the indexer catches up"
n=0; until [ "$(curl -s "$URL/health" | jq -r .indexer.lastError)" = null ] || [ $n -ge 500 ]; do n=$((n + 1)); sleep 0.02; done
is "$(curl -s "$URL/health" | jq -r .indexer.lastError)" null "and /health clears the error"
done_testing
