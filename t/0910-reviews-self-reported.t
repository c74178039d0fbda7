#!/usr/bin/env bash
# self_reported (V3) reviews, paid publication ($0.05) on a real chain with
# the real facilitator (t/tools/facilitator.mjs) and the real paying client
# (@x402/fetch, t/tools/pay.mjs); reviews signed with viem
# (t/tools/sign-review-v3.mjs). Every review rule is refused with a 400 or
# 409 before any payment is asked; a paid publication moves USDC once; a
# publication interrupted after settlement (a real database failure: a
# trigger refusing the final write) answers 202 and the identical retry
# publishes without a second charge; self_reported volume never changes
# discovery order while boon_backed does.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
. "$(dirname "$0")/lib/http.sh"
. "$(dirname "$0")/lib/x402.sh"
fport=$((WAYMARK_TEST_PORT_BASE + 71))
cport=$((WAYMARK_TEST_PORT_BASE + 72))
PAYTO=0x5555555555555555555555555555555555555555
KEY1=0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d    # the payer, anvil #1
PAYER=0x70997970C51812dc3A010C7d01b50e0d17dc79C8
export WAYMARK_SEED=0 WAYMARK_CONFIRMATIONS=0
export WAYMARK_FACILITATOR_URL=http://127.0.0.1:$fport WAYMARK_PAY_TO=$PAYTO
export WAYMARK_CATALOG_URL=http://127.0.0.1:$cport
chain_stack selfrev 70
ok $? "a stack with a local chain starts"
tools=$top/t/tools
fpid=; cpid=
trap 'kill $fpid $cpid 2>/dev/null; rm -rf "$http_tmp"; "$top/tools/stack" stop >/dev/null 2>&1' EXIT
WAYMARK_TEST_URL=$URL
node "$tools/catalog-fixture.mjs" "$cport" 40 > "$http_tmp/fixture.out" &
cpid=$!
facilitator_start; ok $? "the x402 facilitator listens"
n=0; until grep -q ready "$http_tmp/fixture.out" 2>/dev/null || [ $n -ge 3000 ]; do n=$((n + 1)); sleep 0.02; done
WAYMARK_CONFIG=$WAYMARK_VAR/waymark.conf "$WAYMARK_BUILD/waymark" catalog-sync >/dev/null
chain_id=$(jq -r .chainId "$STATE"); companion=$(jq -r .companion "$STATE")
P=/api/v1/x402/reviews/self-reported

mint $PAYER 1000000
is "$(balance $PAYER),$(balance $PAYTO)" "1000000,0" "the payer holds 1 USDC, payTo nothing"

# The weather routes of the fixture with the lowest and highest route IDs
# among equals (the v2 listings, "Service N (weather forecast)", whose texts
# score the same for q=weather), each recognized once with the same amounts.
equals='[.candidates[] | select(.title | startswith("Service "))]'
req GET "/api/v1/x402/discovery?q=weather&limit=20"
first=$(jqr "$equals[0].routeId"); last=$(jqr "$equals[-1].routeId")
ok $([ -n "$first" ] && [ "$first" \< "$last" ] && echo 0 || echo 1) "two weather listings of the same shape, in route-ID order"
send --from-key $KEY8 --route "$first" --endpoint $PAY_A --endpoint-usdc 100 >/dev/null
send --from-key $KEY8 --route "$last" --endpoint $PAY_A --endpoint-usdc 100 >/dev/null
wait_indexed "$(head_block)"; ok $? "both routes recognized and indexed"
req GET "/api/v1/x402/discovery?q=weather&limit=20"
order0=$(jqr '[.candidates[].routeId] | join(",")')
unrec=0x$(printf 'cd%.0s' $(seq 32))

now=$(date +%s)
sign() { node "$tools/sign-review-v3.mjs" "$1" "$chain_id" "$companion" "$2" "$3" "$4" "${5:-}"; }
addr_of() { node -e 'const {privateKeyToAccount}=require(process.argv[1]);console.log(privateKeyToAccount(process.argv[2]).address)' "$tools/node_modules/viem/_cjs/accounts/index.js" "$1"; }
post() { req POST "$P" -H 'Content-Type: application/json' --data-binary "$1"; }
pay() { # pay BODY [SIGFILE]: the real client, paying with KEY1
	printf '%s' "$1" > "$http_tmp/bundle"
	node "$tools/pay.mjs" --key $KEY1 --url "$URL$P" --body "$http_tmp/bundle" --signature-out "${2:-$http_tmp/sig}"
}
pubs() { sql "SELECT state FROM review_publications ORDER BY created_at" | tr '\n' ' '; }

