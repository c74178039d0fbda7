#!/usr/bin/env bash
# Signature checks that need the chain are bounded (lib/walletsig.h): every
# signature-verifying row runs its cheap checks (shape, route, recognition,
# the tip) first, so a contract-wallet signature for something unknown
# costs no RPC call; the ones that do call take a place under
# sigcheck_max_in_flight and share one sigcheck_timeout_ms. Proven by
# counting the calls at a recording JSON-RPC proxy (t/tools/rpc-record.mjs)
# in front of the test's anvil, which can also be made slow. A worker of the
# test's own (cap 1, 2 s) talks to the chain through the proxy; it is
# reached over FastCGI alone, as in t/0120.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
export WAYMARK_SEED=0 WAYMARK_CONFIRMATIONS=0
chain_stack sigcap 106
ok $? "a stack with a local chain starts"
tools=$top/t/tools
tmp=$(mktemp -d)
wpid=; RECORD_PID=
trap 'kill $wpid $RECORD_PID 2>/dev/null; rm -rf "$tmp"; "$top/tools/stack" stop >/dev/null 2>&1' EXIT
rpc_record $((WAYMARK_TEST_PORT_BASE + 107))
ok $? "the recording RPC proxy listens"

sock=$WAYMARK_VAR/run/sigcap.sock
WAYMARK_RPC_URL=$RECORD_URL WAYMARK_SIGCHECK_MAX_IN_FLIGHT=1 WAYMARK_SIGCHECK_TIMEOUT_MS=2000 \
	"$WAYMARK_BUILD/waymark-fcgi" -c "$WAYMARK_VAR/waymark.conf" -s "$sock" -p remote -t 4 \
	2>> "$WAYMARK_VAR/log/sigcap-worker.log" &
wpid=$!
n=0; until [ -S "$sock" ] || [ $n -ge 500 ]; do n=$((n + 1)); sleep 0.02; done

# fcgi OUT METHOD URI [BODY]: the worker's answer (Status, headers, body) into OUT.
fcgi() {
	local data=${4:-}
	printf '%s' "$data" | env -i REQUEST_METHOD="$2" REQUEST_URI="$3" CONTENT_TYPE=application/json \
		CONTENT_LENGTH="${#data}" cgi-fcgi -bind -connect "$sock" | tr -d '\r' > "$1"
}
st() { sed -n 's/^Status: \([0-9]*\).*/\1/p' "$1" | head -n1; }
field() { sed '1,/^$/d' "$1" | jq -r "$2" 2>/dev/null; }
hdr() { grep -i "^$2:" "$1" | head -n1 | sed 's/^[^:]*: *//'; }
answer() { echo "$(st "$1"),$(field "$1" .error),$(field "$1" .field)"; }
all_calls() { curl -s "$RECORD_URL/calls" | jq -r '[.[]] | add // 0'; }
ms() { echo $(( $(date +%s%N) / 1000000 )); }

fcgi "$tmp/h" GET /health
is "$(st "$tmp/h")" 200 "the test's worker answers"
is "$(rpc_calls eth_chainId),$(rpc_calls eth_blockNumber)" "0,0" "and asks the chain nothing to start"

chain_id=$(jq -r .chainId "$STATE"); companion=$(jq -r .companion "$STATE")
P=/api/v1/x402/reviews/self-reported
now=$(date +%s)
sign() { node "$tools/sign-review-v3.mjs" "$1" "$chain_id" "$companion" "$2" "$3" "$4" "${5:-}"; }
wallet() { node "$top/chain/wallet.mjs" --rpc "$RPC" --state "$STATE" "$@"; }
wrap() { # wrap BODY WALLET_JSON: the body with its signature wrapped for EIP-6492
	local s; s=$(node "$tools/wrap-6492.mjs" "$(jq -r .factory <<<"$2")" "$(jq -r .factoryCalldata <<<"$2")" "$(jq -r .signature <<<"$1")")
	jq -c --arg s "$s" '.signature = $s' <<<"$1"
}

