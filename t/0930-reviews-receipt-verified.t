#!/usr/bin/env bash
# receipt_verified (V2) reviews, paid publication ($0.01) on a real chain
# with the real facilitator and paying client (@x402/fetch). The route's
# receipt authority is pinned only from an official x402 offer-receipt
# extension the catalog listed (handlers/authority.h): a route context, even
# one its endpoint's payTo signed, pins nothing. The official offer and receipt
# and the review are signed with viem (t/tools/sign-review-v2.mjs). Every
# rule is refused before payment; a valid publication moves USDC once; each
# receipt backs one review; one review per payer and route; V2 volume never
# changes discovery order.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
. "$(dirname "$0")/lib/http.sh"
. "$(dirname "$0")/lib/x402.sh"
fport=$((WAYMARK_TEST_PORT_BASE + 96))
cport=$((WAYMARK_TEST_PORT_BASE + 97))
PAYTO=0x5555555555555555555555555555555555555555
KEY0=0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80   # the endpoint: payTo and receipt signer
KEY1=0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d   # pays for publications
KEY5=0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba   # another key
PAYER=0x70997970C51812dc3A010C7d01b50e0d17dc79C8
export WAYMARK_SEED=0 WAYMARK_CONFIRMATIONS=0
export WAYMARK_FACILITATOR_URL=http://127.0.0.1:$fport WAYMARK_PAY_TO=$PAYTO
export WAYMARK_CATALOG_URL=http://127.0.0.1:$cport
tools=$top/t/tools
RURL=https://api.example.com/v1/forecast
node "$tools/catalog-fixture.mjs" "$cport" 4 offers > "$http_tmp/fixture.out" &
cpid=$!
n=0; until grep -q ready "$http_tmp/fixture.out" 2>/dev/null || [ $n -ge 3000 ]; do n=$((n + 1)); sleep 0.02; done
chain_stack receiptrev 95
ok $? "a stack with a local chain starts"
fpid=
trap 'kill $fpid $cpid 2>/dev/null; rm -rf "$http_tmp"; "$top/tools/stack" stop >/dev/null 2>&1' EXIT
WAYMARK_TEST_URL=$URL
facilitator_start; ok $? "the x402 facilitator listens"
chain_id=$(jq -r .chainId "$STATE"); companion=$(jq -r .companion "$STATE")
viem=$tools/node_modules/viem/_cjs
addr_of() { node -e 'const {privateKeyToAccount}=require(process.argv[1]);console.log(privateKeyToAccount(process.argv[2]).address)' "$viem/accounts/index.js" "$1"; }
ADDR0=$(addr_of $KEY0); ADDR7=$(addr_of $KEY7); ADDR8=$(addr_of $KEY8)
ROUTE=0x4fa0fcdb54475d7e8c02c5fd1e4ffac0f2b5997975e9be2988a1d5759f8e6af0   # GET https://api.example.com/v1/forecast
ROUTE2=0x$(printf 'ab%.0s' $(seq 32))                                       # recognized, never described
P=/api/v1/x402/reviews/receipt-verified

mint $PAYER 1000000
is "$(balance $PAYER),$(balance $PAYTO)" "1000000,0" "the payer holds 1 USDC, payTo nothing"

out=$(send --from-key $KEY7 --route $ROUTE --endpoint "$ADDR0" --endpoint-usdc 10000)
send --from-key $KEY7 --route $ROUTE2 --endpoint "$ADDR0" --endpoint-usdc 10000 >/dev/null
wait_indexed "$(head_block)"
ok $? "routed recognitions are indexed (tipper #7, endpoint #0)"

