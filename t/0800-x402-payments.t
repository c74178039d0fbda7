#!/usr/bin/env bash
# x402 v2 payments through the real stack, with real third-party peers: a
# facilitator built from @x402/core + @x402/evm settling on the local anvil
# (t/tools/facilitator.mjs) and the @x402/fetch paying client
# (t/tools/pay.mjs). The paid reads GET /api/v1/x402/routes/{routeId} and
# .../recognitions: the 402 challenge, a paid read that moves USDC exactly
# once, replay and cross-route refusal, malformed and tampered payments, no
# charge when the handler fails or the facilitator is down, a released
# payment used once later, and settlement refused or unreachable (the real
# facilitator with an injected fault after its real /verify); a settlement
# that outlives the timeout, served from the chain, and after payments-reconcile
# the payer's identical retry; the per-request deadline (a stalled worker: no
# /settle, 503, nothing charged, the row released).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
. "$(dirname "$0")/lib/http.sh"
. "$(dirname "$0")/lib/x402.sh"
fport=$((WAYMARK_TEST_PORT_BASE + 41))
PAYTO=0x5555555555555555555555555555555555555555
KEY1=0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d    # the payer, anvil #1
PAYER=0x70997970C51812dc3A010C7d01b50e0d17dc79C8
KEY2=0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a    # holds no USDC
export WAYMARK_SEED=0 WAYMARK_CONFIRMATIONS=0
# The stack's scheduled tasks wait a day: the reconcile checks below run
# payments-reconcile themselves, and the stack's own run (every minute) could
# settle, expire or prune a row between a check's set-up and its run.
export WAYMARK_PUBLICATIONS_INTERVAL=86400
# A facilitator that does not answer within 3 s is "no answer" (the
# settlement timeout below); settling on anvil takes well under a second.
export WAYMARK_FACILITATOR_URL=http://127.0.0.1:$fport WAYMARK_PAY_TO=$PAYTO WAYMARK_FACILITATOR_TIMEOUT_MS=3000
chain_stack x402 40
ok $? "a stack with a local chain starts"
fpid=
stop_facilitator() { [ -n "$fpid" ] && kill "$fpid" 2>/dev/null && wait "$fpid" 2>/dev/null; fpid=; }
trap 'stop_facilitator; rm -rf "$http_tmp"; "$top/tools/stack" stop >/dev/null 2>&1' EXIT
WAYMARK_TEST_URL=$URL
tools=$top/t/tools

facilitator_start
ok $? "the x402 facilitator (@x402/core + @x402/evm) listens"
sup=$(curl -s "http://127.0.0.1:$fport/supported")
ok $(jq -e '.kinds | map(select(.x402Version == 2 and .scheme == "exact" and .network == "eip155:8453")) | length == 1' \
	<<<"$sup" >/dev/null && echo 0 || echo 1) "facilitator supports exact on eip155:8453 (v2)"

# Mint 1 USDC to the payer with the token's open test mint (anvil #0 is unlocked).
mint $PAYER 1000000
is "$(balance $PAYER)" 1000000 "the payer holds 1 USDC"
is "$(balance $PAYTO)" 0 "payTo holds nothing"

out=$(send --from-key $KEY7 --route $ROUTE_1 --endpoint $PAY_A --endpoint-usdc 250000 --count 3)
send --from-key $KEY8 --route $ROUTE_1 --endpoint $PAY_A --endpoint-usdc 10000 --network $NET_C --network-usdc 5000 >/dev/null
send --from-key $KEY8 --route $ROUTE_2 --endpoint $PAY_B --endpoint-usdc 1 >/dev/null
wait_indexed "$(head_block)"; ok $? "four recognitions of route 1 and one of route 2 indexed"

R1=/api/v1/x402/routes/$ROUTE_1
REC1=$R1/recognitions
b64d() { printf '%s' "$1" | base64 -d 2>/dev/null; }
ledger() { sql "SELECT CONCAT(status, ' ', endpoint_id, ' ', IFNULL(reason, '-')) FROM x402_payments ORDER BY created_at"; }

# ---- no payment: 402 with the challenge
req GET "$REC1?limit=2"
check_error 402 payment_required "no PAYMENT-SIGNATURE"
is "$(header cache-control)" "private, no-store" "402: Cache-Control private, no-store"
pr=$(b64d "$(header payment-required)")
is "$(jq -r .x402Version <<<"$pr")" 2 "PAYMENT-REQUIRED decodes: x402Version 2"
is "$(jq -r .resource.url <<<"$pr")" "$URL$REC1?limit=2" "resource.url is this request's URL (path and query)"
is "$(jq -r .resource.mimeType <<<"$pr")" application/json "resource.mimeType"
is "$(jq -c '.accepts[0] | [.scheme, .network, .amount, .asset, .payTo, .maxTimeoutSeconds, .extra.name, .extra.version]' <<<"$pr")" \
	"[\"exact\",\"eip155:8453\",\"10000\",\"$USDC\",\"$PAYTO\",60,\"USD Coin\",\"2\"]" \
	"accepts: exact, network, price 10000, USDC, payTo, 60 s, the token's EIP-712 domain"

req GET "$REC1" -H "Origin: $URL" -H "Referer: $URL/"
is "$status,$(jqr .error)" "402,payment_required" "an Origin of the service itself does not bypass payment"