# ---- unpaid: 402 at $0.05
good=$(sign $KEY7 "$last" "$now" "Answered every forecast call in under 300 ms; one 502 on a retry.")
post "$good"
check_error 402 payment_required "a valid review without payment"
pr=$(printf '%s' "$(header payment-required)" | base64 -d)
is "$(jq -r '.accepts[0].amount' <<<"$pr")" 50000 "the challenge asks 50000 (\$0.05)"
is "$(jq -r .resource.url <<<"$pr")" "$URL$P" "the challenge is bound to the publication URL"
is "$(pubs)" "" "an unpaid request reserves nothing"

# ---- everything refused before a payment is asked (no 402, nothing moves)
check400() { # check400 BODY FIELD DESCRIPTION
	post "$1"
	is "$status,$(jqr .error),$(jqr .field)" "400,invalid_field,$2" "$3: 400 naming $2 before payment"
}
check400 "$(sign $KEY8 "$last" "$now" "Signed by another wallet." "$(addr_of $KEY7)")" signature "wrong signer"
check400 "$(sign $KEY7 "$last" $((now - 90000)) "Signed too long ago.")" review.createdAt "createdAt older than 24 hours"
check400 "$(sign $KEY7 "$last" $((now + 3600)) "Signed in the future.")" review.createdAt "createdAt in the future"
check400 "$(sign $KEY7 "$last" "$now" $'two\nlines')" review.reviewText "multiline text"
check400 "$(sign $KEY7 "$last" "$now" "$(printf 'x%.0s' $(seq 1001))")" review.reviewText "1001-byte text"
check400 "$(sign $KEY7 "$last" "$now" $'bell\a here')" review.reviewText "a control character"
check400 "$(sign $KEY7 "$last" "$now" $'bidi \xe2\x81\xa6 here')" review.reviewText "a bidirectional isolate"
for lb in $'\xc2\x85' $'\xe2\x80\xa8' $'\xe2\x80\xa9'; do # NEL, LINE and PARAGRAPH SEPARATOR
	check400 "$(sign $KEY7 "$last" "$now" "one${lb}two")" review.reviewText \
		"a line break ($(printf '%s' "$lb" | od -An -tx1 | tr -d ' \n'))"
done
check400 "$(sign $KEY7 "$unrec" "$now" "A route nobody recognized.")" review.routeId "an unrecognized route"
# A contract wallet's signature would cost an RPC call: an unrecognized route
# is refused before it is looked at (the route check comes first).
check400 "$(sign $KEY7 "$unrec" "$now" "A contract signature for no route." | jq -c --arg s "0x$(printf 'cd%.0s' $(seq 100))" '.signature = $s')" \
	review.routeId "a contract-wallet signature on an unrecognized route: refused on the route, before any signature check"
check400 "$(jq -c '.review.version = 3' <<<"$good")" review.version "version as a number"
check400 "$(jq -c '.review.policyVersion = "boon.x402-review-policy/v2"' <<<"$good")" review.policyVersion "another policy version"
check400 "$(jq -c '.review.extra = 1' <<<"$good")" review.extra "an undeclared review field"
check400 "$(jq -c 'del(.review.reviewer)' <<<"$good")" review.reviewer "a missing review field"
check400 "$(jq -c '.signature = .signature[0:130]' <<<"$good")" signature "a 64-byte signature"
res=$(pay "$(sign $KEY7 "$unrec" "$now" "Paid for an unrecognized route.")")
is "$(jq -r '.status' <<<"$res")" 400 "the paying client on an unrecognized route: 400, it never pays"
is "$(balance $PAYER)" 1000000 "no USDC moved for the refused reviews"