now=$(date +%s)
# sign JQ: a V2 body from the base spec changed by the jq program given.
sign() {
	node "$tools/sign-review-v2.mjs" "$(jq -cn --argjson c "$chain_id" --arg co "$companion" --arg r $ROUTE \
		--arg u $RURL --arg s $KEY0 --arg k $KEY7 --argjson t "$now" \
		'{chainId: $c, companion: $co, routeId: $r, url: $u, serviceKey: $s, reviewerKey: $k,
		  createdAt: $t, issuedAt: ($t - 60), text: "Forecast answered in 180 ms; the receipt matched the offer."}' |
		jq -c "${1:-.}")"
}
post() { printf '%s' "$1" > "$http_tmp/req"; req POST "$P" -H 'Content-Type: application/json' --data-binary "@$http_tmp/req"; }
pay() { # pay BODY: the real client, paying with KEY1
	printf '%s' "$1" > "$http_tmp/bundle"
	node "$tools/pay.mjs" --key $KEY1 --url "$URL$P" --body "$http_tmp/bundle"
}
pubs() { sql "SELECT state FROM review_publications ORDER BY created_at" | tr '\n' ' '; }
refused() { # refused BODY STATUS ERROR FIELD DESCRIPTION
	post "$1"
	is "$status,$(jqr .error),$(jqr .field)" "$2,$3,$4" "$5: $2 $3 naming $4, before payment"
}

# ---- no receipt authority observed yet: unavailable
good=$(sign)
refused "$good" 409 receipt_authority_not_observed review.routeId "no pinned receipt authority (not_observed)"
req GET "/api/v1/x402/routes/$ROUTE"
is "$status" 402 "the route record is a paid read"
rec=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL/api/v1/x402/routes/$ROUTE")
is "$(jq -c '.body.route.receiptAuthority | [.status, .signer, .payTo]' <<<"$rec")" '["not_observed",null,null]' \
	"route record: receiptAuthority not_observed"
is "$(balance $PAYER)" 990000 "(that read cost 0.01)"

# ---- the endpoint wallet publishes a route context: signer = payTo = that wallet
created=$((now - 600)); expires=$((now + 86400))
note=$(jq -cn --argjson c $created --argjson e $expires --arg u $RURL '{version: "1",
	route: {publicEndpointUrl: $u, method: "GET"},
	intent: "Returns a 7-day weather forecast for a latitude and longitude.",
	fit: "Use when an agent needs a forecast for one place.", limits: ["Land areas only."],
	requestSchemaUri: null, documentationUri: null, contextUris: [], createdAt: $c, expiresAt: $e}')
ctx=$(jq -cn --arg k $KEY0 --argjson n "$note" '{key: $k, note: $n}' | node "$tools/gen-route-context.mjs" body)
printf '%s' "$ctx" > "$http_tmp/ctx"
req POST /api/v1/x402/route-contexts -H 'Content-Type: application/json' --data-binary "@$http_tmp/ctx"
is "$status,$(jqr .routeId)" "201,$ROUTE" "the endpoint wallet publishes its route context"
refused "$good" 409 receipt_authority_not_observed review.routeId \
	"a route context signed by the endpoint's payTo pins nothing (it is not the offer-receipt extension)"

# ---- the endpoint lists the route in the x402 catalog with its signed offer
kill $cpid; wait $cpid 2>/dev/null
: > "$http_tmp/fixture.out" # not left to the background redirect: the old "ready" must be gone first
node "$tools/catalog-fixture.mjs" "$cport" 4 offers --listing $RURL $KEY0 > "$http_tmp/fixture.out" &
cpid=$!
n=0; until grep -q ready "$http_tmp/fixture.out" 2>/dev/null || [ $n -ge 3000 ]; do n=$((n + 1)); sleep 0.02; done
WAYMARK_CONFIG=$WAYMARK_VAR/waymark.conf "$WAYMARK_BUILD/waymark" catalog-sync >/dev/null
ok $? "the catalog with the route's listing is synced"
rec=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL/api/v1/x402/routes/$ROUTE")
is "$(jq -c '.body.route.receiptAuthority | [.status, .signer, .payTo, .sources.signer, .sources.payTo]' <<<"$rec")" \
	"[\"available\",\"$ADDR0\",\"$ADDR0\",\"catalog_offer\",\"catalog_offer\"]" \
	"route record: receiptAuthority available, pinned from the listing's signed x402 offer"