# Invalid input is refused before any payment is asked for.
req GET /api/v1/x402/routes/0x1234
check_error 400 invalid_field "a malformed routeId: 400, not 402"
req GET "$REC1?limit=101"
check_error 400 invalid_field "limit 101: 400, not 402"

# ---- a paid read with the real client
sigf=$http_tmp/sig1
res=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL$REC1?limit=2" --signature-out "$sigf")
is "$(jq -r .status <<<"$res")" 200 "paid read with @x402/fetch: 200"
is "$(jq -r '.body.routedBoons | length' <<<"$res")" 2 "the body: limit 2 honoured"
is_json "$(jq -c '.body.pagination' <<<"$res")" '{"limit":2,"offset":0,"total":4,"hasMore":true}' "the body: pagination"
is "$(jq -r '.body | keys | join(",")' <<<"$res")" "contract,identityResolution,interpretation,pagination,routedBoons,version" \
	"the body: the record members of the recognitions read"
is "$(jq -r '.body.routedBoons[0] | keys | join(",")' <<<"$res")" \
	"accounts,blockNumber,blockTimestamp,boonBurned,contextRef,contract,endpointGratuityUsdc,endpointPayTo,id,logIndex,networkGratuityUsdc,networkPayTo,routeId,tipper,txHash" \
	"a routed recognition has the Boon record members"
is "$(jq -c '.body.routedBoons[0] | [.routeId, .tipper, .endpointPayTo, .endpointGratuityUsdc, .networkPayTo, .networkGratuityUsdc, .boonBurned]' <<<"$res")" \
	"[\"$ROUTE_1\",\"0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f\",\"$PAY_A\",\"10000\",\"$NET_C\",\"5000\",\"100000000000000000000000\"]" \
	"the newest first: route, tipper (EIP-55), recipients and amounts as decimal strings"
like "$(jq -r '.body.routedBoons[0] | [.blockNumber, .blockTimestamp, .logIndex] | join(" ")' <<<"$res")" '^[0-9]+ [0-9]{10} [0-9]+$' \
	"block number, timestamp and log index as decimal strings"
is "$(jq -r '.paymentResponse.success' <<<"$res")" true "PAYMENT-RESPONSE decodes: success"
like "$(jq -r '.paymentResponse.transaction' <<<"$res")" '^0x[0-9a-f]{64}$' "PAYMENT-RESPONSE: the transaction hash"
is "$(jq -r '.paymentResponse.network' <<<"$res")" eip155:8453 "PAYMENT-RESPONSE: network"
is "$(jq -r '.paymentResponse.payer' <<<"$res")" "$PAYER" "PAYMENT-RESPONSE: payer"
tx=$(jq -r '.paymentResponse.transaction' <<<"$res")
is "$(rpc eth_getTransactionReceipt "[\"$tx\"]" | jq -r .status)" 0x1 "the settlement transaction succeeded onchain"
is "$(balance $PAYER)" 990000 "USDC moved from the payer (-10000)"
is "$(balance $PAYTO)" 10000 "USDC moved to payTo (+10000)"
is "$(ledger)" "settled x402.route_recognitions -" "the ledger row is settled"
is "$(sql "SELECT CONCAT('0x', LOWER(HEX(tx_hash))) FROM x402_payments")" "$tx" "the ledger records the transaction"

# ---- the same payment again: refused, nothing moves
sig=$(cat "$sigf")
req GET "$REC1?limit=2" -H "PAYMENT-SIGNATURE: $sig"
check_error 402 payment_already_used "the same PAYMENT-SIGNATURE again"
ok $([ -n "$(header payment-required)" ] && echo 0 || echo 1) "replay: a fresh PAYMENT-REQUIRED"
is "$(balance $PAYER),$(balance $PAYTO)" "990000,10000" "replay: no second transfer"

# ---- the payment shown on another route: refused
req GET "$R1" -H "PAYMENT-SIGNATURE: $sig"
check_error 402 payment_mismatch "a payment for one route shown to another"
like "$(jqr .message)" "another resource URL" "cross-route: the message says why"
req GET "$REC1?limit=3" -H "PAYMENT-SIGNATURE: $sig"
check_error 402 payment_mismatch "a payment shown with another query"

# ---- malformed and tampered
req GET "$REC1" -H "PAYMENT-SIGNATURE: not*base64"
check_error 402 invalid_payment "PAYMENT-SIGNATURE that is not base64"
like "$(jqr .message)" base64 "not base64: the message says so"
ok $([ -n "$(header payment-required)" ] && echo 0 || echo 1) "malformed: a fresh PAYMENT-REQUIRED"
req GET "$REC1" -H "PAYMENT-SIGNATURE: $(printf '{"x402Version":2}' | base64 -w0)"
check_error 402 invalid_payment "a payload without accepted and payload"
like "$(jqr .message)" 'lacks its member' "incomplete: the message names the problem"
req GET "$REC1" -H "PAYMENT-SIGNATURE: $(printf '{"x402Version":2,"x402Version":2}' | base64 -w0)"
check_error 402 invalid_payment "duplicate member names"
tampered=$(b64d "$sig" | jq -c '.payload.authorization.nonce = "0x'"$(printf '%064d' 7)"'"' | base64 -w0)
req GET "$REC1?limit=2" -H "PAYMENT-SIGNATURE: $tampered"
check_error 402 invalid_payment "a tampered authorization (nonce changed)"
like "$(jqr .message)" 'signature' "tampered: the signature does not match"
cheap=$(b64d "$sig" | jq -c '.accepted.amount = "1"' | base64 -w0)
req GET "$REC1?limit=2" -H "PAYMENT-SIGNATURE: $cheap"
check_error 402 payment_mismatch "accepted with another price"
is "$(balance $PAYER),$(balance $PAYTO)" "990000,10000" "no transfer for any refused payment"
is "$(sql "SELECT COUNT(*) FROM x402_payments")" 1 "refused payments leave no ledger rows"

