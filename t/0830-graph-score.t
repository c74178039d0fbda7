#!/usr/bin/env bash
# The paid graph read GET /api/v1/x402/graph and the paid score POST
# /api/v1/score through the real stack, each paid with the real client
# (t/tools/pay.mjs) against the real facilitator on a local chain: graph
# invariants (edges join existing nodes, recognized edges agree with the
# recognition counts, reviewed edges' lanes with the review summary,
# described edges with the current contexts), eventLimit, the filters
# origin/method/recognizer on the graph and on the /routes directory (with
# cursor paging that gives every matching route exactly once, and cursors
# kept to their filters), bad parameters refused 400 before any payment,
# and the score's documented formula (lib/score.h, INSTALL "Score policy")
# recomputed here by hand.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
. "$(dirname "$0")/lib/http.sh"
. "$(dirname "$0")/lib/x402.sh"
paid_stack graphscore 85
tools=$top/t/tools
viem=$tools/node_modules/viem/_cjs

paid=0
# pay PATH [BODYFILE]: a paid GET (or POST of BODYFILE) with the real client; $res, $body.
pay() {
	res=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL$1" ${2:+--body "$2"})
	body=$(jq -c .body <<<"$res")
	[ "$(jq -r .status <<<"$res")" = 200 ] && paid=$((paid + 1))
}
addr_of() { node -e 'const {privateKeyToAccount}=require(process.argv[1]);console.log(privateKeyToAccount(process.argv[2]).address)' "$viem/accounts/index.js" "$1"; }
rid() { # rid METHOD ORIGIN PATH: the route ID
	node -e 'const {keccak256,toBytes}=require(process.argv[1]);
console.log(keccak256(toBytes(`boon:x402-route:v1\n${process.argv[2]}\n${process.argv[3]}\n${process.argv[4]}`)))' "$viem/index.js" "$@"
}
W7=$(addr_of $KEY7); W8=$(addr_of $KEY8)
lc() { tr 'A-F' 'a-f' <<<"$1"; }
eip55() { node -e 'const {getAddress}=require(process.argv[1]);console.log(getAddress(process.argv[2]))' "$viem/index.js" "$1"; }

# ---- the seed: routes on three origins, one hash-only route
#   alpha GET /v1/items-1..5 (KEY7 once each; items-1 also KEY8 twice, with a network share)
#   alpha POST /v1/orders (KEY7), beta GET /v1/c1 (KEY8 x3) and /v1/c2 (KEY8),
#   gamma GET :8443/x (KEY7), and a hash-only route (KEY8). Contexts by each route's tipper.
ALPHA=https://api.alpha.example.com BETA=https://api.beta.example.com GAMMA=https://api.gamma.example.com:8443
A=(); for i in 1 2 3 4 5; do A+=("$(rid GET $ALPHA /v1/items-$i)"); done
AP=$(rid POST $ALPHA /v1/orders); B1=$(rid GET $BETA /v1/c1); B2=$(rid GET $BETA /v1/c2)
G1=$(rid GET $GAMMA /x); H1=0x$(printf 'ab%.0s' $(seq 32))
for i in 0 1 2 3 4; do
	out=$(send --from-key $KEY7 --route "${A[$i]}" --endpoint $PAY_A --endpoint-usdc $((1000 * (i + 1))))
	[ $i = 0 ] && recA1=$out
done
send --from-key $KEY8 --route "${A[0]}" --endpoint $PAY_A --endpoint-usdc 500 --network $NET_C --network-usdc 100 --count 2 >/dev/null
send --from-key $KEY7 --route "$AP" --endpoint $PAY_A --endpoint-usdc 700 >/dev/null
send --from-key $KEY8 --route "$B1" --endpoint $PAY_B --endpoint-usdc 300 --count 3 >/dev/null
send --from-key $KEY8 --route "$B2" --endpoint $PAY_B --endpoint-usdc 300 >/dev/null
send --from-key $KEY7 --route "$G1" --endpoint $PAY_A --endpoint-usdc 900 >/dev/null
last=$(send --from-key $KEY8 --route "$H1" --endpoint $PAY_B --endpoint-usdc 5 | tail -n1 | jq -r .blockNumber)
wait_indexed "$last"; ok $? "14 recognitions of 10 routes indexed"
is "$(sql "SELECT COUNT(*) FROM routed_boons")" 14 "14 routed recognitions in the index"

