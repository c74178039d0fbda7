# t/lib/x402.sh: the x402 peers of the paid-route tests, beside a chain_stack
# (t/lib/chain.sh) and t/lib/http.sh.
#   facilitator_start [ARGS...]  (re)start the real facilitator (t/tools/facilitator.mjs,
#                                @x402/core + @x402/evm) on port $fport; succeeds once it listens
#   balance ADDRESS              USDC atomic units (eth_call balanceOf)
#   mint ADDRESS ATOMIC          the local test token's open mint, sent by anvil #0
USDC=0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913
fpid=

facilitator_start() {
	if [ -n "$fpid" ]; then kill "$fpid" 2>/dev/null; wait "$fpid" 2>/dev/null; fi
	: > "$http_tmp/fac.out"
	node "$top/t/tools/facilitator.mjs" --rpc "$RPC" --port "$fport" "$@" > "$http_tmp/fac.out" \
		2>> "$WAYMARK_VAR/log/facilitator.log" &
	fpid=$!
	local n=0
	until grep -q listening "$http_tmp/fac.out" 2>/dev/null || [ $n -ge 100 ]; do n=$((n + 1)); sleep 0.1; done
	grep -q listening "$http_tmp/fac.out"
}

balance() {
	local a; a=$(printf '%s' "${1#0x}" | tr 'A-F' 'a-f')
	printf '%d' "$(rpc eth_call "[{\"to\":\"$USDC\",\"data\":\"0x70a08231000000000000000000000000$a\"},\"latest\"]" | tr -d '"')"
}

mint() {
	local a; a=$(printf '%s' "${1#0x}" | tr 'A-F' 'a-f')
	rpc eth_sendTransaction "[{\"from\":\"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266\",\"to\":\"$USDC\",\"data\":\"0x40c10f19000000000000000000000000$a$(printf '%064x' "$2")\"}]" >/dev/null
}