# ---- the facilitator refuses (no funds)
res=$(node "$tools/pay.mjs" --key $KEY2 --url "$URL$R1")
is "$(jq -r .status <<<"$res")" 402 "a payer without USDC: 402"
like "$(sql "SELECT CONCAT(status, ' ', reason) FROM x402_payments WHERE endpoint_id = 'x402.route'")" '^failed [a-z_]+$' \
	"the ledger records the facilitator's reason code"

# ---- the paid route detail
res=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL$R1")
is "$(jq -r .status <<<"$res")" 200 "paid route detail: 200"
is "$(jq -r '.body.route.routeId' <<<"$res")" "$ROUTE_1" "detail: routeId"
is "$(jq -c '.body.route.recognition | [.routedBoonCount, .distinctTipperWalletCount, .endpointGratuityUsdc, .networkGratuityUsdc, .totalRecognitionUsdc, .boonBurned]' <<<"$res")" \
	'[4,2,"760000","5000","765000","400000000000000000000000"]' "detail: recognition totals"
is_json "$(jq -c '.body.route.reviewSummary' <<<"$res")" \
	'{"count":0,"boonBackedCount":0,"receiptVerifiedCount":0,"selfReportedCount":0,"distinctReviewerWalletCount":0,"latestReviewAt":null,"indexComplete":true}' \
	"detail: review summary (no reviews; the index is complete)"
is_json "$(jq -c '.body.route.receiptAuthority' <<<"$res")" '{"status":"not_observed","signer":null,"payTo":null,"sources":{"signer":null,"payTo":null}}' "detail: receiptAuthority (nothing observed, no sources)"
is "$(jq -r '.body.recognitionsUrl' <<<"$res")" "$URL$REC1" "detail: recognitionsUrl"
is "$(balance $PAYER),$(balance $PAYTO)" "980000,20000" "detail: one more 10000 moved"

# ---- the handler fails: no charge
UNKNOWN=0x$(printf '%064d' 1)
res=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL/api/v1/x402/routes/$UNKNOWN/recognitions")
is "$(jq -r .status <<<"$res")" 404 "a valid payment for an unknown route: the handler's 404"
is "$(jq -r .paymentResponse <<<"$res")" null "404: no PAYMENT-RESPONSE"
is "$(balance $PAYER),$(balance $PAYTO)" "980000,20000" "404: no balance moved"
is "$(sql "SELECT CONCAT(status, ' ', reason) FROM x402_payments WHERE resource_url LIKE '%$UNKNOWN%'")" \
	"released handler_failed" "404: the ledger row is released (not consumed)"

# ---- the facilitator is down: generic error, no charge
stop_facilitator
res=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL$REC1" --signature-out "$http_tmp/sig2")
is "$(jq -r .status <<<"$res")" 503 "facilitator down: 503"
is "$(jq -r .body.error <<<"$res")" payment_unavailable "facilitator down: error payment_unavailable"
ok $(jq -r .body.message <<<"$res" | grep -qiE 'fetch|connect|refused|127\.0|curl|facilitator' && echo 1 || echo 0) \
	"facilitator down: the message leaks no internals"