# ---- refused before payment
check400() { refused "$1" 400 invalid_field "$2" "$3"; }
check422() { refused "$1" 422 evidence_unverified "$2" "$3"; }
post "$good"
check_error 402 payment_required "a valid V2 review without payment"
pr=$(printf '%s' "$(header payment-required)" | base64 -d)
is "$(jq -r '.accepts[0].amount' <<<"$pr")" 10000 "the challenge asks 10000 (\$0.01)"
check422 "$(sign '.receiptKey = "'$KEY5'" | .offerKey = "'$KEY5'"')" evidence.offer.signature "offer and receipt signed by another key"
check422 "$(sign '.receiptKey = "'$KEY5'"')" evidence.receipt.signature "a receipt signed by another key"
check422 "$(sign '.payTo = "'$PAYTO'"')" evidence.offer.payload.payTo "an offer paying another wallet"
check422 "$(sign '.payer = "'$ADDR8'"')" signature "a payer who is not the reviewer"
check422 "$(sign '.receiptUrl = "https://api.example.com/v1/forecast2" | .offerUrl = "https://api.example.com/v1/forecast2"')" \
	evidence.receipt.payload.resourceUrl "the wrong route (another URL)"
check422 "$(sign '.receiptUrl = "https://api.example.com/v1/other"')" evidence.receipt.payload.resourceUrl "offer and receipt for different URLs"
check422 "$(sign '.network = "eip155:84532"')" evidence.receipt.payload.network "another network"
check422 "$(sign '.issuedAt = .createdAt + 3600')" evidence.receipt.payload.issuedAt "a receipt issued after the review"
check422 "$(sign '.validUntil = .createdAt - 3600')" evidence.receipt.payload.issuedAt "a receipt issued after the offer expired"
check400 "$(sign '.createdAt -= 90000 | .issuedAt = .createdAt')" review.createdAt "createdAt older than 24 hours"
check400 "$(sign '.createdAt += 3600')" review.createdAt "createdAt in the future"
check400 "$(sign '.text = "two\nlines"')" review.reviewText "multiline text"
check400 "$(sign ".text = \"$(printf 'x%.0s' $(seq 1001))\"")" review.reviewText "1001-byte text"
check400 "$(sign '.text = "bell\u0007 here"')" review.reviewText "a control character"
check400 "$(sign '.text = "bidi \u202e here"')" review.reviewText "a bidirectional override"
for lb in 0085 2028 2029; do # NEL, LINE and PARAGRAPH SEPARATOR
	check400 "$(sign ".text = \"one\\u${lb}two\"")" review.reviewText "a line break U+$lb"
done
check400 "$(sign '.receiptDigest = "0x'"$(printf '12%.0s' $(seq 32))"'"')" review.receiptDigest "a receiptDigest that is not the receipt's"
refused "$(sign '.routeId = "'$ROUTE2'"')" 409 receipt_authority_not_observed review.routeId "a recognized route without receipt authority"
check400 "$(sign '.routeId = "0x'"$(printf 'cd%.0s' $(seq 32))"'"')" review.routeId "an unrecognized route"
check400 "$(jq -c '.review.extra = 1' <<<"$good")" review.extra "an undeclared review field"
check400 "$(jq -c '.evidence.receipt.payload.payer = "nobody"' <<<"$good")" evidence.receipt.payload.payer "a malformed receipt payer"
like "$(jqr .message)" 'evidence\.receipt\.payload\.payer' "  the message names evidence.receipt.payload.payer"
check400 "$(jq -c '.signature = "0x123"' <<<"$good")" signature "an odd-length signature"
check400 "$(jq -c '.signature = .signature[0:130]' <<<"$good")" signature "a 64-byte (compact) signature"
refused "$(jq -c '.evidence.extra = 1' <<<"$good")" 400 unknown_field evidence "an undeclared evidence member"
refused "$(jq -c 'del(.evidence)' <<<"$good")" 400 missing_field evidence "no evidence"
is "$(balance $PAYER),$(balance $PAYTO)" "980000,20000" "no USDC moved for the refused reviews (only the two route reads)"
is "$(pubs)" "" "and no publication records were left"