# ---- a valid paid publication
res=$(pay "$good")
is "$(jq -r .status <<<"$res")" 201 "paid publication with @x402/fetch: 201"
is "$(jq -r '.body | [.version, .evidenceKind, .verification.rankingEligible, .verification.reviewerSignatureKind, .verification.publicationCharge] | join(" ")' <<<"$res")" \
	"boon.x402-review/v3 self_reported false eoa usd_0.05" "record: v3, self_reported, never ranked, EOA, \$0.05"
is "$(jq -r '[.body.routeId, .body.reviewer.wallet, .body.recognition, .body.receipt] | join(" ")' <<<"$res")" \
	"$last $(addr_of $KEY7)  " "record: route, reviewer wallet, no recognition and no receipt"
is "$(jq -r .paymentResponse.success <<<"$res")" true "PAYMENT-RESPONSE: success"
is "$(balance $PAYER),$(balance $PAYTO)" "950000,50000" "50000 USDC moved once"
is "$(pubs)" "published " "the publication record is published"
res=$(pay "$good")
is "$(jq -r '.status, .paymentResponse' <<<"$res" | tr '\n' ' ')" "200 null " "the identical bundle again: 200 without any payment"
res=$(pay "$(sign $KEY7 "$last" "$now" "A second opinion from the same wallet.")")
is "$(jq -r '.status, .body.error' <<<"$res" | tr '\n' ' ')" "409 already_reviewed " "a duplicate (same wallet and route): 409 before payment"
is "$(balance $PAYER)" 950000 "the duplicate moved no USDC"
is "$(pubs)" "published " "the refused bundles left no records"

# ---- a failed authorization cleans up: the lane stays open
b8=$(sign $KEY8 "$last" "$now" "Works, but the docs list a field the answer never has.")
printf '%s' "$b8" > "$http_tmp/b8"
res=$(node "$tools/pay.mjs" --key 0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a --url "$URL$P" --body "$http_tmp/b8")
is "$(jq -r .status <<<"$res")" 402 "paid by a wallet without USDC: the authorization fails (402)"
is "$(pubs)" "published " "the failed authorization's record was removed (cancel_pending, cleaned up)"

# ---- interrupted after settlement: 202, then the identical retry publishes without recharge
final_write_fails
ok $? "a trigger makes the final write (state published) fail, as a database fault would"
res=$(pay "$b8" "$http_tmp/sig8")
is "$(jq -r '.status, .body.retryWithoutRecharge, .body.status' <<<"$res" | tr '\n' ' ')" "202 true settled_pending " \
	"settled but the final write failed: 202, retryWithoutRecharge"
tx=$(jq -r .body.receipt.transaction <<<"$res")
like "$tx" '^0x[0-9a-f]{64}$' "the 202 carries the settlement receipt"
is "$(jq -r .paymentResponse.transaction <<<"$res")" "$tx" "and PAYMENT-RESPONSE the same transaction"
is "$(balance $PAYER)" 900000 "50000 USDC moved"
is "$(pubs)" "published settled_pending " "the record is settled_pending"
is "$(sql "SELECT COUNT(*) FROM reviews WHERE lane = 'self_reported'")" 1 "the review is not published yet"
req GET "/api/site/x402/routes/$last/reviews"
is "$(jqr .reviewSummary.selfReportedCount)" 1 "the public source does not show it"
post "$b8"
is "$status,$(jqr .retryWithoutRecharge),$(jqr .receipt.transaction)" "202,true,$tx" \
	"the bundle again without its payment: the 202 and the receipt, not a 402 inviting a new payment"
final_write_works
req POST "$P" -H 'Content-Type: application/json' -H "PAYMENT-SIGNATURE: $(cat "$http_tmp/sig8")" --data-binary "$b8"
is "$status,$(jqr .evidenceKind)" "201,self_reported" "the identical retry with the same authorization publishes it"
is "$(printf '%s' "$(header payment-response)" | base64 -d | jq -r .transaction)" "$tx" "its PAYMENT-RESPONSE repeats the one settlement"
is "$(balance $PAYER),$(balance $PAYTO)" "900000,100000" "no second charge: USDC moved exactly once for it"
is "$(pubs)" "published published " "the record is published"
req POST "$P" -H 'Content-Type: application/json' -H "PAYMENT-SIGNATURE: $(cat "$http_tmp/sig8")" --data-binary "$b8"
is "$status" 200 "the same again: 200, the published review"
req POST "$P" -H 'Content-Type: application/json' -H "PAYMENT-SIGNATURE: $(cat "$http_tmp/sig8")" \
	--data-binary "$(sign $KEY8 "$first" "$now" "Another review on the paid-for authorization.")"