is "$(balance $PAYER),$(balance $PAYTO)" "980000,20000" "facilitator down: no balance moved"
ok $(grep -qi 'payment-signature\|eyJ' "$WAYMARK_VAR"/log/*.log 2>/dev/null && echo 1 || echo 0) \
	"no log holds a payment header or payload"
is "$(sql "SELECT CONCAT(status, ' ', reason) FROM x402_payments WHERE reason = 'verify_unavailable'")" \
	"released verify_unavailable" "facilitator down: the ledger row is released"

# ---- the facilitator is back: the released payment can be used once, on its URL
facilitator_start
sig2=$(cat "$http_tmp/sig2")
req GET "$REC1?limit=2" -H "PAYMENT-SIGNATURE: $sig2"
check_error 402 payment_mismatch "the released payment on another URL"
req GET "$REC1" -H "PAYMENT-SIGNATURE: $sig2"
is "$status" 200 "the released payment on its own URL: 200"
is "$(b64d "$(header payment-response)" | jq -r .success)" true "it settles now: PAYMENT-RESPONSE success"
is "$(header cache-control)" "private, no-store" "paid answer: Cache-Control private, no-store"
is "$(balance $PAYER),$(balance $PAYTO)" "970000,30000" "exactly one more transfer"
req GET "$REC1" -H "PAYMENT-SIGNATURE: $sig2"
check_error 402 payment_already_used "and never again"
is "$(balance $PAYER),$(balance $PAYTO)" "970000,30000" "no second transfer"

# ---- settlement refused after a real verify: 402, the handler's body dropped, nothing charged
stop_facilitator; facilitator_start --fault settle-refused
res=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL$R1")
is "$(jq -r .status <<<"$res")" 402 "settlement refused: 402"
is "$(jq -r .body.error <<<"$res")" settlement_failed "settlement refused: error settlement_failed"
is "$(jq -c '.paymentResponse | [.success, .errorReason, .transaction]' <<<"$res")" '[false,"invalid_transaction_state",""]' \
	"settlement refused: PAYMENT-RESPONSE success false with the reason code"
ok $(jq -r . <<<"$res" | grep -q 'Execution reverted' && echo 1 || echo 0) "settlement refused: the facilitator's message is not relayed"
ok $(jq -e '.body | has("route")' <<<"$res" >/dev/null && echo 1 || echo 0) "settlement refused: the paid body is not delivered"
is "$(sql "SELECT CONCAT(status, ' ', reason) FROM x402_payments WHERE reason LIKE '%invalid_transaction_state'")" \
	"failed settle:invalid_transaction_state" "settlement refused: the ledger row failed, with the facilitator's code"
is "$(balance $PAYER),$(balance $PAYTO)" "970000,30000" "settlement refused: no balance moved"

# ---- the facilitator vanishes during settlement: 503, the payment is never reused
stop_facilitator; facilitator_start --fault settle-down
res=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL$R1")
is "$(jq -r .status <<<"$res"),$(jq -r .body.error <<<"$res")" "503,payment_unavailable" "settlement unreachable: 503 payment_unavailable"
ok $(jq -e '.body | has("route")' <<<"$res" >/dev/null && echo 1 || echo 0) "settlement unreachable: the paid body is not delivered"
is "$(sql "SELECT CONCAT(status, ' ', reason) FROM x402_payments WHERE reason = 'settle_unknown'")" \
	"failed settle_unknown" "settlement unreachable: the ledger row failed (outcome unknown, never reused)"
is "$(balance $PAYER),$(balance $PAYTO)" "970000,30000" "settlement unreachable: no balance moved"

# ---- a settlement that times out at the service but lands (docs/ARCHITECTURE.md,
# Payment state machine). With anvil's automine off the facilitator's transfer
# waits in the pool: the service gets no answer within its timeout, asks the
# chain (nothing yet) and answers 503 outcome unknown; the block is mined; the
# identical request then finds the transfer on chain and is served, with
# exactly one transfer and no second settlement. While the first request
# still waits, the identical payment is held by it: 503 payment_in_progress.
stop_facilitator; facilitator_start
rpc evm_setAutomine '[false]' >/dev/null
rm -f "$http_tmp/sig3"
node "$tools/pay.mjs" --key $KEY1 --url "$URL$REC1?limit=3" --signature-out "$http_tmp/sig3" > "$http_tmp/res3" &
first=$!
holding() { [ -s "$http_tmp/sig3" ] && [ "$(sql "SELECT status FROM x402_payments WHERE resource_url LIKE '%limit=3'")" = reserved ]; }
n=0; until holding || [ $n -ge 300 ]; do n=$((n + 1)); sleep 0.02; done
req GET "$REC1?limit=3" -H "PAYMENT-SIGNATURE: $(cat "$http_tmp/sig3")"
is "$status,$(jqr .error)" "503,payment_in_progress" \
	"the identical payment while its first request holds it: 503 payment_in_progress"
like "$(header retry-after)" '^[1-5]$' "  with Retry-After of at most 5 seconds"
like "$(jqr .message)" 'identical request again after Retry-After' "  which says to send the identical request again"
wait $first
res=$(cat "$http_tmp/res3")
rpc evm_mine '[]' >/dev/null
rpc evm_setAutomine '[true]' >/dev/null
is "$(jq -r .status <<<"$res"),$(jq -r .body.error <<<"$res")" "503,payment_unavailable" \
	"settlement timed out at the service: 503, outcome unknown"
like "$(jq -r .body.message <<<"$res")" 'not known yet.*same payment \(PAYMENT-SIGNATURE' "  which says to send the identical request again"
ok $(jq -e '.body | has("routedBoons")' <<<"$res" >/dev/null && echo 1 || echo 0) "  and nothing was served"
is "$(balance $PAYER),$(balance $PAYTO)" "960000,40000" "the transfer landed once the block was mined"
is "$(sql "SELECT status FROM x402_payments WHERE resource_url LIKE '%limit=3'")" failed "  the ledger says unknown (failed, settle_unknown)"
# The payer and nonce are public on chain now: the same authorization under a
# signature of a contract wallet's length (not checked locally) is another
# payment, and must be served nothing from this row.
forged=$(b64d "$(cat "$http_tmp/sig3")" | jq -c --arg s "0x$(printf 'ab%.0s' $(seq 66))" '.payload.signature = $s' | base64 -w0)
req GET "$REC1?limit=3" -H "PAYMENT-SIGNATURE: $forged"
is "$status,$(jqr .error)" "402,payment_already_used" "the same (payer, nonce) under another signature: refused, not served"
req GET "$REC1?limit=3" -H "PAYMENT-SIGNATURE: $(cat "$http_tmp/sig3")"
is "$status" 200 "the identical request: 200, served from the chain's answer"
is "$(b64d "$(header payment-response)" | jq -r .success)" true "  with PAYMENT-RESPONSE success"
tx3=$(b64d "$(header payment-response)" | jq -r .transaction)
is "$(rpc eth_getTransactionReceipt "[\"$tx3\"]" | jq -r '.status')" 0x1 \
	"  naming the transaction the chain shows for the transfer ($tx3)"
is "$(sql "SELECT LOWER(HEX(tx_hash)) FROM x402_payments WHERE resource_url LIKE '%limit=3'")" "${tx3#0x}" \
	"  which the ledger row records"
is "$(jq -r '.routedBoons | length' <<<"$body")" 3 "  and the paid body (limit 3)"
is "$(balance $PAYER),$(balance $PAYTO)" "960000,40000" "  exactly one transfer: no second settlement"
is "$(sql "SELECT status FROM x402_payments WHERE resource_url LIKE '%limit=3'")" settled "  the ledger row is settled"
is "$(sql "SELECT reason FROM x402_payments WHERE resource_url LIKE '%limit=3'")" late_settled \
	"  settled from the chain's answer (late_settled)"
# Its header can now be rebuilt by anyone from the transfer's calldata: the
# identical request is answered again until validBefore, so whoever races the
# payer reads at most what the payer bought, and the payer is never refused.
req GET "$REC1?limit=3" -H "PAYMENT-SIGNATURE: $(cat "$http_tmp/sig3")"
is "$status,$(jq -r '.routedBoons | length' <<<"$body")" "200,3" \
	"the identical request again while the authorization is valid: served again (a fresh read)"
is "$(balance $PAYER),$(balance $PAYTO)" "960000,40000" "  and nothing more is charged"

# ---- payments-reconcile: a stranded row settled from the chain, and the payer's
# identical retry then served (a settlement learnt from the chain serves it until
# an hour past validBefore; lib/paystate.h)
rpc evm_setAutomine '[false]' >/dev/null
res=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL$REC1?limit=4" --signature-out "$http_tmp/sig4")
rpc evm_mine '[]' >/dev/null
rpc evm_setAutomine '[true]' >/dev/null
is "$(jq -r .status <<<"$res")" 503 "another settlement times out: 503"
is "$(sql "SELECT CONCAT(status, ' ', reason) FROM x402_payments WHERE resource_url LIKE '%limit=4'")" \
	"failed settle_unknown" "  its row is stranded with an unknown outcome"
rec=$("$WAYMARK_BUILD/waymark" -c "$WAYMARK_VAR/waymark.conf" payments-reconcile 0)
ok $? "waymark payments-reconcile runs"
like "$rec" '^payments: [1-9][0-9]* settled from the chain' "  and settles from the chain ($rec)"
is "$(sql "SELECT status, LENGTH(tx_hash) FROM x402_payments WHERE resource_url LIKE '%limit=4'")" "$(printf 'settled\t32')" \
	"  the stranded row is settled, with the transaction found on chain"
is "$(balance $PAYER),$(balance $PAYTO)" "950000,50000" "  one transfer for it, as the chain says"
req GET "$REC1?limit=4" -H "PAYMENT-SIGNATURE: $(cat "$http_tmp/sig4")"
is "$status,$(jq -r '.routedBoons | length' <<<"$body")" "200,4" \
	"the payer's identical retry after the reconcile: 200, the paid body (limit 4)"
is "$(b64d "$(header payment-response)" | jq -r '[.success, .transaction] | join(",")')" \
	"true,0x$(sql "SELECT LOWER(HEX(tx_hash)) FROM x402_payments WHERE resource_url LIKE '%limit=4'")" \
	"  with PAYMENT-RESPONSE success naming the transaction the reconcile recorded"
is "$(balance $PAYER),$(balance $PAYTO),$(sql "SELECT CONCAT(status, ' ', reason) FROM x402_payments WHERE resource_url LIKE '%limit=4'")" \
	"950000,50000,settled late_settled" "  nothing more charged; the row stays settled late_settled"
rec=$("$WAYMARK_BUILD/waymark" -c "$WAYMARK_VAR/waymark.conf" payments-reconcile 0)
like "$rec" '^payments: 0 settled from the chain' "a second run finds nothing more to settle ($rec)"

# ---- the settlement's ledger write fails (as on a database node that died
# with it, its commit unknown). Once: it is written once more and the read is
# served with its transaction. Twice: 503 outcome unknown, the row still
# reserved; the identical request is held (503 payment_in_progress) until the
# reservation counts as abandoned, then served from the chain's answer, with
# the transaction; charged once either way. A MyISAM counter, which the
# refused statement's rollback leaves alone, lets the trigger refuse N times.
settle_write_fails() {
	mariadb --defaults-file="$WAYMARK_VAR/my.cnf" -uroot <<SQL
CREATE TABLE IF NOT EXISTS t_settle_fault (id INT PRIMARY KEY, n INT NOT NULL) ENGINE=MyISAM;
REPLACE INTO t_settle_fault VALUES (1, $1);
DROP TRIGGER IF EXISTS fail_settle;
DELIMITER //
CREATE TRIGGER fail_settle BEFORE UPDATE ON x402_payments FOR EACH ROW
	IF NEW.status = 'settled' AND (SELECT n FROM t_settle_fault WHERE id = 1) > 0 THEN
		UPDATE t_settle_fault SET n = n - 1 WHERE id = 1;
		SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'test: settled write refused';
	END IF//
DELIMITER ;
SQL
}
paid=$(( $(balance $PAYER) ))
settle_write_fails 1
ok $? "the next move of a payment to settled will be refused once"
res=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL$REC1?limit=5")
tx5=$(jq -r .paymentResponse.transaction <<<"$res")
is "$(jq -r .status <<<"$res"),$(jq -r '.body | has("routedBoons")' <<<"$res")" "200,true" \
	"the settled write failed once: written again, the read is served"
is "$(sql "SELECT CONCAT(status, ' ', LOWER(HEX(tx_hash))), (SELECT n FROM t_settle_fault) FROM x402_payments WHERE resource_url LIKE '%limit=5'")" \
	"$(printf 'settled %s\t0' "${tx5#0x}")" "  the row is settled with its transaction, after one refusal"
is "$(( paid - $(balance $PAYER) ))" 10000 "  charged once"
ok $(grep -q 'settlement.s write failed (settled); writing it once more' "$WAYMARK_VAR"/log/*.log && echo 0 || echo 1) \
	"  the worker logged the second write"

paid=$(balance $PAYER)
settle_write_fails 2
res=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL$REC1?limit=6" --signature-out "$http_tmp/sig6")
is "$(jq -r .status <<<"$res"),$(jq -r .body.error <<<"$res")" "503,payment_unavailable" \
	"both settled writes failed: 503, outcome unknown"
ok $(jq -e '.body | has("routedBoons")' <<<"$res" >/dev/null && echo 1 || echo 0) "  nothing was served"
is "$(( paid - $(balance $PAYER) )),$(sql "SELECT status FROM x402_payments WHERE resource_url LIKE '%limit=6'")" \
	"10000,reserved" "  the transfer happened; the row stays reserved"
sql "DROP TRIGGER fail_settle; DROP TABLE t_settle_fault"
req GET "$REC1?limit=6" -H "PAYMENT-SIGNATURE: $(cat "$http_tmp/sig6")"
is "$status,$(jqr .error)" "503,payment_in_progress" "the identical request: held, 503 payment_in_progress"
sql "UPDATE x402_payments SET updated_at = updated_at - INTERVAL 1 DAY WHERE resource_url LIKE '%limit=6'"
req GET "$REC1?limit=6" -H "PAYMENT-SIGNATURE: $(cat "$http_tmp/sig6")"
tx6=$(b64d "$(header payment-response)" | jq -r .transaction)
is "$status,$(jq -r 'has("routedBoons")' <<<"$body")" "200,true" \
	"once the reservation counts as abandoned: served from the chain's answer"
is "$(rpc eth_getTransactionReceipt "[\"$tx6\"]" | jq -r .status),$(sql "SELECT CONCAT(status, ' ', LOWER(HEX(tx_hash))) FROM x402_payments WHERE resource_url LIKE '%limit=6'")" \
	"0x1,settled ${tx6#0x}" "  naming the transfer's transaction, which the row records"
is "$(( paid - $(balance $PAYER) ))" 10000 "  charged once"

# ---- a facilitator that settles and then answers success false (it broadcast the
# transfer, then failed): the refusal is checked against the chain, so the payer,
# who was charged, is served, once.
stop_facilitator; facilitator_start --fault settle-lands-refused
paid=$(balance $PAYER)
res=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL$REC1?limit=7" --signature-out "$http_tmp/sig7")
tx7=$(jq -r .paymentResponse.transaction <<<"$res")
is "$(jq -r '[.status, (.body | has("routedBoons")), .paymentResponse.success] | join(",")' <<<"$res")" "200,true,true" \
	"settled, then refused by the facilitator: the chain shows the transfer, so the read is served, PAYMENT-RESPONSE success"
is "$(rpc eth_getTransactionReceipt "[\"$tx7\"]" | jq -r .status),$(sql "SELECT CONCAT(status, ' ', reason, ' ', LOWER(HEX(tx_hash))) FROM x402_payments WHERE resource_url LIKE '%limit=7'")" \
	"0x1,settled late_settled ${tx7#0x}" "  the row is settled from the chain, naming the transfer's transaction"
is "$(( paid - $(balance $PAYER) ))" 10000 "  charged once"
req GET "$REC1?limit=7" -H "PAYMENT-SIGNATURE: $(cat "$http_tmp/sig7")"
is "$status,$(( paid - $(balance $PAYER) ))" "200,10000" "  the identical request again, while valid: served again, nothing more charged"

# ---- payments-reconcile revisits refusals and expires what can no longer land.
# A refusal recorded although its transfer landed (as when the transfer mines
# after the request's own look at the chain): the row of limit=7 put back to
# what such a request would have written. And an unknown outcome whose
# authorization is past validBefore and unused on chain: the settle-down row.
sql "UPDATE x402_payments SET status = 'failed', reason = 'settle:unexpected_settle_error', tx_hash = NULL WHERE resource_url LIKE '%limit=7'"
sql "UPDATE x402_payments SET valid_before = UNIX_TIMESTAMP() - 3600 WHERE reason = 'settle_unknown'"
is "$(sql "SELECT COUNT(*) FROM x402_payments WHERE reason = 'settle_unknown'")" 1 "one row of unknown outcome is left (the settle-down read)"
rec=$("$WAYMARK_BUILD/waymark" -c "$WAYMARK_VAR/waymark.conf" payments-reconcile 0)
like "$rec" '^payments: 1 settled from the chain, 1 void or expired' "payments-reconcile: one refused row settled, one expired ($rec)"
is "$(sql "SELECT CONCAT(status, ' ', reason, ' ', LOWER(HEX(tx_hash))) FROM x402_payments WHERE resource_url LIKE '%limit=7'")" \
	"settled late_settled ${tx7#0x}" "  the refused row whose transfer landed is settled, with its transaction"
is "$(sql "SELECT CONCAT(status, ' ', reason) FROM x402_payments WHERE reason IN ('settle_unknown', 'expired_unsettled')")" \
	"failed expired_unsettled" "  the unknown one past validBefore, unused on chain: failed expired_unsettled"

# ---- the per-request deadline (lib/paystate.h, paystate_settle_fits): /settle
# starts only while its whole timeout, and what may follow it, fits before
# nginx stops waiting. No slow facilitator brings a request there (its /verify
# takes at most its own timeout, which the budget allows for); a worker that
# stalls does. The workers again with rpc_timeout_ms and sigcheck_timeout_ms
# 100 and db_timeout 1 (facilitator_timeout_ms stays 3000, which /verify
# needs on a busy machine): /settle may start until 3000 + 100 + 1000 + 4000 =
# 8100 ms into a request. A paid read is held at its ledger reservation by a
# table lock taken here, which a loop in the locking session sees waited on;
# the remote pool's workers are stopped (SIGSTOP), the lock let go, and once
# the budget has passed they go on: 503 with the deadline's message, /verify
# but no /settle at the facilitator, nothing charged, the row released; the
# identical request then settles.
stop_facilitator; facilitator_start
ok $? "a facilitator that settles again"
budget_ms=8100
WAYMARK_RPC_TIMEOUT_MS=100 WAYMARK_SIGCHECK_TIMEOUT_MS=100 WAYMARK_DB_TIMEOUT=1 \
	"$top/tools/stack" workers-restart >/dev/null
ok $? "the workers restart with short timeouts: /settle may start until $budget_ms ms into a request"
coproc LOCKER { mariadb --defaults-file="$WAYMARK_VAR/my.cnf" -uroot -N -B --unbuffered 2>&1; }
printf '%s\n' "LOCK TABLES x402_payments WRITE; SELECT 'locked';" >&"${LOCKER[1]}"
read -r -t 10 line <&"${LOCKER[0]}"
is "$line" locked "the ledger table is locked"
paid=$(balance $PAYER)
curl -s -X POST "http://127.0.0.1:$fport/_stats/reset" >/dev/null
node "$tools/pay.mjs" --key $KEY1 --url "$URL$REC1?limit=8" --signature-out "$http_tmp/sig8" > "$http_tmp/res8" &
pj=$!
# At most 10 s for another session of this database to wait on the lock.
cat >&"${LOCKER[1]}" <<'SQL'
DELIMITER //
BEGIN NOT ATOMIC
	DECLARE n INT DEFAULT 0;
	WHILE n < 1000 AND NOT EXISTS (SELECT 1 FROM information_schema.PROCESSLIST WHERE DB = DATABASE()
	    AND ID <> CONNECTION_ID() AND STATE = 'Waiting for table metadata lock') DO
		DO SLEEP(0.01);
		SET n = n + 1;
	END WHILE;
	SELECT IF(n < 1000, 'waited on', 'not waited on');
END//
DELIMITER ;
SQL
read -r -t 15 line <&"${LOCKER[0]}"
workers=$(pgrep -P "$(cat "$WAYMARK_VAR/run/workers-remote.pid")" | paste -sd' ')
kill -STOP $workers
is "$line" "waited on" "the paid read waits at its reservation; the remote workers are stopped ($workers)"
printf '%s\n' "UNLOCK TABLES; SELECT 'unlocked';" >&"${LOCKER[1]}"
read -r -t 10 line <&"${LOCKER[0]}"
# The stall itself: no event to wait for, it is the time going by.
sleep "$(printf '%d.%03d' $(( (budget_ms + 200) / 1000 )) $(( (budget_ms + 200) % 1000 )))"
kill -CONT $workers
is "$line" unlocked "  the lock is let go while they are stopped; they go on past the budget"
exec {LOCKER[1]}>&-
wait "$LOCKER_PID"
wait $pj
res=$(cat "$http_tmp/res8")
is "$(jq -r '[.status, .body.error] | join(",")' <<<"$res")" "503,payment_unavailable" \
	"a paid read past the per-request deadline: 503 payment_unavailable"
like "$(jq -r .body.message <<<"$res")" 'took too long to be settled .*nothing was settled or charged. Send it again with the same payment' \
	"  which says why, that nothing was charged, and to send it again"
ok $(jq -e '.body | has("routedBoons")' <<<"$res" >/dev/null && echo 1 || echo 0) "  nothing was served"
is "$(curl -s "http://127.0.0.1:$fport/_stats" | jq -r '[.calls.verify, .calls.settle] | join(",")')" 1,0 \
	"  the facilitator verified the payment and was never asked to settle it"
is "$(( paid - $(balance $PAYER) )),$(sql "SELECT CONCAT(status, ' ', reason) FROM x402_payments WHERE resource_url LIKE '%limit=8'")" \
	"0,released handler_failed" "  nothing charged; the ledger row released"
ok $(grep -q 'x402.route_recognitions: [0-9]* ms taken, too late to settle; nothing charged' "$WAYMARK_VAR"/log/*.log && echo 0 || echo 1) \
	"  the worker logged the time taken"
"$top/tools/stack" workers-restart >/dev/null
ok $? "the workers restart with this file's timeouts"
req GET "$REC1?limit=8" -H "PAYMENT-SIGNATURE: $(cat "$http_tmp/sig8")"
is "$status,$(jq -r '.routedBoons | length' <<<"$body"),$(b64d "$(header payment-response)" | jq -r .success)" "200,4,true" \
	"the identical request then: 200, the paid body, PAYMENT-RESPONSE success"
is "$(( paid - $(balance $PAYER) )),$(sql "SELECT CONCAT(status, ' ', IFNULL(reason, '-')) FROM x402_payments WHERE resource_url LIKE '%limit=8'")" \
	"10000,settled -" "  charged once; the row settled"

# ---- failed payment attempts are metered per client address (lib/paymeter.h):
# the workers again with 10 failures a minute. From 127.0.0.7: junk payments
# with a 65-byte signature are refused locally and reach no facilitator; junk
# with a long signature (a contract wallet's, which only the facilitator can
# check) is refused by its /verify; within the limit (twice it, should the
# minute end during the burst) the address gets 429 with Retry-After, before
# 50 facilitator calls by far. Another address is not limited by it.
WAYMARK_PAYMENT_FAILURES_PER_MIN=10 "$top/tools/stack" workers-restart >/dev/null
ok $? "the workers restart with payment_failures_per_min 10"
base=$(b64d "$(cat "$http_tmp/sig7")")
rnd=$(od -An -N28 -tx1 /dev/urandom | tr -d ' \n')
junk() { # junk N SIGBYTES: a payment for limit=7 with nonce N, validBefore 50 s ahead, and a junk signature
	jq -c --arg n "0x$rnd$(printf '%08x' "$1")" --arg vb "$(( $(date +%s) + 50 ))" --arg s "0x$(printf 'ab%.0s' $(seq "$2"))" \
		'.payload.authorization.nonce = $n | .payload.authorization.validBefore = $vb | .payload.signature = $s' <<<"$base" | base64 -w0
}
curl -s -X POST "http://127.0.0.1:$fport/_stats/reset" >/dev/null
codes=
for i in 1 2 3 4; do
	req GET "$REC1?limit=7" --interface 127.0.0.7 -H "PAYMENT-SIGNATURE: $(junk $i 65)"
	codes="$codes $status:$(jqr .error)"
done
is "$codes" "$(printf ' 402:invalid_payment%.0s' 1 2 3 4)" "four payments with a junk 65-byte signature: 402 invalid_payment each"
is "$(curl -s "http://127.0.0.1:$fport/_stats" | jq -r '[.calls.verify, .calls.settle] | join(",")')" 0,0 "  none reached the facilitator"
n=0
while [ $n -lt 25 ]; do
	n=$((n + 1))
	req GET "$REC1?limit=7" --interface 127.0.0.7 -H "PAYMENT-SIGNATURE: $(junk $((100 + n)) 100)"
	[ "$status" = 402 ] || break
done
is "$status,$(jqr .error)" "429,rate_limited" "then junk with a 100-byte signature: 429 rate_limited after $n (within twice the limit)"
like "$n" '^([1-9]|1[0-9]|20)$' "  at the latest at the 20th"
like "$(header retry-after)" '^([1-9]|[1-5][0-9]|60)$' "  with Retry-After: the seconds left in the minute"
like "$(jqr .message)" 'failed payments came from this address' "  and a message that says why"
calls=$(curl -s "http://127.0.0.1:$fport/_stats" | jq .calls.verify)
ok "$([ "$calls" -eq $((n - 1)) ] && [ "$calls" -le 19 ] && echo 0 || echo 1)" \
	"  the facilitator verified only the long ones before the cut-off ($calls calls)"
req GET "$REC1?limit=7" --interface 127.0.0.7 -H "PAYMENT-SIGNATURE: $(junk 200 100)"
is "$status,$(curl -s "http://127.0.0.1:$fport/_stats" | jq .calls.verify)" "429,$calls" "  one more from that address: 429, no facilitator call"
req GET "$REC1?limit=7" --interface 127.0.0.8 -H "PAYMENT-SIGNATURE: $(junk 201 65)"
is "$status,$(jqr .error)" "402,invalid_payment" "another address is not limited by it"
is "$(sql "SELECT SUM(failures) >= 10 FROM payment_failures WHERE client = UNHEX('7f000007')"),$(sql "SELECT SUM(failures) FROM payment_failures WHERE client = UNHEX('7f000008')")" \
	"1,1" "  the counts, per address"

# ---- payments-reconcile deletes failed and released rows long expired (never a
# settled one, nor one of unknown outcome), and past minutes' counts.
sql "UPDATE x402_payments SET valid_before = valid_before - 30 * 86400 WHERE status IN ('failed', 'released') AND reason <> 'expired_unsettled'"
sql "UPDATE payment_failures SET minute = minute - 60"
old=$(sql "SELECT COUNT(*) FROM x402_payments WHERE status IN ('failed', 'released') AND reason <> 'expired_unsettled'")
settled=$(sql "SELECT COUNT(*) FROM x402_payments WHERE status = 'settled'")
rec=$("$WAYMARK_BUILD/waymark" -c "$WAYMARK_VAR/waymark.conf" payments-reconcile 0)
like "$rec" ", $old old failed or released rows deleted\$" "payments-reconcile deletes the $old failed or released rows expired 30 days ago ($rec)"
is "$(sql "SELECT COUNT(*) FROM x402_payments WHERE status = 'settled'"),$(sql "SELECT COUNT(*) FROM x402_payments WHERE reason = 'expired_unsettled'"),$(sql "SELECT COUNT(*) FROM payment_failures")" \
	"$settled,1,0" "  the settled rows and the one expired this week stay; the past minutes' counts are gone"
done_testing