# ---- a valid paid publication
res=$(pay "$good")
is "$(jq -r .status <<<"$res")" 201 "paid publication with @x402/fetch: 201"
is "$(jq -r '.body | [.version, .evidenceKind, .verification.rankingEligible, .verification.reviewerSignatureKind, .verification.receiptPayerBinding, .verification.serviceSignerAuthorization, .verification.publicationCharge] | join(" ")' <<<"$res")" \
	"boon.x402-review/v2 receipt_verified false eoa verified pinned_at_publication usd_0.01" \
	"record: v2, receipt_verified, never ranked, EOA, payer binding verified, signer pinned, \$0.01"
digest=$(jq -r .review.receiptDigest <<<"$good")
is "$(jq -c '.body.receipt | [.routeId, .digest, .resourceUrl, .network, .payer, .payTo, .amount, .serviceSigner, .transaction]' <<<"$res")" \
	"[\"$ROUTE\",\"$digest\",\"$RURL\",\"eip155:8453\",\"$ADDR7\",\"$ADDR0\",\"10000\",\"$ADDR0\",null]" \
	"record: the receipt (route, digest, URL, network, payer, payTo, amount, service signer)"
is "$(jq -c '.body.verification.receiptAuthority | [.signer, .payTo, .sources.signer]' <<<"$res")" \
	"[\"$ADDR0\",\"$ADDR0\",\"catalog_offer\"]" "record: the pins and their source, as at publication"
is "$(jq -r '.body.reviewer.wallet' <<<"$res")" "$ADDR7" "the reviewer is the receipt's payer"
is "$(balance $PAYER),$(balance $PAYTO)" "970000,30000" "10000 USDC moved once"
is "$(pubs)" "published " "the publication record is published"
res=$(pay "$good")
is "$(jq -r '.status, .paymentResponse' <<<"$res" | tr '\n' ' ')" "200 null " "the identical bundle again: 200 without any payment"

# ---- each receipt once; one review per payer and route
res=$(pay "$(sign '.text = "A second review on the same receipt."')")
is "$(jq -r '.status, .body.error, .body.field' <<<"$res" | tr '\n' ' ')" "409 receipt_already_used review.receiptDigest " \
	"a reused receipt digest: 409 before payment"
res=$(pay "$(sign '.issuedAt -= 30 | .text = "Another receipt, same payer and route."')")
is "$(jq -r '.status, .body.error' <<<"$res" | tr '\n' ' ')" "409 already_reviewed " "a second review by the same payer on the route: 409"
is "$(balance $PAYER)" 970000 "the duplicates moved no USDC"
is "$(pubs)" "published " "and left no records"

# ---- interrupted after settlement: 202; the scheduled task publishes it; no second charge
final_write_fails
ok $? "a trigger makes the final write (state published) fail, as a database fault would"
b8=$(sign '.reviewerKey = "'$KEY8'" | .text = "Second wallet: the answer matched the receipt and the offer."')
printf '%s' "$b8" > "$http_tmp/b8"
res=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL$P" --body "$http_tmp/b8" --signature-out "$http_tmp/sig8")
is "$(jq -r '.status, .body.retryWithoutRecharge, .body.publicationStatus' <<<"$res" | tr '\n' ' ')" "202 true settled_pending " \
	"settled but the final write failed: 202, retryWithoutRecharge"
