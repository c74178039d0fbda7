#!/usr/bin/env bash
# boon_backed (V1) reviews on a real chain: the tipper of an indexed routed
# recognition signs an EIP-712 X402Review (viem); every rejection rule;
# the free review source; reviews in discovery candidates with their
# sourceUrl; discovery order changed by boon_backed evidence; the reviewer
# filter. Every discovery response is checked against the schema.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
export WAYMARK_SEED=0 WAYMARK_CONFIRMATIONS=0
fport=$((WAYMARK_TEST_PORT_BASE + 51))
export WAYMARK_CATALOG_URL=http://127.0.0.1:$fport
export WAYMARK_PUBLIC_BASE_URL=https://api.waymark.example.com
chain_stack reviews 50
node "$top/t/tools/catalog-fixture.mjs" "$fport" 40 > "$WAYMARK_VAR/fixture.out" &
fixture_pid=$!
trap 'kill $fixture_pid 2>/dev/null; "$top/tools/stack" stop >/dev/null 2>&1' EXIT
n=0; until grep -q ready "$WAYMARK_VAR/fixture.out" || [ $n -ge 1000 ]; do n=$((n + 1)); sleep 0.02; done
WAYMARK_CONFIG=$WAYMARK_VAR/waymark.conf "$WAYMARK_BUILD/waymark" catalog-sync >/dev/null
chain_id=$(jq -r .chainId "$STATE"); companion=$(jq -r .companion "$STATE")
viem=$top/t/tools/node_modules/viem/_cjs/index.js
rid_of() { node -e 'const {keccak256,toBytes}=require(process.argv[1]);const u=new URL(process.argv[3]);console.log(keccak256(toBytes(`boon:x402-route:v1\n${process.argv[2]}\n${u.origin}\n${u.pathname}`)))' "$viem" "$1" "$2"; }
# The weather routes of the fixture with the lowest and highest route IDs
# among equals: the v2 listings ("Service N (weather forecast)"), whose
# texts score the same for q=weather (the v1 ones have other texts).
get() { wreq GET "$URL$1"; printf '%s' "$body" > "$WAYMARK_VAR/body"; }
equals='[.candidates[] | select(.title | startswith("Service "))]'
get "/api/v1/x402/discovery?q=weather&limit=20"
first=$(jq -r "$equals[0].routeId" <<<"$body"); last=$(jq -r "$equals[-1].routeId" <<<"$body")
is "$(jq -r "$equals | length" <<<"$body")" 4 "four weather listings of the same shape"
ok $([ "$first" \< "$last" ] && echo 0 || echo 1) "without reviews they are in route-ID order"
rec=$(send --from-key $KEY7 --route "$last" --endpoint $PAY_A --endpoint-usdc 1000 --count 2)
other=$(send --from-key $KEY8 --route "$first" --endpoint $PAY_B --endpoint-usdc 5)
wait_indexed "$(printf '%s\n' "$rec" "$other" | jq -s 'map(.blockNumber) | max')"
tx=$(printf '%s\n' "$rec" | head -n1 | jq -r .txHash); li=$(printf '%s\n' "$rec" | head -n1 | jq -r .logIndex)
tx2=$(printf '%s\n' "$rec" | tail -n1 | jq -r .txHash); li2=$(printf '%s\n' "$rec" | tail -n1 | jq -r .logIndex)
now=$(date +%s)
sign() { node "$top/t/tools/sign-review.mjs" "$1" "$chain_id" "$companion" "$2" "$3" "$4" "$5" "$6"; }
post() { wreq POST "$URL/api/v1/x402/reviews" -H 'Content-Type: application/json' --data-binary "$1"
	printf '%s' "$body" > "$WAYMARK_VAR/body"; }
check() { # check STATUS CODE FIELD DESCRIPTION
	is "$status" "$1" "$4: status $1"
	is "$(jq -r .error <<<"$body")" "$2" "$4: error $2"
	[ -z "$3" ] || is "$(jq -r .field <<<"$body")" "$3" "$4: names $3"
}

good=$(sign $KEY7 "$last" "$tx" "$li" "$now" "Fast and correct forecasts; paid once and it answered in 200 ms.")
post "$good"
is "$status" 201 "a valid boon_backed review is published"
is "$(jq -r '.evidenceKind, .verification.reviewerWasTipper, .verification.reviewerSignatureKind' <<<"$body" | tr '\n' ' ')" \
	"boon_backed true eoa " "record: lane, tipper verified, EOA signature"
is "$(jq -r '.recognition.transactionHash, .recognition.logIndex, .recognition.totalRecognitionUsdc, .recognition.boonBurned' <<<"$body" | tr '\n' ' ')" \
	"$tx $li 1000 100000000000000000000000 " "record cites the recognition with its amounts and burn"
is "$(jq -r .reviewer.wallet <<<"$body" | tr 'A-F' 'a-f')" "$(node -e 'const {privateKeyToAccount}=require(process.argv[1]);console.log(privateKeyToAccount(process.argv[2]).address.toLowerCase())' "$top/t/tools/node_modules/viem/_cjs/accounts/index.js" $KEY7)" \
	"the reviewer is the signing wallet (made public by publishing)"
