#!/usr/bin/env bash
# The rest of the paid read family through the real stack, each paid with
# the real client (t/tools/pay.mjs) against the real facilitator on a local
# chain: the route directory GET /api/v1/x402/routes (both sorts, the three
# context modes, q, cursor paging that returns every route exactly once, a
# cursor kept to its sort and context), a route's reviews, a reviewer's
# history, the legacy keyed routed-boons read, the review summary of the
# route detail, the record invariants, and bad parameters answered 400
# before any payment is asked for.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
. "$(dirname "$0")/lib/http.sh"
. "$(dirname "$0")/lib/x402.sh"
paid_stack paidreads 60
tools=$top/t/tools
viem=$tools/node_modules/viem/_cjs

paid=0
# pay PATH: a paid GET with the real client; the JSON line in $res, the body in $body.
pay() {
	res=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL$1")
	body=$(jq -c .body <<<"$res")
	[ "$(jq -r .status <<<"$res")" = 200 ] && paid=$((paid + 1))
}

# ---- 28 described routes (a context each, published by their tipper) and 4 hash-only ones
NR=28
mapfile -t RIDS < <(node -e '
const {keccak256,toBytes}=require(process.argv[1]);
for (let i = 1; i <= Number(process.argv[2]); i++)
	console.log(keccak256(toBytes(`boon:x402-route:v1\nGET\nhttps://api.paid-${i}.example.com\n/v1/items`)));' "$viem/index.js" $NR)
is "${#RIDS[@]}" $NR "$NR route IDs derived from GET https://api.paid-N.example.com/v1/items"
last=0
for i in $(seq 0 $((NR - 1))); do
	# Amounts repeat every four routes, so the USDC key ties and recency decides.
	net=(); [ $((i % 2)) = 1 ] && net=(--network $NET_C --network-usdc 100)
	out=$(send --from-key $KEY7 --route "${RIDS[$i]}" --endpoint $PAY_A --endpoint-usdc $((1000 * (i % 4 + 1))) "${net[@]}")
	[ $i = 2 ] && rec3=$out
	last=$(jq -r .blockNumber <<<"$out")
done
HASH_ONLY=()
for i in 1 2 3 4; do
	h=0x$(printf '%02d' $i)$(printf 'cd%.0s' $(seq 31))
	HASH_ONLY+=("$h")
	last=$(send --from-key $KEY8 --route "$h" --endpoint $PAY_B --endpoint-usdc 7 --count $((i % 2 + 1)) | tail -n1 | jq -r .blockNumber)
done
wait_indexed "$last"; ok $? "recognitions of $((NR + 4)) routes indexed"
now=$(date +%s)
published=0
for i in $(seq 1 $NR); do
	intent="Returns the items of shop $i as JSON."
	[ $i = 5 ] && intent="Returns tide tables for a harbour."
	note=$(jq -cn --arg u "https://api.paid-$i.example.com/v1/items" --arg in "$intent" --argjson c $((now - 60)) \
		--argjson e $((now + 86400)) '{version: "1", route: {publicEndpointUrl: $u, method: "GET"}, intent: $in,
		fit: "Use to list items.", limits: [], requestSchemaUri: null, documentationUri: null, contextUris: [],
		createdAt: $c, expiresAt: $e}')
	b=$(jq -cn --arg k $KEY7 --argjson n "$note" '{key: $k, note: $n}' | node "$tools/gen-route-context.mjs" body)
	st=$(curl -s -o "$http_tmp/ctx" -w '%{http_code}' -H 'Content-Type: application/json' --data-binary "$b" \
		"$URL/api/v1/x402/route-contexts")
	if [ "$st" = 201 ]; then published=$((published + 1)); else diag "route context $i: $st $(cat "$http_tmp/ctx")"; fi
done
is "$published" $NR "a route context published for each described route"

# A boon_backed review of route 3 by its tipper: it leads the reviewed order.
chain_id=$(jq -r .chainId "$STATE"); companion=$(jq -r .companion "$STATE")
R3=${RIDS[2]}
rb=$(node "$tools/sign-review.mjs" $KEY7 "$chain_id" "$companion" "$R3" "$(jq -r .txHash <<<"$rec3")" \
	"$(jq -r .logIndex <<<"$rec3")" "$now" "Listed every item; answered in 80 ms.")
is "$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' --data-binary "$rb" \
	"$URL/api/v1/x402/reviews")" 201 "a boon_backed review of route 3 is published"
REVIEWER=$(node -e 'const {privateKeyToAccount}=require(process.argv[1]);console.log(privateKeyToAccount(process.argv[2]).address)' \
	"$viem/accounts/index.js" $KEY7)

# ---- unpaid: 402 for every new read, Cache-Control private, no-store
for p in "/api/v1/x402/routes" "/api/v1/x402/routes/$R3/reviews" "/api/v1/x402/reviews?reviewer=$REVIEWER" \
	"/api/v1/x402/routed-boons?routeId=$R3"; do
	req GET "$p"
	is "$status,$(jqr .error),$(header cache-control)" "402,payment_required,private, no-store" "unpaid GET $p: 402"
	is "$(header payment-required | base64 -d | jq -r '.accepts[0].amount')" 10000 "unpaid GET $p: price 0.01 USDC"
done

# ---- bad parameters: 400 naming the field, before any payment is asked for
bad() { # bad PATH FIELD
	req GET "$1"
	is "$status,$(jqr .error),$(jqr .field)" "400,invalid_field,$2" "400 before payment: $1"
	ok $([ -z "$(header payment-required)" ] && echo 0 || echo 1) "no payment asked: $1"
}
bad "/api/v1/x402/routes?sort=popular" sort
bad "/api/v1/x402/routes?context=some" context
bad "/api/v1/x402/routes?limit=0" limit
bad "/api/v1/x402/routes?limit=51" limit
bad "/api/v1/x402/routes?cursor=$(printf 'c%.0s' $(seq 513))" cursor
bad "/api/v1/x402/routes?cursor=garbage" cursor
bad "/api/v1/x402/routes?cursor=c1.0.0.0.0.0.0.$(printf '%064d' 0).extra" cursor
bad "/api/v1/x402/routes?q=$(printf 'q%.0s' $(seq 401))" q
bad "/api/v1/x402/routes/$R3/reviews?limit=101" limit
bad "/api/v1/x402/routes/$R3/reviews?offset=1001" offset
bad "/api/v1/x402/routes/0x12/reviews" routeId
req GET "/api/v1/x402/reviews"
is "$status,$(jqr .error),$(jqr .field)" "400,missing_field,reviewer" "400 before payment: no reviewer"
bad "/api/v1/x402/reviews?reviewer=0x1234" reviewer
bad "/api/v1/x402/routed-boons" routeId
bad "/api/v1/x402/routed-boons?routeId=$R3&txHash=$R3" routeId
bad "/api/v1/x402/routed-boons?txHash=0xzz" txHash
is "$(balance $PAYTO)" 0 "nothing was charged so far"

# invariants OBJECT_JQ DESCRIPTION: the recognition and review summary invariants of each record
invariants() {
	local bad
	bad=$(jq -c "[$1 | select(
		((.recognition.endpointGratuityUsdc | tonumber) + (.recognition.networkGratuityUsdc | tonumber)
			!= (.recognition.totalRecognitionUsdc | tonumber))
		or (.recognition.boonBurned != (if .recognition.routedBoonCount == 0 then \"0\"
			else (.recognition.routedBoonCount | tostring) + \"00000000000000000000000\" end))
		or (.reviewSummary.boonBackedCount + .reviewSummary.receiptVerifiedCount + .reviewSummary.selfReportedCount
			!= .reviewSummary.count)
		or (.reviewSummary.distinctReviewerWalletCount > .reviewSummary.count))] | length" <<<"$body")
	is "$bad" 0 "$2: total = endpoint + network, boonBurned = 1e23 x count, lanes sum to count, distinct <= count"
}

# ---- the directory, defaults: reviewed, with, 20
pay "/api/v1/x402/routes"
is "$(jq -r .status <<<"$res")" 200 "routes: paid with @x402/fetch, 200"
is "$(jq -r '.paymentResponse.success' <<<"$res")" true "routes: settled (PAYMENT-RESPONSE success)"
is "$(jq -r 'keys | join(",")' <<<"$body")" "contract,globalStats,interpretation,pagination,routes,version" "routes: members"
is "$(jq -r .version <<<"$body"),$(jq -r .contract <<<"$body" | tr 'A-F' 'a-f')" "1,$(tr 'A-F' 'a-f' <<<"$companion")" "routes: version and contract"
is "$(jq -r '.routes | length' <<<"$body"),$(jq -r .pagination.hasMore <<<"$body")" "20,true" "routes: 20 by default, more to come"
is "$(jq -r '.routes[0] | keys | join(",")' <<<"$body")" "links,method,publicEndpointUrl,recognition,reviewSummary,routeId" \
	"a route entry: members"
is "$(jq -r '.routes[0].routeId' <<<"$body")" "$R3" "reviewed: the route with a boon_backed review first"
is "$(jq -c '.routes[0] | [.method, .publicEndpointUrl, .reviewSummary.count, .reviewSummary.boonBackedCount, .reviewSummary.indexComplete]' <<<"$body")" \
	'["GET","https://api.paid-3.example.com/v1/items",1,1,true]' "the entry: method, URL and review summary"
is "$(jq -r '.routes[0].links.route' <<<"$body")" "$URL/api/v1/x402/routes/$R3" "the entry: links"
is "$(jq -r '[.routes[] | select(.method == null)] | length' <<<"$body")" 0 "context=with: every route is described"
invariants '.routes[]' "routes"
is "$(jq -c '.globalStats | [.routeCount, .routedBoonCount]' <<<"$body")" "[$((NR + 4)),$((NR + 1 + 2 + 1 + 2))]" \
	"globalStats: route and recognition counts"
is "$(jq -r '.globalStats.boonBurned' <<<"$body")" "$((NR + 6))00000000000000000000000" "globalStats: boonBurned = 1e23 x count"
is "$(jq -r '.globalStats.totalRecognitionUsdc' <<<"$body")" "$(sql "SELECT SUM(total_usdc) FROM route_recognition_stats")" \
	"globalStats: the USDC total"
like "$(jq -r '.interpretation.sorting' <<<"$body")" '^reviewed' "interpretation: the sorting"
ok $(jq -e '.interpretation.notProofOf | length > 0' <<<"$body" >/dev/null && echo 0 || echo 1) "interpretation: notProofOf"
# reviewed: after the reviewed route, USDC desc, then the latest recognition desc
exp=$(sql "SELECT CONCAT('0x', LOWER(HEX(route_id))) FROM route_recognition_stats s WHERE route_id <> UNHEX('${R3#0x}')
	AND EXISTS(SELECT 1 FROM route_contexts c WHERE c.route_id = s.route_id)
	ORDER BY total_usdc DESC, latest_block_number DESC, route_id LIMIT 19" | tr '\n' ' ')
is "$(jq -r '.routes[1:][] .routeId' <<<"$body" | tr '\n' ' ')" "$exp" "reviewed: then USDC, then recency"

# ---- cursor paging: every route exactly once (reviewed/with, recent/all), limit 7
page_all() { # page_all QUERY: every routeId over all pages into $ids (one a line), the pages in $pages
	local q=$1 cur=""
	pages=0; ids=""
	while :; do
		pay "/api/v1/x402/routes?$q&limit=7${cur:+&cursor=$cur}"
		[ "$(jq -r .status <<<"$res")" = 200 ] || { diag "page failed: $res"; break; }
		pages=$((pages + 1))
		ids+=$(jq -r '.routes[].routeId' <<<"$body")$'\n'
		[ "$(jq -r .pagination.hasMore <<<"$body")" = true ] || break
		cur=$(jq -r .pagination.nextCursor <<<"$body")
		[ $pages -lt 10 ] || break
	done
	ids=$(printf '%s' "$ids" | sed '/^$/d')
}
page_all "sort=reviewed&context=with"
is "$pages" 4 "reviewed/with: 28 routes in 4 pages of 7"
is "$(sort -u <<<"$ids" | wc -l),$(wc -l <<<"$ids")" "$NR,$NR" "reviewed/with: every described route exactly once"
is "$(sort <<<"$ids" | tr '\n' ' ')" "$(printf '%s\n' "${RIDS[@]}" | sort | tr '\n' ' ')" "reviewed/with: the described routes"
page_all "sort=recent&context=all"
is "$pages" 5 "recent/all: 32 routes in 5 pages"
is "$(sort -u <<<"$ids" | wc -l),$(wc -l <<<"$ids")" "$((NR + 4)),$((NR + 4))" "recent/all: every route exactly once"
is "$(tr '\n' ' ' <<<"$ids")" "$(sql "SELECT CONCAT('0x', LOWER(HEX(route_id))) FROM route_recognition_stats
	ORDER BY latest_block_number DESC, route_id" | tr '\n' ' ')" "recent: the latest recognition first, across pages"
pay "/api/v1/x402/routes?sort=reviewed&limit=7"
cursor=$(jq -r .pagination.nextCursor <<<"$body")
like "$cursor" '^.{1,512}$' "a nextCursor of at most 512 characters"
bad "/api/v1/x402/routes?sort=recent&limit=7&cursor=$cursor" cursor
like "$(jqr .message)" 'sort=reviewed' "another sort: the message names the cursor's sort"
bad "/api/v1/x402/routes?sort=reviewed&context=all&limit=7&cursor=$cursor" cursor

# ---- context=raw: only the hash-only routes; q filters on URL and intent
pay "/api/v1/x402/routes?context=raw"
is "$(jq -r '[.routes[].routeId] | sort | join(" ")' <<<"$body")" "$(printf '%s\n' "${HASH_ONLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//')" \
	"context=raw: the hash-only routes only"
is "$(jq -c '[.routes[] | .method, .publicEndpointUrl] | unique' <<<"$body")" '[null]' "context=raw: no method, no URL"
invariants '.routes[]' "raw routes"
pay "/api/v1/x402/routes?context=all&limit=50"
is "$(jq -r '.routes | length' <<<"$body"),$(jq -r '[.routes[] | select(.method == null)] | length' <<<"$body")" \
	"$((NR + 4)),4" "context=all: described and hash-only routes"
pay "/api/v1/x402/routes?q=TIDE"
is "$(jq -r '[.routes[].routeId] | join(" ")' <<<"$body")" "${RIDS[4]}" "q matches the intent (any case)"
pay "/api/v1/x402/routes?q=paid-1.example.com"
is "$(jq -r '.routes | length' <<<"$body")" 1 "q matches the URL"
pay "/api/v1/x402/routes?q=100%25_off"
is "$(jq -r '.routes | length' <<<"$body"),$(jq -r .pagination.hasMore <<<"$body")" "0,false" "q: % and _ are literal"

# ---- a route's reviews
pay "/api/v1/x402/routes/$R3/reviews"
is "$(jq -r .status <<<"$res")" 200 "route reviews: paid, 200"
is "$(jq -r 'keys | join(",")' <<<"$body")" "contract,identityResolution,interpretation,pagination,reviewSummary,reviews,routeId,version" \
	"route reviews: members"
is_json "$(jq -c '.pagination' <<<"$body")" '{"limit":25,"offset":0,"total":1,"hasMore":false}' "route reviews: pagination"
is "$(jq -r '.reviews[0] | [.evidenceKind, .routeId, .reviewer.wallet, .reviewText] | join(" ")' <<<"$body")" \
	"boon_backed $R3 $REVIEWER Listed every item; answered in 80 ms." "route reviews: the review record"
is "$(jq -c '.reviewSummary | [.count, .boonBackedCount + .receiptVerifiedCount + .selfReportedCount, .distinctReviewerWalletCount]' <<<"$body")" \
	'[1,1,1]' "route reviews: lane counts sum to the total"
pay "/api/v1/x402/routes/${RIDS[0]}/reviews?limit=5&offset=3"
is_json "$(jq -c '[.reviews, .pagination]' <<<"$body")" '[[],{"limit":5,"offset":3,"total":0,"hasMore":false}]' "a route without reviews"

# ---- route detail: the review summary from the reviews table
pay "/api/v1/x402/routes/$R3"
is_json "$(jq -c '.route.reviewSummary | del(.latestReviewAt)' <<<"$body")" \
	'{"count":1,"boonBackedCount":1,"receiptVerifiedCount":0,"selfReportedCount":0,"distinctReviewerWalletCount":1,"indexComplete":true}' \
	"route detail: reviewSummary counted from the reviews"
like "$(jq -r '.route.reviewSummary.latestReviewAt' <<<"$body")" '^20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$' "route detail: latestReviewAt"
invariants '.route' "route detail"

# ---- a reviewer's history
pay "/api/v1/x402/reviews?reviewer=$(tr 'A-F' 'a-f' <<<"$REVIEWER")"
is "$(jq -r .status <<<"$res")" 200 "reviewer history: paid, 200"
is "$(jq -r 'keys | join(",")' <<<"$body")" "contract,interpretation,items,pagination,reviewer,version" "reviewer history: members"
is_json "$(jq -c '.reviewer' <<<"$body")" "{\"wallet\":\"$REVIEWER\",\"accounts\":[]}" "reviewer history: the wallet, EIP-55"
is "$(jq -r '.items[0] | [.routeId, (.description | tostring), .review.evidenceKind] | join(" ")' <<<"$body")" \
	"$R3 null boon_backed" "reviewer history: the reviewed route"
is_json "$(jq -c .pagination <<<"$body")" '{"limit":25,"offset":0,"total":1,"hasMore":false}' "reviewer history: pagination"
pay "/api/v1/x402/reviews?reviewer=$PAYER"
is "$(jq -c '[.items, .pagination.total]' <<<"$body")" '[[],0]' "a wallet with no reviews: empty"

# ---- routed-boons (legacy keyed read)
pay "/api/v1/x402/routed-boons?routeId=${HASH_ONLY[0]}"
is "$(jq -r .status <<<"$res")" 200 "routed-boons by routeId: paid, 200"
is "$(jq -r '.routedBoons | length' <<<"$body"),$(jq -r .pagination.total <<<"$body")" "2,2" "routed-boons by routeId: the route's recognitions"
is "$(jq -r '.routedBoons[0] | keys | join(",")' <<<"$body")" \
	"accounts,blockNumber,blockTimestamp,boonBurned,contextRef,contract,endpointGratuityUsdc,endpointPayTo,id,logIndex,networkGratuityUsdc,networkPayTo,routeId,tipper,txHash" \
	"routed-boons: the recognitions record"
pay "/api/v1/x402/routed-boons?txHash=$(jq -r .txHash <<<"$rec3")"
is "$(jq -c '[(.routedBoons | length), .routedBoons[0].routeId, .routedBoons[0].txHash]' <<<"$body")" \
	"[1,\"$R3\",\"$(jq -r .txHash <<<"$rec3")\"]" "routed-boons by txHash: that recognition"
pay "/api/v1/x402/routed-boons?txHash=0x$(printf 'ee%.0s' $(seq 32))"
is "$(jq -r .status <<<"$res"),$(jq -r '.routedBoons | length' <<<"$body")" "200,0" "routed-boons for an unknown hash: empty"

# ---- every paid read settled once, and only those
is "$(balance $PAYTO)" "$((paid * 10000))" "payTo received 0.01 USDC for each of the $paid paid reads"
is "$(sql "SELECT COUNT(*) FROM x402_payments WHERE status = 'settled'")" "$paid" "one settled ledger row per paid read"
done_testing