is "$(balance $PAYER),$(balance $PAYTO)" "960000,40000" "its 10000 USDC moved"
is "$(pubs)" "published settled_pending " "the record is settled_pending"
post "$b8"
is "$status,$(jqr .retryWithoutRecharge)" "202,true" "the bundle without its payment: the 202 again, never a 402"
final_write_works
out=$(WAYMARK_CONFIG=$WAYMARK_VAR/waymark.conf "$WAYMARK_BUILD/waymark" publications-complete 0)
is "$out" "publications: 1 completed, 0 not completed" "the scheduled task (waymark publications-complete) publishes it"
is "$(pubs)" "published published " "the record is published"
req POST "$P" -H 'Content-Type: application/json' -H "PAYMENT-SIGNATURE: $(cat "$http_tmp/sig8")" --data-binary "@$http_tmp/b8"
is "$status,$(jqr .evidenceKind),$(jqr .reviewer.wallet)" "200,receipt_verified,$ADDR8" \
	"the identical retry with the same authorization: 200, the published review"
is "$(balance $PAYER),$(balance $PAYTO)" "960000,40000" "no second charge"
out=$(WAYMARK_CONFIG=$WAYMARK_VAR/waymark.conf "$WAYMARK_BUILD/waymark" publications-complete 0)
is "$out" "publications: 0 completed, 0 not completed" "the task again: nothing left to do"