# Wallets owned by anvil #7: one deployed (ERC-1271), one only computed (EIP-6492).
sw=$(wallet --owner-key $KEY7 --salt 1 --deploy); SW=$(jq -r .wallet <<<"$sw")
cf=$(wallet --owner-key $KEY7 --salt 2); CF=$(jq -r .wallet <<<"$cf")
rec=$(send --from-key $KEY8 --route $ROUTE_1 --endpoint $PAY_A --endpoint-usdc 100)
wait_indexed "$(jq -r .blockNumber <<<"$rec")"; ok $? "ROUTE_1 is recognized and indexed"
unrec=0x$(printf 'ab%.0s' $(seq 32))
curl -s -X POST "$RECORD_URL/reset" >/dev/null

# ---- cheap checks first: nothing unknown reaches the chain
b6492_unrec=$(wrap "$(sign $KEY7 $unrec "$now" "A 6492 signature for a route nobody recognized." "$CF")" "$cf")
like "$(jq -r .signature <<<"$b6492_unrec")" '(6492){16}$' "the signature carries the ERC-6492 suffix"
fcgi "$tmp/a" POST $P "$b6492_unrec"
is "$(answer "$tmp/a")" "400,invalid_field,review.routeId" "V3, an ERC-6492 signature for an unknown route: 400 on the route"
b1271_unrec=$(sign $KEY7 $unrec "$now" "A contract wallet's signature for a route nobody recognized." "$SW")
fcgi "$tmp/a" POST $P "$b1271_unrec"
is "$(answer "$tmp/a")" "400,invalid_field,review.routeId" "V3, an ERC-1271 signature for an unknown route: 400 on the route"
v1=$(node "$tools/sign-review.mjs" $KEY7 "$chain_id" "$companion" $ROUTE_1 "0x$(printf 'cd%.0s' $(seq 32))" 0 "$now" \
	"A recognition nobody sent, signed for a contract tipper.")
fcgi "$tmp/a" POST /api/v1/x402/reviews "$v1"
is "$(answer "$tmp/a")" "400,invalid_field,review.recognitionTxHash" "V1 citing an unknown recognition: 400"
fcgi "$tmp/a" POST "/api/v1/boons/0x$(printf 'ef%.0s' $(seq 32))/disclosure" \
	"$(jq -c '{action: "disclose", signature}' <<<"$b6492_unrec")"
like "$(st "$tmp/a")" '^4[0-9][0-9]$' "a disclosure with a 6492 signature for an unknown tip: 4xx ($(st "$tmp/a") $(field "$tmp/a" .error))"
is "$(all_calls)" 0 "none of them made a single RPC call (counted at the proxy)"

# ---- a known route: the checks do reach the chain (the counter counts)
b6492=$(wrap "$(sign $KEY7 $ROUTE_1 "$now" "Reviewed from a wallet that is not deployed yet." "$CF")" "$cf")
fcgi "$tmp/a" POST $P "$b6492"
is "$(answer "$tmp/a")" "402,payment_required,null" "V3, a valid ERC-6492 signature on a recognized route: 402 asks for payment"
is "$(rpc_calls eth_call),$(rpc_calls eth_getCode)" "1,0" "after one eth_call (the deployless validator)"
b1271=$(sign $KEY7 $ROUTE_1 "$now" "Reviewed from a deployed smart wallet." "$SW")
fcgi "$tmp/a" POST $P "$b1271"
is "$(answer "$tmp/a")" "402,payment_required,null" "V3, a valid ERC-1271 signature: 402"
is "$(rpc_calls eth_call),$(rpc_calls eth_getCode)" "2,1" "after eth_getCode and isValidSignature"
eoa=$(sign $KEY8 $ROUTE_1 "$now" "An EOA review, checked locally.")
fcgi "$tmp/a" POST $P "$eoa"
is "$(st "$tmp/a"),$(all_calls)" "402,3" "an EOA signature: 402 with no RPC call"