is "$status,$(jqr .error)" "402,payment_already_used" "that authorization buys no other review"
is "$(balance $PAYER)" 900000 "nothing moved"

# ---- the lane paid over MPP (the unchanged mppx client), with its 202 and resume on that rail
b7=$(sign $KEY7 "$first" "$now" "Paid over MPP: the forecast matched what the sky did.")
printf '%s' "$b7" > "$http_tmp/b7"
final_write_fails
res=$(node "$top/t/mpp/pay.mjs" --key $KEY1 --url "$URL$P" --body "$http_tmp/b7" --credential-out "$http_tmp/cred7")
is "$(jq -r '.status, .body.retryWithoutRecharge, .receipt.status' <<<"$res" | tr '\n' ' ')" "202 true success " \
	"over MPP, settled but the final write failed: 202 with a Payment-Receipt"
tx=$(jq -r .body.receipt.transaction <<<"$res")
is "$(jq -r .receipt.reference <<<"$res")" "$tx" "the receipt names the settlement transaction of the 202"
is "$(balance $PAYER),$(balance $PAYTO)" "850000,150000" "0.05 USDC moved once, to payTo"
final_write_works
cred7=$(cat "$http_tmp/cred7")
req POST "$P" -H 'Content-Type: application/json' -H "Authorization: $cred7" --data-binary "$b7"
is "$status,$(jqr .evidenceKind)" "201,self_reported" "the identical retry with the same credential publishes it"
rc=$(header payment-receipt | tr -- '-_' '+/'); while [ $((${#rc} % 4)) != 0 ]; do rc="$rc="; done
is "$(base64 -d <<<"$rc" | jq -r .reference)" "$tx" "its Payment-Receipt repeats the one settlement"
is "$(balance $PAYER),$(balance $PAYTO)" "850000,150000" "no second charge"
req POST "$P" -H 'Content-Type: application/json' -H "Authorization: $cred7" \
	--data-binary "$(sign 0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a "$last" "$now" "Another body under the same MPP credential.")"
is "$status,$(jqr .error)" "402,payment_mismatch" "the credential with another body: 402 payment_mismatch (its digest binds the body)"
is "$(balance $PAYER)" 850000 "nothing moved"

# ---- self_reported volume never changes discovery order; boon_backed does
# (the suite's workers recheck their discovery corpus on every request)
req GET "/api/v1/x402/discovery?q=weather&limit=20"
is "$(jqr '[.candidates[].routeId] | join(",")')" "$order0" "two self_reported reviews on one route: discovery order unchanged"
is "$(jqr "$equals[0].routeId")" "$first" "the route with self_reported reviews is not moved first among equals"
rec=$(send --from-key $KEY7 --route "$last" --endpoint $PAY_A --endpoint-usdc 100)
wait_indexed "$(jq -r .blockNumber <<<"$rec")"
req GET "/api/v1/x402/discovery?q=weather&limit=20"
order1=$(jqr '[.candidates[].routeId] | join(",")')
v1=$(node "$tools/sign-review.mjs" $KEY7 "$chain_id" "$companion" "$last" "$(jq -r .txHash <<<"$rec")" "$(jq -r .logIndex <<<"$rec")" "$now" "Recognized and reviewed: fast forecasts.")
req POST /api/v1/x402/reviews -H 'Content-Type: application/json' --data-binary "$v1"
is "$status" 201 "a boon_backed review of the same route"
req GET "/api/v1/x402/discovery?q=weather&limit=20"
is "$(jqr "$equals[0].routeId")" "$last" "boon_backed evidence moves it first among equals"
ok $([ "$(jqr '[.candidates[].routeId] | join(",")')" != "$order1" ] && echo 0 || echo 1) "so boon_backed changes the order"
done_testing