now=$(date +%s)
publish() { # publish KEY METHOD URL INTENT
	local note b st
	note=$(jq -cn --arg u "$3" --arg m "$2" --arg in "$4" --argjson c $((now - 60)) --argjson e $((now + 86400)) \
		'{version: "1", route: {publicEndpointUrl: $u, method: $m}, intent: $in, fit: "Use it.", limits: [],
		requestSchemaUri: null, documentationUri: null, contextUris: [], createdAt: $c, expiresAt: $e}')
	b=$(jq -cn --arg k "$1" --argjson n "$note" '{key: $k, note: $n}' | node "$tools/gen-route-context.mjs" body)
	st=$(curl -s -o "$http_tmp/ctx" -w '%{http_code}' -H 'Content-Type: application/json' --data-binary "$b" \
		"$URL/api/v1/x402/route-contexts")
	[ "$st" = 201 ] || diag "route context $3: $st $(cat "$http_tmp/ctx")"
	[ "$st" = 201 ]
}
published=0
for i in 1 2 3 4 5; do publish $KEY7 GET "$ALPHA/v1/items-$i" "Lists the items of shelf $i." && published=$((published + 1)); done
publish $KEY7 POST "$ALPHA/v1/orders" "Places an order." && published=$((published + 1))
publish $KEY8 GET "$BETA/v1/c1" "Returns tide tables." && published=$((published + 1))
publish $KEY8 GET "$BETA/v1/c2" "Returns moon phases." && published=$((published + 1))
publish $KEY7 GET "$GAMMA/x" "Returns gamma rays." && published=$((published + 1))
# a second context of items-1, by its other tipper
publish $KEY8 GET "$ALPHA/v1/items-1" "Lists the items of shelf one, as KEY8 saw it." && published=$((published + 1))
is "$published" 10 "10 route contexts published (items-1 has two)"

# Reviews of items-1 in two lanes: boon_backed by KEY7 (its tipper), self_reported by KEY8 (paid).
chain_id=$(jq -r .chainId "$STATE"); companion=$(jq -r .companion "$STATE")
rb=$(node "$tools/sign-review.mjs" $KEY7 "$chain_id" "$companion" "${A[0]}" "$(jq -r .txHash <<<"$recA1")" \
	"$(jq -r .logIndex <<<"$recA1")" "$now" "Listed every item.")
is "$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' --data-binary "$rb" \
	"$URL/api/v1/x402/reviews")" 201 "a boon_backed review of items-1 is published"
node "$tools/sign-review-v3.mjs" $KEY8 "$chain_id" "$companion" "${A[0]}" "$now" "Fast enough for me." > "$http_tmp/v3"
res=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL/api/v1/x402/reviews/self-reported" --body "$http_tmp/v3")
is "$(jq -r .status <<<"$res")" 201 "a self_reported review of items-1 is published (paid 0.05)"
spent=50000

# ---- unpaid: 402 at 0.01 for both, Cache-Control private, no-store
req GET "/api/v1/x402/graph"
is "$status,$(jqr .error),$(header cache-control)" "402,payment_required,private, no-store" "unpaid graph: 402"
is "$(header payment-required | base64 -d | jq -r '.accepts[0].amount')" 10000 "unpaid graph: price 0.01 USDC"
req POST "/api/v1/score" -H 'Content-Type: application/json' --data-binary '{"recipient":"github:alice"}'
is "$status,$(jqr .error),$(header cache-control)" "402,payment_required,private, no-store" "unpaid score: 402"
is "$(header payment-required | base64 -d | jq -r '.accepts[0].amount')" 10000 "unpaid score: price 0.01 USDC"