# ---- the cap: one check may call the (slow) node at a time
rpc_delay 1500
t0=$(ms)
fcgi "$tmp/first" POST $P "$b6492" &
first=$!
sleep 0.5
t1=$(ms)
fcgi "$tmp/b" POST $P "$b1271"
t2=$(ms)
is "$(answer "$tmp/b")" "503,signature_check_unavailable,signature" \
	"a second contract-wallet check while the first holds the only place: 503 signature_check_unavailable"
like "$(hdr "$tmp/b" retry-after)" '^[0-9]+$' "with Retry-After"
is "$(hdr "$tmp/b" payment-required)" "" "and no payment challenge"
ok $([ $((t2 - t1)) -lt 1000 ] && echo 0 || echo 1) "refused at once ($((t2 - t1)) ms), without waiting for the node"
fcgi "$tmp/a" POST $P "$eoa"
is "$(st "$tmp/a")" 402 "an EOA signature meanwhile: checked locally, 402 (the cap gates only RPC checks)"
wait $first
t3=$(ms)
is "$(answer "$tmp/first")" "402,payment_required,null" "the first check, through the slow node: 402 ($((t3 - t0)) ms)"
is "$(rpc_calls eth_call),$(rpc_calls eth_getCode)" "3,1" "the refused check asked the node nothing"
rpc_delay 0
fcgi "$tmp/a" POST $P "$b1271"
is "$(st "$tmp/a")" 402 "the place is given back: the next contract-wallet check passes"

# ---- the timeout: one budget for all the calls of a check
rpc_delay 5000
t0=$(ms)
fcgi "$tmp/a" POST $P "$b6492"
t1=$(ms)
is "$(answer "$tmp/a")" "503,signature_check_unavailable,signature" "a node slower than sigcheck_timeout_ms: 503"
like "$(hdr "$tmp/a" retry-after)" '^[0-9]+$' "with Retry-After"
ok $([ $((t1 - t0)) -ge 1800 ] && [ $((t1 - t0)) -lt 4000 ] && echo 0 || echo 1) \
	"after about sigcheck_timeout_ms (2000), not the node's 5 s ($((t1 - t0)) ms)"
rpc_delay 1200
t0=$(ms)
fcgi "$tmp/a" POST $P "$b1271"
t1=$(ms)
is "$(answer "$tmp/a")" "503,signature_check_unavailable,signature" \
	"ERC-1271, two calls of 1.2 s each: 503 (the two share the 2 s, each alone would fit)"
ok $([ $((t1 - t0)) -lt 3000 ] && echo 0 || echo 1) "within the one budget ($((t1 - t0)) ms)"
rpc_delay 0
sleep 4   # the held calls drain at the proxy
fcgi "$tmp/a" POST $P "$b6492"
is "$(st "$tmp/a")" 402 "the node fast again: the check passes (no place was leaked)"
grep -q 'walletsig: sigcheck_max_in_flight (1) requests are calling the RPC: refused' "$WAYMARK_VAR/log/sigcap-worker.log"
ok $? "the worker logs the refusal"
grep -q 'walletsig: its time for chain calls (2000 ms) is spent\|Timeout was reached' "$WAYMARK_VAR/log/sigcap-worker.log"
ok $? "and the timeout"
s=$(jq -r .signature <<<"$b6492")
ok $(! grep -q "${s:10:40}" "$WAYMARK_VAR/log/sigcap-worker.log" && echo 0 || echo 1) "and never the signature"

