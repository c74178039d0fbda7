# t/lib/x402.sh: the x402 peers of the paid-route tests, beside a chain_stack
# (t/lib/chain.sh) and t/lib/http.sh.
#   facilitator_start [ARGS...]  (re)start the real facilitator (t/tools/facilitator.mjs,
#                                @x402/core + @x402/evm) on port $fport; succeeds once it listens
#   balance ADDRESS              USDC atomic units (eth_call balanceOf)
#   mint ADDRESS ATOMIC          the local test token's open mint, sent by anvil #0
#   final_write_fails            a MariaDB trigger refuses every publication record's move to
#                                published, as a database fault would (final_write_works undoes it)
#   paid_stack NAME OFFSET       chain_stack NAME OFFSET (no seed, no confirmation depth)
#                                paying PAYTO through the facilitator on OFFSET + 1
#                                ($fport); the payer PAYER (anvil #1, KEY1) gets 5 USDC
USDC=0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913
PAYTO=0x5555555555555555555555555555555555555555
KEY1=0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d
PAYER=0x70997970C51812dc3A010C7d01b50e0d17dc79C8
fpid=

facilitator_start() {
	if [ -n "$fpid" ]; then kill "$fpid" 2>/dev/null; wait "$fpid" 2>/dev/null; fi
	: > "$http_tmp/fac.out"
	node "$top/t/tools/facilitator.mjs" --rpc "$RPC" --port "$fport" "$@" > "$http_tmp/fac.out" \
		2>> "$WAYMARK_VAR/log/facilitator.log" &
	fpid=$!
	local n=0
	until grep -q listening "$http_tmp/fac.out" 2>/dev/null || [ $n -ge 500 ]; do n=$((n + 1)); sleep 0.02; done
	grep -q listening "$http_tmp/fac.out"
}

balance() {
	local a; a=$(printf '%s' "${1#0x}" | tr 'A-F' 'a-f')
	printf '%d' "$(rpc eth_call "[{\"to\":\"$USDC\",\"data\":\"0x70a08231000000000000000000000000$a\"},\"latest\"]" | tr -d '"')"
}

# It waits for the mint's receipt (once seen in a full run, a balance read
# right after the send found nothing yet), and says so when the send failed.
mint() {
	local a tx n=0; a=$(printf '%s' "${1#0x}" | tr 'A-F' 'a-f')
	tx=$(rpc eth_sendTransaction "[{\"from\":\"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266\",\"to\":\"$USDC\",\"data\":\"0x40c10f19000000000000000000000000$a$(printf '%064x' "$2")\"}]")
	[ -n "$tx" ] && [ "$tx" != null ] || { echo "# mint: the node refused the send" >&2; return 1; }
	until [ "$(rpc eth_getTransactionReceipt "[$tx]")" != null ] || [ $n -ge 500 ]; do n=$((n + 1)); sleep 0.02; done
}

paid_stack() {
	fport=$((WAYMARK_TEST_PORT_BASE + $2 + 1))
	export WAYMARK_SEED=0 WAYMARK_CONFIRMATIONS=0
	export WAYMARK_FACILITATOR_URL=http://127.0.0.1:$fport WAYMARK_PAY_TO=$PAYTO
	chain_stack "$1" "$2"
	ok $? "a stack with a local chain starts"
	trap '[ -n "$fpid" ] && kill "$fpid" 2>/dev/null; rm -rf "$http_tmp"; "$top/tools/stack" stop >/dev/null 2>&1' EXIT
	WAYMARK_TEST_URL=$URL
	facilitator_start
	ok $? "the x402 facilitator listens"
	mint $PAYER 5000000
}

final_write_fails() {
	mariadb --defaults-file="$WAYMARK_VAR/my.cnf" -uroot <<'SQL'
DELIMITER //
CREATE TRIGGER fail_publish BEFORE UPDATE ON review_publications FOR EACH ROW
	IF NEW.state = 'published' THEN
		SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'test: final write refused';
	END IF//
DELIMITER ;
SQL
}

final_write_works() { sql "DROP TRIGGER fail_publish"; }