# ---- bad parameters: 400 naming the field, before any payment is asked for
bad() { # bad PATH FIELD
	req GET "$1"
	is "$status,$(jqr .error),$(jqr .field)" "400,invalid_field,$2" "400 before payment: $1"
	ok $([ -z "$(header payment-required)" ] && echo 0 || echo 1) "no payment asked: $1"
}
for p in /api/v1/x402/graph /api/v1/x402/routes; do
	bad "$p?origin=http://api.alpha.example.com" origin
	bad "$p?origin=https://api.alpha.example.com/v1" origin
	bad "$p?origin=https://api.alpha.example.com?x=1" origin
	bad "$p?origin=api.alpha.example.com" origin
	bad "$p?origin=https://user@api.alpha.example.com" origin
	bad "$p?method=FETCH" method
	bad "$p?method=get" method
	bad "$p?recognizer=0x1234" recognizer
	bad "$p?recognizer=$(lc "$W7")zz" recognizer
	bad "$p?limit=0" limit
	bad "$p?limit=51" limit
	bad "$p?sort=popular" sort
done
bad "/api/v1/x402/graph?eventLimit=0" eventLimit
bad "/api/v1/x402/graph?eventLimit=501" eventLimit
req GET "/api/v1/x402/graph?cursor=abc"
is "$status,$(jqr .error),$(jqr .field)" "400,unknown_field,cursor" "graph takes no cursor: 400 before payment"
score_bad() { # score_bad BODY FIELD [CODE]
	req POST /api/v1/score -H 'Content-Type: application/json' --data-binary "$1"
	is "$status,$(jqr .error),$(jqr .field)" "400,${3:-invalid_field},$2" "score 400 before payment: $1"
	ok $([ -z "$(header payment-required)" ] && echo 0 || echo 1) "no payment asked: $1"
}
score_bad '{"recipient":"bob"}' recipient
score_bad '{"recipient":"0x1234"}' recipient
score_bad '{"recipient":"github:-bad-"}' recipient
score_bad '{"recipient":"agent:0"}' recipient
score_bad '{"recipient":"0x5555555555555555555555555555555555555555aa"}' recipient
score_bad '{"note":"hi"}' recipient missing_field
score_bad '{"recipient":"github:alice","serviceCostUsdc":"0.1234567"}' serviceCostUsdc
score_bad '{"recipient":"github:alice","serviceCostUsdc":"-1"}' serviceCostUsdc
score_bad '{"recipient":"github:alice","serviceCostUsdc":"1e3"}' serviceCostUsdc
score_bad '{"recipient":"github:alice","serviceCostUsdc":"1000000000000"}' serviceCostUsdc
score_bad '{"recipient":"github:alice","serviceCostUsdc":5}' serviceCostUsdc
score_bad "{\"recipient\":\"github:alice\",\"note\":\"$(printf 'é%.0s' $(seq 141))\"}" note
score_bad '{"recipient":"github:alice","amount":"1"}' amount unknown_field
is "$(balance $PAYTO)" "$spent" "nothing charged for refused requests"

# ---- the graph, defaults: sort reviewed, context with, limit 20, eventLimit 100
pay "/api/v1/x402/graph"
is "$(jq -r .status <<<"$res")" 200 "graph: paid with @x402/fetch, 200"
is "$(jq -r '.paymentResponse.success' <<<"$res")" true "graph: settled (PAYMENT-RESPONSE success)"
is "$(jq -r 'keys | join(",")' <<<"$body")" "bounds,contract,edges,interpretation,nodes,query,version" "graph: members"
is_json "$(jq -c .query <<<"$body")" \
	'{"q":"","sort":"reviewed","context":"with","limit":20,"eventLimit":100,"origin":null,"method":null,"recognizer":null}' \
	"graph: the query with its defaults"