# ---- the agent surface's recognition previews read the chain under the same
# cap and budget (lib/nodecap.h): while one preview holds the only place
# (the node made slow), another gets A2A's 503 UNAVAILABLE and the MCP tool
# call a JSON-RPC error (chain_busy), each with Retry-After, and neither asks
# the node anything; the place comes back.
b=$(sed -n 's/^#define BRAND_LOWER "\(.*\)"$/\1/p' "$top/lib/brand.h")
prep="{\"skillId\":\"$b.prepare_agent_recognition\",\"params\":{\"recipient\":\"agent:1\",\"amountUsdc\":\"1\"}}"
mcp_prep="{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"${b}_prepare_agent_recognition\",\"arguments\":{\"recipient\":\"agent:1\",\"amountUsdc\":\"1\"}}}"
fcgi "$tmp/p" POST /a2a/message:send "$prep"
is "$(st "$tmp/p"),$(field "$tmp/p" .task.status.state)" "200,TASK_STATE_COMPLETED" \
	"a recognition preview through the node: answered (agent:1 is not registered here: needs_check)"
# The worker again, with a budget (20 s) that outlasts the slow node's
# delay (6 s): the first preview holds the only place for those 6 s, whatever
# the machine's load, and its next call arrives only after them, so the count
# below is exact.
kill $wpid; wait $wpid 2>/dev/null
rm -f "$sock"
WAYMARK_RPC_URL=$RECORD_URL WAYMARK_SIGCHECK_MAX_IN_FLIGHT=1 WAYMARK_SIGCHECK_TIMEOUT_MS=20000 \
	"$WAYMARK_BUILD/waymark-fcgi" -c "$WAYMARK_VAR/waymark.conf" -s "$sock" -p remote -t 4 \
	2>> "$WAYMARK_VAR/log/sigcap-worker.log" &
wpid=$!
n=0; until [ -S "$sock" ] || [ $n -ge 500 ]; do n=$((n + 1)); sleep 0.02; done
curl -s -X POST "$RECORD_URL/reset" >/dev/null
rpc_delay 6000
fcgi "$tmp/first" POST /a2a/message:send "$prep" & first=$!
n=0; until [ "$(all_calls)" -ge 1 ] || [ $n -ge 250 ]; do n=$((n + 1)); sleep 0.02; done
fcgi "$tmp/a" POST /a2a/message:send "$prep"
is "$(st "$tmp/a"),$(field "$tmp/a" '[.error.code, .error.status] | join(",")')" "503,503,UNAVAILABLE" \
	"a second preview while the first holds the only place: A2A 503 UNAVAILABLE"
like "$(hdr "$tmp/a" retry-after)" '^[0-9]+$' "  with Retry-After"
like "$(field "$tmp/a" .error.message)" 'Too many requests are reading the chain' "  saying why"
printf '%s' "$mcp_prep" | env -i REQUEST_METHOD=POST REQUEST_URI=/mcp CONTENT_TYPE=application/json \
	CONTENT_LENGTH="${#mcp_prep}" HTTP_MCP_PROTOCOL_VERSION=2025-11-25 cgi-fcgi -bind -connect "$sock" | tr -d '\r' > "$tmp/m"
is "$(st "$tmp/m"),$(field "$tmp/m" '[.id, .error.code, .error.data.error, .error.data.retryAfterSeconds] | join(",")')" \
	"200,7,-32001,chain_busy,1" "the same preview as an MCP tool call: a JSON-RPC error, chain_busy"
like "$(hdr "$tmp/m" retry-after)" '^[0-9]+$' "  with Retry-After"
is "$(all_calls)" 1 "  neither asked the node anything (one call: the first preview's)"
rpc_delay 0
wait $first
is "$(st "$tmp/first"),$(field "$tmp/first" .task.status.state)" "200,TASK_STATE_COMPLETED" \
	"the first preview, through the slow node: answered"
fcgi "$tmp/a" POST /a2a/message:send "$prep"
is "$(st "$tmp/a")" 200 "the place is given back: the next preview is answered"
grep -q 'preview: sigcheck_max_in_flight (1) requests are calling the RPC: refused' "$WAYMARK_VAR/log/sigcap-worker.log"
ok $? "the worker logs the preview's refusal"
done_testing