post "$good"
is "$status" 200 "the identical signed review again: 200, nothing new"
post "$(sign $KEY7 "$last" "$tx" "$li" "$now" "A different text for the same recognition.")"
check 409 already_reviewed "" "a second, different review of the same recognition"
post "$(sign $KEY8 "$last" "$tx2" "$li2" "$now" "Signed by someone who did not tip.")"
check 403 not_the_tipper signature "signed by a wallet that is not the tipper"
post "$(sign $KEY7 "$first" "$tx2" "$li2" "$now" "The wrong route for this recognition.")"
check 400 invalid_field review.routeId "a recognition cited on the wrong route"
post "$(sign $KEY7 "$last" 0x$(printf 'ab%.0s' $(seq 32)) 0 "$now" "No such recognition.")"
check 400 invalid_field review.recognitionTxHash "an unknown recognition"
post "$(sign $KEY7 "$last" "$tx2" "$li2" $((now - 90000)) "Signed too long ago.")"
check 400 invalid_field review.createdAt "createdAt older than 24 hours"
post "$(sign $KEY7 "$last" "$tx2" "$li2" $((now + 3600)) "Signed in the future.")"
check 400 invalid_field review.createdAt "createdAt in the future"
post "$(sign $KEY7 "$last" "$tx2" "$li2" "$now" $'two\nlines')"
check 400 invalid_field review.reviewText "multiline text"
post "$(sign $KEY7 "$last" "$tx2" "$li2" "$now" "$(printf 'x%.0s' $(seq 1001))")"
check 400 invalid_field review.reviewText "1001-byte text"
post "$(sign $KEY7 "$last" "$tx2" "$li2" "$now" "$(printf 'é%.0s' $(seq 501))")"
check 400 invalid_field review.reviewText "1002 bytes of two-byte characters"
post "$(sign $KEY7 "$last" "$tx2" "$li2" "$now" $'bell\a here')"
check 400 invalid_field review.reviewText "a control character"
post "$(sign $KEY7 "$last" "$tx2" "$li2" "$now" $'bidi \xe2\x80\xae here')"
check 400 invalid_field review.reviewText "a bidirectional override"
# Every line break is refused, as in the other lanes and the drafts:
# NEL (U+0085), LINE SEPARATOR (U+2028), PARAGRAPH SEPARATOR (U+2029).
for lb in $'\xc2\x85' $'\xe2\x80\xa8' $'\xe2\x80\xa9'; do
	post "$(sign $KEY7 "$last" "$tx2" "$li2" "$now" "one${lb}two")"
	check 400 invalid_field review.reviewText "a line break ($(printf '%s' "$lb" | od -An -tx1 | tr -d ' \n'))"
done
post "$(sign $KEY7 "$last" "$tx2" "$li2" "$now" " padded")"
check 400 invalid_field review.reviewText "untrimmed text"
post "$(jq -c '.review.extra = 1' <<<"$good")"
check 400 invalid_field review.extra "an undeclared review field"
post "$(jq -c 'del(.review.createdAt)' <<<"$good")"
check 400 invalid_field review.createdAt "a missing review field"
post "$(jq -c '.review.recognitionTxHash |= ascii_upcase | .review.recognitionTxHash |= sub("^0X"; "0x")' <<<"$good")"
check 400 invalid_field review.recognitionTxHash "an uppercase hash"
post "$(jq -c '.signature = .signature[0:130]' <<<"$good")"
check 400 invalid_field signature "a 64-byte signature"
post "$(jq -c '.extra = true' <<<"$good")"
check 400 unknown_field extra "an undeclared body field"
post "$(sed 's/"review":/"review":{"a":1},"review":/' <<<"$good")"
check 400 duplicate_key "" "a duplicate JSON key"
is "$(sql "SELECT COUNT(*) FROM reviews")" 1 "only the valid review was stored"

get "/api/site/x402/routes/$last/reviews"
is "$status" 200 "the free review source answers"
is "$(jq -r '.reviewSummary | [.count, .boonBackedCount, .receiptVerifiedCount, .selfReportedCount, .distinctReviewerWalletCount] | join(",")' <<<"$body")" \
	"1,1,0,0,1" "lane counts sum to the total"
is "$(jq -r '.reviews[0].reviewText' <<<"$body")" "Fast and correct forecasts; paid once and it answered in 200 ms." "it lists the review"
get "/api/site/x402/routes/0x1234/reviews"
is "$status" 400 "an invalid route ID in the path: 400"

schema=$top/t/schemas/discovery-snapshot.json
get "/api/v1/x402/discovery?q=weather&limit=20"
is "$(node "$top/t/tools/validate.mjs" "$schema" < "$WAYMARK_VAR/body")" valid "discovery with reviews: valid against the schema"
is "$(jq -r "$equals[0].routeId" <<<"$body")" "$last" "a boon_backed review moves its route first among equals"
is "$(jq -r "$equals[0].reviews[0] | [.evidenceKind, .sourceUrl] | join(\" \")" <<<"$body")" \
	"boon_backed https://api.waymark.example.com/api/site/x402/routes/$last/reviews" "the candidate carries the review and its free source"
is "$(jq -r '.coverage.reviews.available' <<<"$body")" true "review coverage is available"
get "/api/v1/x402/discovery?limit=20"
is "$(jq -r '.candidates[0].routeId' <<<"$body")" "$last" "without q too, review evidence orders first"
reviewer=$(node -e 'const {privateKeyToAccount}=require(process.argv[1]);console.log(privateKeyToAccount(process.argv[2]).address)' "$top/t/tools/node_modules/viem/_cjs/accounts/index.js" $KEY7)
get "/api/v1/x402/discovery?reviewer=$reviewer"
is "$(node "$top/t/tools/validate.mjs" "$schema" < "$WAYMARK_VAR/body")" valid "reviewer filter: valid against the schema"
is "$(jq -r '[.candidates[].routeId] | join(",")' <<<"$body")" "$last" "reviewer keeps only the routes that wallet reviewed"
is "$(jq -r '.candidates[0].reviews[0].reviewer' <<<"$body")" "$(tr 'A-F' 'a-f' <<<"$reviewer")" "its review comes first"
done_testing