G=$body
# graph_check DESC: the invariants of the graph in $body
graph_check() {
	is "$(jq '[.nodes[].id] | (length == (unique | length))' <<<"$body")" true "$1: node ids are unique"
	is "$(jq '[.nodes[].id] as $ids | [.edges[] | select((.from | IN($ids[]) | not) or (.to | IN($ids[]) | not))] | length' <<<"$body")" 0 \
		"$1: every edge joins two existing nodes"
	is "$(jq '[.edges[] | select((.from | startswith("wallet:") | not) or (.to | startswith("route:") | not))] | length' <<<"$body")" 0 \
		"$1: edges go from a wallet to an endpoint"
	is "$(jq '. as $g | ([$g.nodes[] | select(.kind == "wallet") | {key: .id, value: .roles}] | from_entries) as $w |
		[$g.edges[] | select(.kind == "recognized") | select(($w[.from] | index("recognizer")) == null
			or (.endpointPayTo != null and (($w["wallet:" + .endpointPayTo] // []) | index("endpointPayTo")) == null)
			or (.networkPayTo != null and (($w["wallet:" + .networkPayTo] // []) | index("networkPayTo")) == null))] | length' <<<"$body")" 0 \
		"$1: tippers and funded payTo wallets are wallet nodes with their roles"
	is "$(jq '. as $g | [$g.nodes[] | select(.kind == "endpoint") as $n | [$g.edges[] | select(.kind == "recognized" and .to == $n.id)] | length as $c |
		select($c != $n.recognition.routedBoonCount)] | length' <<<"$body")" 0 \
		"$1: each endpoint's recognized edges number its routedBoonCount"
	is "$(jq '. as $g | [$g.nodes[] | select(.kind == "endpoint") as $n | [$g.edges[] | select(.kind == "reviewed" and .to == $n.id)] as $e |
		select(([$e[] | select(.evidenceKind == "boon_backed") | .reviewCount] | add // 0) != $n.reviewSummary.boonBackedCount
			or ([$e[] | select(.evidenceKind == "self_reported") | .reviewCount] | add // 0) != $n.reviewSummary.selfReportedCount
			or ([$e[] | select(.evidenceKind == "receipt_verified") | .reviewCount] | add // 0) != $n.reviewSummary.receiptVerifiedCount)] | length' <<<"$body")" 0 \
		"$1: each endpoint's reviewed edges, lane by lane, sum to its reviewSummary"
	is "$(jq '.edges | map(select(.kind == "recognized")) | map(.from + .txHash + ":" + .logIndex) | (length == (unique | length))' <<<"$body")" true \
		"$1: one recognized edge per recognition"
}
graph_check "graph"
is "$(jq '[.nodes[] | select(.kind == "endpoint")] | length' <<<"$G")" 9 "graph: the 9 described routes are endpoints"
is "$(jq -r '.nodes[0].id' <<<"$G")" "route:${A[0]}" "graph: the reviewed route first (sort=reviewed)"
is "$(jq -r '.nodes[0] | keys | join(",")' <<<"$G")" "id,kind,links,method,publicEndpointUrl,recognition,reviewSummary,routeId" \
	"an endpoint node: the directory entry plus id and kind"
is "$(jq -c '[.edges[] | select(.kind == "recognized")] | length' <<<"$G")" 13 "graph: 13 recognized edges (the hash-only route is not selected)"
is "$(jq -c '[.edges[] | select(.kind == "reviewed") | [.to, .evidenceKind, .reviewCount, .from]] | sort' <<<"$G")" \
	"$(jq -cn --arg r "route:${A[0]}" --arg a "wallet:$W7" --arg b "wallet:$W8" '[[$r, "boon_backed", 1, $a], [$r, "self_reported", 1, $b]] | sort')" \
	"graph: the two reviews as two reviewed edges, lanes kept separate"
is "$(jq -c '[.edges[] | select(.kind == "described")] | length' <<<"$G")" \
	"$(sql "SELECT COUNT(*) FROM route_contexts WHERE note_expires_at > UNIX_TIMESTAMP()")" "graph: one described edge per current context"
is "$(jq -c '[.edges[] | select(.kind == "described" and .to == "route:'"${A[0]}"'") | .from] | sort' <<<"$G")" \
	"$(jq -cn --arg a "wallet:$W7" --arg b "wallet:$W8" '[$a, $b] | sort')" "graph: items-1 described by both tippers"
is "$(jq -c '[.nodes[] | select(.kind == "wallet") | [.address, (.roles | join("+"))]] | sort' <<<"$G")" \
	"$(jq -cn --arg a "$W7" --arg b "$W8" --arg pa "$(eip55 $PAY_A)" --arg pb "$(eip55 $PAY_B)" --arg nc "$(eip55 $NET_C)" \
		'[[$a, "recognizer+reviewer+contextPublisher"], [$b, "recognizer+reviewer+contextPublisher"], [$pa, "endpointPayTo"], [$pb, "endpointPayTo"], [$nc, "networkPayTo"]] | sort')" \
	"graph: the wallet nodes and their roles (EIP-55)"
is_json "$(jq -c '.bounds | [.routes, .recognized, .reviewed, .described]' <<<"$G")" \
	'[{"limit":20,"shown":9,"hasMore":false},{"shown":13,"matched":13,"truncated":false},{"shown":2,"matched":2,"truncated":false},{"shown":10,"matched":10,"truncated":false}]' \
	"graph: bounds, nothing truncated"
like "$(jq -r .bounds.eventLimitScope <<<"$G")" '^total' "graph: eventLimit is a total per edge kind, and says so"
pay "/api/v1/x402/routes?limit=20"
is "$(jq -c '[.routes[].routeId]' <<<"$body")" "$(jq -c '[.nodes[] | select(.kind == "endpoint") | .routeId]' <<<"$G")" \
	"graph: the same routes in the same order as the directory"

# ---- eventLimit: a total, newest first
pay "/api/v1/x402/graph?context=all&eventLimit=3"
graph_check_trunc=$(jq -c '[.bounds.recognized, ([.edges[] | select(.kind == "recognized")] | length)]' <<<"$body")
is_json "$graph_check_trunc" '[{"shown":3,"matched":14,"truncated":true},3]' "eventLimit=3: 3 of 14 recognized edges, truncated"
is "$(jq -r '[.edges[] | select(.kind == "recognized") | .txHash + ":" + .logIndex] | join(" ")' <<<"$body")" \
	"$(sql "SELECT CONCAT('0x', LOWER(HEX(tx_hash)), ':', log_index) FROM routed_boons ORDER BY block_number DESC, log_index DESC LIMIT 3" | tr '\n' ' ' | sed 's/ $//')" \
	"eventLimit=3: the newest recognitions"
is_json "$(jq -c '[([.edges[] | select(.kind == "described")] | length), .bounds.described]' <<<"$body")" \
	'[3,{"shown":3,"matched":10,"truncated":true}]' "eventLimit=3: 3 described edges of 10"
is "$(jq '[.nodes[].id] as $ids | [.edges[] | select((.from | IN($ids[]) | not) or (.to | IN($ids[]) | not))] | length' <<<"$body")" 0 \
	"eventLimit=3: edges still join existing nodes"
is "$(jq '[.nodes[] | select(.kind == "endpoint")] | length' <<<"$body")" 10 "context=all: the hash-only route is an endpoint too"

# ---- filters select exactly the expected routes
sorted() { printf '%s\n' "$@" | sort | tr '\n' ' ' | sed 's/ $//'; }
gsel() { pay "/api/v1/x402/graph?$1"; sel=$(jq -r '[.nodes[] | select(.kind == "endpoint") | .routeId] | sort | join(" ")' <<<"$body"); }
gsel "origin=$ALPHA"; is "$sel" "$(sorted "${A[@]}" "$AP")" "graph origin=alpha: the 6 alpha routes"
graph_check "graph origin=alpha"
gsel "origin=HTTPS://API.Alpha.example.com:443/"; is "$sel" "$(sorted "${A[@]}" "$AP")" "graph origin: normalized (case, default port, root slash)"
is "$(jq -r .query.origin <<<"$body")" "$ALPHA" "graph origin: the normalized origin is echoed"
gsel "origin=$GAMMA"; is "$sel" "$G1" "graph origin with a port: the gamma route"
gsel "origin=https://api.gamma.example.com"; is "$sel" "" "graph origin: another port is another origin"
gsel "method=POST"; is "$sel" "$AP" "graph method=POST: the one POST route"
gsel "origin=$ALPHA&method=GET"; is "$sel" "$(sorted "${A[@]}")" "graph origin=alpha&method=GET: the 5 GET routes"
gsel "recognizer=$(lc "$W8")"; is "$sel" "$(sorted "${A[0]}" "$B1" "$B2")" "graph recognizer=KEY8 (lowercase): the described routes it recognized"
graph_check "graph recognizer=KEY8"
gsel "recognizer=$W8&context=all"; is "$sel" "$(sorted "${A[0]}" "$B1" "$B2" "$H1")" "graph recognizer=KEY8, context=all: with the hash-only route"
gsel "recognizer=$W7&origin=$BETA"; is "$sel" "" "graph recognizer=KEY7 on beta: none"
gsel "origin=$ALPHA&context=raw"; is "$sel" "" "graph origin with context=raw: none (hash-only routes have no origin)"
gsel "recognizer=$PAYER"; is "$sel" "" "graph: a wallet that recognized nothing selects nothing"
is "$(jq -c '[.nodes, .edges, .bounds.routes.shown]' <<<"$body")" '[[],[],0]' "graph: an empty selection is an empty graph"

# ---- /routes: the same filters, cursor paging gives every matching route exactly once
page_all() { # page_all QUERY LIMIT: every routeId over all pages into $ids, the pages in $pages
	local q=$1 cur=""
	pages=0; ids=""
	while :; do
		pay "/api/v1/x402/routes?$q&limit=$2${cur:+&cursor=$cur}"
		[ "$(jq -r .status <<<"$res")" = 200 ] || { diag "page failed: $res"; break; }
		pages=$((pages + 1))
		ids+=$(jq -r '.routes[].routeId' <<<"$body")$'\n'
		[ "$(jq -r .pagination.hasMore <<<"$body")" = true ] || break
		cur=$(jq -r .pagination.nextCursor <<<"$body")
		[ $pages -lt 10 ] || break
	done
	ids=$(printf '%s' "$ids" | sed '/^$/d')
}
page_all "origin=$ALPHA" 2
is "$pages" 3 "routes origin=alpha: 6 routes in 3 pages of 2"
is "$(sort -u <<<"$ids" | wc -l),$(wc -l <<<"$ids")" "6,6" "routes origin=alpha: every route exactly once"
is "$(sort <<<"$ids" | tr '\n' ' ' | sed 's/ $//')" "$(sorted "${A[@]}" "$AP")" "routes origin=alpha: the alpha routes"
page_all "sort=recent&context=all&recognizer=$W7" 2
is "$(sort <<<"$ids" | tr '\n' ' ' | sed 's/ $//'),$(wc -l <<<"$ids")" "$(sorted "${A[@]}" "$AP" "$G1"),7" \
	"routes recognizer=KEY7 (recent, all): its 7 routes, each once"
is "$(tr '\n' ' ' <<<"$ids" | sed 's/ $//')" "$(sql "SELECT CONCAT('0x', LOWER(HEX(s.route_id))) FROM route_recognition_stats s
	WHERE EXISTS(SELECT 1 FROM routed_boons b WHERE b.route_id = s.route_id AND b.tipper = UNHEX('$(lc "${W7#0x}")'))
	ORDER BY latest_block_number DESC, route_id" | tr '\n' ' ' | sed 's/ $//')" "routes recognizer=KEY7: newest first across pages"
page_all "method=GET&origin=$ALPHA" 4
is "$pages,$(sort -u <<<"$ids" | wc -l)" "2,5" "routes method=GET&origin=alpha: 5 routes in 2 pages"
pay "/api/v1/x402/routes?origin=$ALPHA&limit=2"
cursor=$(jq -r .pagination.nextCursor <<<"$body")
like "$cursor" '^.{1,512}$' "a nextCursor of at most 512 characters"
bad "/api/v1/x402/routes?origin=$BETA&limit=2&cursor=$cursor" cursor
like "$(jqr .message)" 'filters' "a cursor for other filters: the message says so"
bad "/api/v1/x402/routes?limit=2&cursor=$cursor" cursor
bad "/api/v1/x402/routes?origin=$ALPHA&method=GET&limit=2&cursor=$cursor" cursor
bad "/api/v1/x402/routes?origin=$ALPHA&q=shelf&limit=2&cursor=$cursor" cursor
bad "/api/v1/x402/routes?origin=$ALPHA&sort=recent&limit=2&cursor=$cursor" cursor
pay "/api/v1/x402/routes?origin=HTTPS://api.alpha.example.com&limit=2&cursor=$cursor"
is "$(jq -r .status <<<"$res"),$(jq '.routes | length' <<<"$body")" "200,2" "the same origin written another way keeps the cursor"

# ---- score: the documented formula, recomputed by hand (lib/score.h, INSTALL "Score policy")
score() { # score BODY: a paid POST /api/v1/score
	printf '%s' "$1" > "$http_tmp/score"
	pay /api/v1/score "$http_tmp/score"
}
usdc() { printf '%d.%06d' $(($1 / 1000000)) $(($1 % 1000000)) | sed -E 's/0+$//; s/\.$//'; }
# PAY_A received 9 of the recognitions (endpoint share), from KEY7 and KEY8: 2 distinct recognizers.
is "$(sql "SELECT COUNT(*), COUNT(DISTINCT tipper) FROM routed_boons WHERE endpoint_pay_to = UNHEX('${PAY_A#0x}') AND endpoint_usdc > 0" | tr '\t' ,)" \
	"9,2" "PAY_A: 9 recognitions from 2 wallets"
score "{\"recipient\":\"$PAY_A\",\"serviceCostUsdc\":\"1.234567\",\"note\":\"Great work, see pr:acme/widgets#42 and x:1234567890; paid \$9.99\"}"
is "$(jq -r .status <<<"$res")" 200 "score: paid, 200"
is "$(jq -r '.paymentResponse.success' <<<"$res")" true "score: settled (PAYMENT-RESPONSE success)"
cost=1234567
amt=$((cost * 10 / 100))            # 1. base: 10% of the cost, rounded down
amt=$((amt + 20000 + 5000))         # 2. pr marker 0.02, x marker 0.005
amt=$((amt + 2 * 2000))             # 3. two distinct recognizers, 0.002 each
[ $amt -gt $((cost / 2)) ] && amt=$((cost / 2))   # 4. at most half the cost
[ $amt -gt 500000 ] && amt=500000   # 5. cap 0.50
[ $amt -lt 10000 ] && amt=10000     # 6. floor 0.01
amt=$((amt / 1000 * 1000))          # 7. round down to 0.001
is "$(jq -r .suggestedAmountUsdc <<<"$body"),$(jq -r .suggestedAmountUsdcBaseUnits <<<"$body")" "$(usdc $amt),$amt" \
	"score: the worked example is $(usdc $amt) USDC"
is "$(jq -r 'keys | join(",")' <<<"$body")" \
	"components,executesTransaction,formulaVersion,history,interpretation,policyNote,policyOwner,policyVersion,recipient,serviceCost,suggestedAmountUsdc,suggestedAmountUsdcBaseUnits,usdcDecimals,version" \
	"score: members"
is "$(jq -r '[.policyVersion, .policyOwner, .executesTransaction] | join(" ")' <<<"$body")" "boon.recognition-score/v2 waymark false" \
	"score: the policy label, owned by waymark; executes nothing"
like "$(jq -r .policyNote <<<"$body")" "own .*not public" "score: the note says the policy is waymark's own"
like "$(jq -r .interpretation <<<"$body")" "not a quality score.*pays nothing" "score: a suggestion, not a quality score, pays nothing"
is "$(jq -c '[.components[] | [.name, .effect, .value]]' <<<"$body")" \
	"$(jq -cn --arg b "$(usdc $((cost * 10 / 100)))" --arg r "-$(usdc $(( (cost * 10 / 100 + 29000) % 1000 )))" \
	'[["serviceCost","base",$b],["artifactMarker","add","0.02"],["artifactMarker","add","0.005"],["recognitionHistory","add","0.004"],["rounding","round_down",$r]]')" \
	"score: the components of the worked example"
is "$(jq -r '[.components[].value | tonumber * 1000000 | round] | add' <<<"$body")" "$amt" "score: the component values add up to the suggestion"
is_json "$(jq -c '[.serviceCost, .history, .recipient]' <<<"$body")" \
	"[{\"source\":\"serviceCostUsdc\",\"amountUsdc\":\"1.234567\"},{\"source\":\"routed_recognitions_received\",\"recognitions\":9,\"distinctRecognizers\":2},{\"kind\":\"address\",\"value\":\"$(eip55 $PAY_A)\"}]" \
	"score: serviceCostUsdc wins over the note's \$9.99; the recipient's history in counts"
b1=$body
score "{\"recipient\":\"$(lc $PAY_A)\",\"serviceCostUsdc\":\"1.234567\",\"note\":\"Great work, see pr:acme/widgets#42 and x:1234567890; paid \$9.99\"}"
is "$(jq -c 'del(.recipient)' <<<"$body")" "$(jq -c 'del(.recipient)' <<<"$b1")" "score: deterministic (the same input, the same answer)"

score '{"recipient":"GitHub:Alice","note":"Paid $0.80 for the report; review:acme/widgets#7"}'
amt=$((800000 * 10 / 100 + 10000)); amt=$((amt / 1000 * 1000))
is "$(jq -r .suggestedAmountUsdc <<<"$body")" "$(usdc $amt)" "score: a note-only cost of \$0.80 with a review marker: $(usdc $amt)"
is_json "$(jq -c '[.serviceCost, .history, .recipient]' <<<"$body")" \
	'[{"source":"note","amountUsdc":"0.8"},{"source":"tips_received","recognitions":0,"distinctRecognizers":0},{"kind":"handle","value":"github:alice"}]' \
	"score: the cost came from the note; a handle's indexed tips (none here); canonical handle"
is "$(jq -c '[.components[] | [.name, .value]]' <<<"$body")" '[["serviceCost","0.08"],["artifactMarker","0.01"],["recognitionHistory","0"],["receivedPoints","0"]]' \
	"score: a handle's history and received points are components (none here: they add nothing)"

score '{"recipient":"x:someone","serviceCostUsdc":"0.30","note":"It was $5.00"}'
is "$(jq -r .suggestedAmountUsdc <<<"$body"),$(jq -r .serviceCost.amountUsdc <<<"$body")" "$(usdc $((300000 / 10))),0.3" \
	"score: serviceCostUsdc 0.30 takes precedence over the note's \$5.00"

score '{"recipient":"agent:7","note":"thanks"}'
base=$body
is "$(jq -r .suggestedAmountUsdc <<<"$base")" "$(usdc 20000)" "score: no cost and no markers: the default base 0.02"
score '{"recipient":"agent:7","note":"thanks pr:a/b#1 pr:a/b#1 review:a/b#2 x:99 pr:a/b#3"}'
is "$(jq -r .suggestedAmountUsdc <<<"$body")" "$(usdc $((20000 + 20000 + 10000 + 5000)))" \
	"score: markers add 0.02 (pr), 0.01 (review), 0.005 (x); a repeat counts once, at most three"
is "$(jq -r '[.components[] | select(.name == "artifactMarker") | .input] | join(" ")' <<<"$body")" "pr:a/b#1 review:a/b#2 x:99" \
	"score: the counted markers, in note order"
score "{\"recipient\":\"$B1\",\"serviceCostUsdc\":\"0.05\"}"
is "$(jq -c '[.suggestedAmountUsdc, .history.recognitions, .history.distinctRecognizers, .recipient.kind]' <<<"$body")" \
	"[\"$(usdc 10000)\",3,1,\"route\"]" "score: a route recipient counts its recognitions; 0.005 + 0.002 is lifted to the floor 0.01"
is "$(jq -r '[.components[].name] | join(",")' <<<"$body")" "serviceCost,recognitionHistory,floor" "score: the floor is a component"

# ---- every paid read settled once, and only those
is "$(balance $PAYTO)" "$((spent + paid * 10000))" "payTo received 0.01 USDC for each of the $paid paid reads (and the 0.05 review)"
is "$(sql "SELECT COUNT(*) FROM x402_payments WHERE status = 'settled'")" "$((paid + 1))" "one settled ledger row per payment"
done_testing