# ---- a route whose catalog challenge carries a signed x402 offer: pinned from the catalog
WAYMARK_CONFIG=$WAYMARK_VAR/waymark.conf "$WAYMARK_BUILD/waymark" catalog-sync >/dev/null
CURL=https://api0.weather.example.com/v2/weather-forecast
CROUTE=0x$(sql "SELECT LOWER(HEX(route_id)) FROM catalog_resources WHERE resource_url = '$CURL'")
is "$(sql "SELECT LOWER(HEX(offer_signer)) FROM catalog_resources WHERE resource_url = '$CURL'")" \
	"$(printf '%s' "${ADDR0#0x}" | tr 'A-F' 'a-f')" "catalog-sync stores the signer of the listing's signed offer"
out=$(send --from-key $KEY7 --route $CROUTE --endpoint $PAY_A --endpoint-usdc 100)
wait_indexed "$(jq -r .blockNumber <<<"$out")"
rec=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL/api/v1/x402/routes/$CROUTE")
is "$(jq -c '.body.route.receiptAuthority | [.status, .signer, .payTo, .sources.signer]' <<<"$rec")" \
	"[\"available\",\"$ADDR0\",\"0x0000000000000000000000000000000000000001\",\"catalog_offer\"]" \
	"route record: receiptAuthority pinned from the catalog's signed offer"
req GET "/api/v1/x402/discovery?limit=20"
order0=$(jqr '[.candidates[].routeId] | join(",")')
like "$order0" ".+,${CROUTE}" "discovery lists the catalog route, not first (so a reviews-first order would move it)"
cat=$(sign '.routeId = "'$CROUTE'" | .url = "'$CURL'" | .payTo = "0x0000000000000000000000000000000000000001" | .amount = "1000" | .text = "Catalog-listed forecast; receipt signed by the listed key."')
res=$(pay "$cat")
is "$(jq -r '.status, .body.verification.receiptAuthority.sources.signer, .body.receipt.payTo' <<<"$res" | tr '\n' ' ')" \
	"201 catalog_offer 0x0000000000000000000000000000000000000001 " "a V2 review checked against the catalog pins: 201"
res=$(pay "$(sign '.routeId = "'$CROUTE'" | .url = "'$CURL'" | .reviewerKey = "'$KEY8'" | .text = "Offer paying the endpoint wallet instead."')")
is "$(jq -r '.status, .body.field' <<<"$res" | tr '\n' ' ')" "422 evidence.offer.payload.payTo " \
	"an offer whose payTo is not the catalog's pinned payTo: 422"

# ---- the facilitator vanishes during /settle: the outcome is unknown, then the chain decides
usdc_now() { balance $PAYER; }
facilitator_start --fault settle-down
before=$(usdc_now)
bA=$(sign '.reviewerKey = "'$KEY5'" | .text = "Facilitator vanished while settling; the chain has the last word."')
printf '%s' "$bA" > "$http_tmp/bA"
res=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL$P" --body "$http_tmp/bA" --signature-out "$http_tmp/sigA")
is "$(jq -r '.status, .body.error' <<<"$res" | tr '\n' ' ')" "503 payment_unavailable " "settlement outcome unknown: a generic 503"
like "$(jq -r .body.message <<<"$res")" 'not known yet.*same payment \(PAYMENT-SIGNATURE' "  which says to send the identical request again"
is "$(usdc_now)" "$before" "nothing moved (the facilitator never settled)"
is "$(sql "SELECT state, payer IS NOT NULL FROM review_publications WHERE state <> 'published'" | tr '\t' ' ')" \
	"reserved_unpaid 1" "the record is kept, bound to that payment"
res=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL$P" --body "$http_tmp/bA")
is "$(jq -r '.status, .body.error' <<<"$res" | tr '\n' ' ')" "409 already_reviewed " \
	"a second payment for the same bundle meanwhile: 409, it cannot take the record"
is "$(usdc_now)" "$before" "and it moved nothing"
# The facilitator's transfer lands after all (submitted here, as it would have).
st=$(node "$tools/settle-direct.mjs" --rpc "$RPC" --usdc "$USDC" --header "$http_tmp/sigA")
is "$(jq -r .status <<<"$st")" success "the authorization is settled on chain, outside waymark"
req POST "$P" -H 'Content-Type: application/json' -H "PAYMENT-SIGNATURE: $(cat "$http_tmp/sigA")" --data-binary "@$http_tmp/bA"
is "$status,$(jqr .evidenceKind),$(jqr .reviewer.wallet)" "201,receipt_verified,$(addr_of $KEY5)" \
	"the identical retry: the chain shows the payment used, so the review is published"
is "$(usdc_now)" "$((before - 10000))" "10000 USDC moved exactly once"
# The facilitator comes back before anything settled: the retry settles it now.
before=$(usdc_now)
bB=$(sign '.routeId = "'$CROUTE'" | .url = "'$CURL'" | .payTo = "0x0000000000000000000000000000000000000001" | .amount = "1000" | .reviewerKey = "'$KEY5'" | .text = "Second try after the facilitator came back."')
printf '%s' "$bB" > "$http_tmp/bB"
res=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL$P" --body "$http_tmp/bB" --signature-out "$http_tmp/sigB")
is "$(jq -r .status <<<"$res")" 503 "again the facilitator vanishes during /settle: 503"
facilitator_start
req POST "$P" -H 'Content-Type: application/json' -H "PAYMENT-SIGNATURE: $(cat "$http_tmp/sigB")" --data-binary "@$http_tmp/bB"
is "$status,$(jqr .evidenceKind)" "201,receipt_verified" "the identical retry: the authorization was unused, so it is settled now and published"
like "$(printf '%s' "$(header payment-response)" | base64 -d | jq -r .transaction)" '^0x[0-9a-f]{64}$' "  with the settlement in PAYMENT-RESPONSE"
is "$(usdc_now)" "$((before - 10000))" "10000 USDC moved exactly once"
req POST "$P" -H 'Content-Type: application/json' -H "PAYMENT-SIGNATURE: $(cat "$http_tmp/sigB")" --data-binary "@$http_tmp/bB"
is "$status" 200 "once more: 200, the published review, no charge"
is "$(usdc_now)" "$((before - 10000))" "nothing more moved"

# The payer cancels the authorization meanwhile: its nonce is used, but it never paid.
facilitator_start --fault settle-down
before=$(usdc_now)
bC=$(sign '.routeId = "'$CROUTE'" | .url = "'$CURL'" | .payTo = "0x0000000000000000000000000000000000000001" | .amount = "1000" | .reviewerKey = "'$KEY8'" | .text = "The payer canceled the authorization after the outage."')
printf '%s' "$bC" > "$http_tmp/bC"
res=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL$P" --body "$http_tmp/bC" --signature-out "$http_tmp/sigC")
is "$(jq -r .status <<<"$res")" 503 "a third outage during /settle: 503"
st=$(node "$tools/settle-direct.mjs" --rpc "$RPC" --usdc "$USDC" --header "$http_tmp/sigC" --cancel $KEY1)
is "$(jq -r .status <<<"$st")" success "the payer cancels that authorization on chain"
facilitator_start
req POST "$P" -H 'Content-Type: application/json' -H "PAYMENT-SIGNATURE: $(cat "$http_tmp/sigC")" --data-binary "@$http_tmp/bC"
is "$status,$(jqr .error)" "402,payment_rejected" "the identical retry: the nonce was used without paying, so nothing is published"
is "$(sql "SELECT COUNT(*) FROM review_publications WHERE state <> 'published'")" 0 "and the record is released"
res=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL$P" --body "$http_tmp/bC")
is "$(jq -r .status <<<"$res")" 201 "a new payment for the same review publishes it"
is "$(usdc_now)" "$((before - 10000))" "10000 USDC moved, once"
# The client never comes back: the scheduled task asks the chain itself.
KEY6=0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e
facilitator_start --fault settle-down
before=$(usdc_now)
bD=$(sign '.reviewerKey = "'$KEY6'" | .text = "Published by the scheduled task after the outage."')
printf '%s' "$bD" > "$http_tmp/bD"
res=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL$P" --body "$http_tmp/bD" --signature-out "$http_tmp/sigD")
is "$(jq -r .status <<<"$res")" 503 "a fourth outage during /settle: 503"
st=$(node "$tools/settle-direct.mjs" --rpc "$RPC" --usdc "$USDC" --header "$http_tmp/sigD")
is "$(jq -r .status <<<"$st")" success "the transfer lands on chain"
out=$(WAYMARK_CONFIG=$WAYMARK_VAR/waymark.conf "$WAYMARK_BUILD/waymark" publications-complete 0)
is "$out" "publications: 1 completed, 0 not completed" \
	"waymark publications-complete sees the payment on chain and publishes the review, no retry needed"
is "$(sql "SELECT COUNT(*) FROM reviews WHERE reviewer = UNHEX('$(printf '%s' "$(addr_of $KEY6)" | cut -c3- | tr 'A-F' 'a-f')')")" 1 \
	"the review is published"
is "$(usdc_now)" "$((before - 10000))" "10000 USDC moved, once"
facilitator_start
req POST "$P" -H 'Content-Type: application/json' -H "PAYMENT-SIGNATURE: $(cat "$http_tmp/sigD")" --data-binary "@$http_tmp/bD"
is "$status" 200 "the client's late identical retry: 200, the published review, no charge"
is "$(usdc_now)" "$((before - 10000))" "nothing more moved"

req GET "/api/v1/x402/discovery?limit=20"
is "$(jqr '[.candidates[].routeId] | join(",")')" "$order0" \
	"receipt_verified reviews (five more, three on the catalog route) never change discovery order"

# ---- the paid and free reads show it in its own lane
req GET "/api/site/x402/routes/$ROUTE/reviews"
is "$(jqr '[.reviewSummary.receiptVerifiedCount, .reviewSummary.boonBackedCount, .reviewSummary.count] | join(",")')" "4,0,4" \
	"the free review source counts it as receipt_verified"
is "$(jqr '.reviews[0].evidenceKind')" receipt_verified "and lists it with its evidence kind"
rec=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL/api/v1/x402/routes/$ROUTE/reviews")
is "$(jq -r "[.body.reviews[].receipt.digest] | index(\"$digest\") != null" <<<"$rec")" true "the paid route reviews read carries the receipt"
req GET "/api/v1/x402/discovery?q=forecast"
is "$(jqr "[.candidates[] | select(.routeId == \"$ROUTE\") | .reviews[].evidenceKind] | join(\",\")")" receipt_verified,receipt_verified,receipt_verified,receipt_verified \
	"discovery shows the review in the receipt_verified lane"
done_testing
