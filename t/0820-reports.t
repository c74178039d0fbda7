#!/usr/bin/env bash
# The paid report resources (docs/PROTOCOL.md, Reports) through the real stack,
# paid with the real client (t/tools/pay.mjs) against the real facilitator on a
# local chain: compare (a matrix in discovery order, no winner), changes
# (a baseline saved from free discovery, then a new route context and a
# new review: the exact delta; a removed candidate; deprecated limitations
# accepted and never returned), export (contentDigest recomputed in node,
# a tampered content gives another digest), and every bad baseline or
# request answered 400 naming the field before any payment is asked for;
# a near-maximal baseline passes nginx and the check, one byte more is 413.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
. "$(dirname "$0")/lib/http.sh"
. "$(dirname "$0")/lib/x402.sh"
paid_stack reports 80
tools=$top/t/tools
viem=$tools/node_modules/viem/_cjs

paid=0
# pay PATH BODYFILE: a paid POST with the real client; the JSON line in $res, the body in $body.
pay() {
	res=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL$1" --body "$2")
	body=$(jq -c .body <<<"$res")
	[ "$(jq -r .status <<<"$res")" = 200 ] && paid=$((paid + 1))
}
# post PATH JSON: an unpaid POST (status, body and headers as req sets them).
post() {
	printf '%s' "$2" > "$http_tmp/post"
	req POST "$1" -H 'Content-Type: application/json' --data-binary @"$http_tmp/post"
}
# bad PATH JSON STATUS CODE FIELD: refused before any payment is asked for.
bad() {
	post "$1" "$2"
	is "$status,$(jqr .error),$(jqr .field)" "$3,$4,$5" "$1: $5 refused ($4)"
	ok $([ -z "$(header payment-required)" ] && echo 0 || echo 1) "$1: no payment asked ($5)"
}
# bad_keys JSON: the member names anywhere in a document that name a winner, best, score, rank or recommendation.
bad_keys() { jq -r '[(paths | .[] | strings), (.columns[]?.key)]
	| map(select(test("winner|best|score|rank|recommend"; "i"))) | unique | join(",")' <<<"$1"; }

# ---- four routes recognized by the tipper (KEY7); three described now, the fourth later
mapfile -t RIDS < <(node -e '
const {keccak256,toBytes}=require(process.argv[1]);
for (let i = 1; i <= 4; i++)
	console.log(keccak256(toBytes(`boon:x402-route:v1\nGET\nhttps://api.report-${i}.example.com\n/v1/items`)));' "$viem/index.js")
is "${#RIDS[@]}" 4 "four route IDs derived from GET https://api.report-N.example.com/v1/items"
for i in 0 1 2 3; do
	out=$(send --from-key $KEY7 --route "${RIDS[$i]}" --endpoint $PAY_A --endpoint-usdc $((1000 * (i + 1))))
	[ $i = 1 ] && rec2=$out
	last=$(jq -r .blockNumber <<<"$out")
done
wait_indexed "$last"; ok $? "recognitions of the four routes indexed"
now=$(date +%s)
publish() { # publish N: the tipper's route context for route N
	local note b
	note=$(jq -cn --arg u "https://api.report-$1.example.com/v1/items" --arg in "Returns the items of shop $1 as JSON." \
		--argjson c $((now - 60)) --argjson e $((now + 86400)) '{version: "1", route: {publicEndpointUrl: $u, method: "GET"},
		intent: $in, fit: "Use to list items.", limits: [], requestSchemaUri: null, documentationUri: null, contextUris: [],
		createdAt: $c, expiresAt: $e}')
	b=$(jq -cn --arg k $KEY7 --argjson n "$note" '{key: $k, note: $n}' | node "$tools/gen-route-context.mjs" body)
	curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' --data-binary "$b" "$URL/api/v1/x402/route-contexts"
}
for i in 1 2 3; do is "$(publish $i)" 201 "route context $i published"; done
R1=${RIDS[0]} R2=${RIDS[1]} R3=${RIDS[2]} R4=${RIDS[3]}

# ---- the baseline: a free discovery snapshot saved by the caller
req GET "/api/v1/x402/discovery?q=items"
is "$status" 200 "free discovery answers"
BASE=$body
printf '%s' "$BASE" > "$http_tmp/base.json"
is "$(node "$tools/validate.mjs" "$top/t/schemas/discovery-snapshot.json" < "$http_tmp/base.json")" valid "the baseline is a valid snapshot"
# Equal relevance and no reviews: route ID order.
is "$(jq -r '[.candidates[].routeId] | join(" ")' <<<"$BASE")" "$(printf '%s\n' $R1 $R2 $R3 | sort | tr '\n' ' ' | sed 's/ $//')" \
	"the baseline: the three described routes in route ID order"
sleep 1.1   # the baseline must be older than the reports

# ---- unpaid: 402 with the price, no-store, for each report
for p in compare changes export; do
	case $p in
	compare) b='{"q":"items"}' ;;
	changes) b=$(jq -cn --argjson b "$BASE" '{baseline: $b, q: "items"}') ;;
	export) b='{"report":"compare","q":"items"}' ;;
	esac
	post "/api/v1/x402/reports/$p" "$b"
	is "$status,$(jqr .error),$(header cache-control)" "402,payment_required,private, no-store" "unpaid POST reports/$p: 402"
	is "$(header payment-required | base64 -d | jq -r '.accepts[0].amount')" 10000 "unpaid reports/$p: price 0.01 USDC"
	req GET "/api/v1/x402/reports/$p"
	is "$status" 405 "GET reports/$p: 405"
done

# ---- the body limit: a near-maximal baseline passes nginx, the parser and the check
# (20 candidates, every bounded text at its limit in 4-byte characters), one byte
# over the row's limit is 413.
jq -c --arg u "$URL" 'def big(n): "\ud834\udd1e" * n;
	.candidates[0] as $c | {baseline: (.query.limit = 20 | .limitations = [range(10) | big(2000)] |
	.candidates = [range(20) as $i | ("0x" + ("0" * 62) + (if $i < 10 then "0" else "" end) + ($i | tostring)) as $r |
		$c | .routeId = $r | .title = big(160) | .summary = big(1000) | .matchReasons = [range(10) | big(2000)] |
		.limitations = [range(10) | big(2000)] | .links = {web: ("/x402/routes/" + $r), api: ("/api/v1/x402/routes/" + $r)} |
		.reviews = [range(10) | {text: big(2000), evidenceKind: "self_reported", reviewer: null,
			publishedAt: "2026-01-01T00:00:00.123+02:00", sourceUrl: ($u + "/api/site/x402/routes/" + $r + "/reviews")}]]),
	q: "items", limit: 20}' <<<"$BASE" > "$http_tmp/big.json"
max=$("$WAYMARK_BUILD/waymark" routes list | awk -F'\t' '$3 == "x402.reports.changes" {print $6}')
size=$(wc -c < "$http_tmp/big.json")
ok $([ "$size" -gt 4000000 ] && [ "$size" -le "$max" ] && echo 0 || echo 1) "a near-maximal baseline request: $size bytes, within the row's $max"
req POST /api/v1/x402/reports/changes -H 'Content-Type: application/json' --data-binary @"$http_tmp/big.json"
is "$status,$(jqr .error)" "402,payment_required" "the near-maximal baseline is accepted up to the payment step"
head -c $((max + 1)) /dev/zero | tr '\0' ' ' > "$http_tmp/over.json"
req POST /api/v1/x402/reports/changes -H 'Content-Type: application/json' --data-binary @"$http_tmp/over.json"
is "$status,$(jqr .error)" "413,body_too_large" "one byte over the row's body limit: 413"

# ---- bad requests and baselines: 400 naming the field, before any payment
C=/api/v1/x402/reports/changes E=/api/v1/x402/reports/export
with() { jq -c "$1" <<<"$BASE"; }   # the baseline changed by a jq filter
cb() { jq -cn --argjson b "$1" "{baseline: \$b, q: \"items\"} ${2:+| $2}"; }   # a changes body
bad /api/v1/x402/reports/compare '{"limit":21}' 400 invalid_field limit
bad /api/v1/x402/reports/compare '{"q":"items","winner":true}' 400 unknown_field winner
bad /api/v1/x402/reports/compare "{\"q\":\"$(printf 'q%.0s' $(seq 401))\"}" 400 invalid_field q
bad $C '{"q":"items"}' 400 missing_field baseline
bad $C '{"baseline":[],"q":"items"}' 400 invalid_field baseline
bad $C "$(cb "$BASE" '.q = "other"')" 400 invalid_field baseline.query.q
bad $C "$(cb "$BASE" 'del(.q)')" 400 invalid_field baseline.query.q
bad $C "$(cb "$BASE" '.limit = 5')" 400 invalid_field baseline.query.limit
bad $C "$(cb "$BASE" ".reviewer = \"$PAYER\"")" 400 invalid_field baseline.query.reviewer
bad $C "$(cb "$(with '.generatedAt = "2999-01-01T00:00:00Z"')")" 400 invalid_field baseline.generatedAt
bad $C "$(cb "$(with ".generatedAt = \"$(date -u -d '+5 min' +%Y-%m-%dT%H:%M:%SZ)\"")")" 400 invalid_field baseline.generatedAt
bad $C "$(cb "$(with '.generatedAt = "2026-02-30T00:00:00Z"')")" 400 invalid_field baseline.generatedAt
bad $C "$(cb "$(with '.version = 1')")" 400 invalid_field baseline.version
bad $C "$(cb "$(with 'del(.coverage)')")" 400 missing_field baseline.coverage
bad $C "$(cb "$(with '.coverage.routes.complete = true')")" 400 invalid_field baseline.coverage.routes.complete
bad $C "$(cb "$(with '.extra = 1')")" 400 unknown_field baseline.extra
bad $C "$(cb "$(with '.candidates[0].title = ""')")" 400 invalid_field 'baseline.candidates[0].title'
bad $C "$(cb "$(with '.candidates[1].routeId = "0x12"')")" 400 invalid_field 'baseline.candidates[1].routeId'
bad $C "$(cb "$(with '.candidates[1] = .candidates[0]')")" 400 invalid_field 'baseline.candidates[1].routeId'
bad $C "$(cb "$(with '.candidates[0].url = "http://127.0.0.1/x"')")" 400 invalid_field 'baseline.candidates[0].url'
bad $C "$(cb "$(with '.candidates[0].usage.useCount = -1')")" 400 invalid_field 'baseline.candidates[0].usage.useCount'
bad $C "$(cb "$(with '.candidates[0].usage.clientSettlementProfileCount = -1')")" 400 invalid_field \
	'baseline.candidates[0].usage.clientSettlementProfileCount'
bad $C "$(cb "$(with '.candidates[0].price.status = "fresh"')")" 400 invalid_field 'baseline.candidates[0].price.status'
bad $C "$(cb "$(with '.candidates[2].invocation.requiresApproval = false')")" 400 invalid_field 'baseline.candidates[2].invocation.requiresApproval'
bad $C "$(cb "$(with 'del(.candidates[0].links)')")" 400 missing_field 'baseline.candidates[0].links'
bad $C "$(cb "$(with '.candidates[0].links.api = .candidates[1].links.api')")" 400 invalid_field 'baseline.candidates[0].links.api'
bad $C "$(cb "$(with '.candidates[0].links.web = .candidates[1].links.web')")" 400 invalid_field 'baseline.candidates[0].links.web'
bad $C "$(cb "$(with '.candidates[0].score = 1')")" 400 unknown_field 'baseline.candidates[0].score'
bad $C "$(cb "$(with '.limitations = "old"')")" 400 invalid_field baseline.limitations
bad $C "$(cb "$(with '.limitations = [""]')")" 400 invalid_field 'baseline.limitations[0]'
bad $C "$(cb "$(with '.candidates[0].limitations = [1]')")" 400 invalid_field 'baseline.candidates[0].limitations[0]'
bad $C "$(cb "$(with '.candidates[0].limitations = {}')")" 400 invalid_field 'baseline.candidates[0].limitations'
bad $C "$(cb "$(with '.candidates[0].reviews = [{text: "x", evidenceKind: "boon_backed", reviewer: null,
	publishedAt: null, sourceUrl: ("'"$URL"'/api/site/x402/routes/" + .candidates[1].routeId + "/reviews")}]')")" \
	400 invalid_field 'baseline.candidates[0].reviews[0].sourceUrl'
bad $C "$(cb "$(with '.query.limit = 2')" '.limit = 2')" 400 invalid_field baseline.candidates
bad $E '{"report":"compare","q":"items","baseline":{}}' 400 invalid_field baseline
bad $E '{"report":"changes","q":"items"}' 400 missing_field baseline
bad $E '{"report":"ranking"}' 400 invalid_field report
bad $E "$(jq -cn --argjson b "$(with '.limitations = 7')" '{report: "changes", q: "items", baseline: $b}')" \
	400 invalid_field baseline.limitations
bad $E "$(jq -cn --argjson b "$BASE" '{report: "changes", q: "item", baseline: $b}')" 400 invalid_field baseline.query.q
is "$(balance $PAYTO)" 0 "nothing was charged so far"
is "$(sql "SELECT COUNT(*) FROM x402_payments")" 0 "no payment was even reserved for a refused request"

# ---- compare: the matrix, in discovery order, no winner
printf '%s' '{"q":"items"}' > "$http_tmp/cmp.json"
pay /api/v1/x402/reports/compare "$http_tmp/cmp.json"
is "$(jq -r .status <<<"$res"),$(jq -r .paymentResponse.success <<<"$res")" "200,true" "compare: paid, 200, settled (PAYMENT-RESPONSE)"
is "$(jq -r 'keys | join(",")' <<<"$body")" "columns,coverage,generatedAt,interpretation,query,report,rows,version" "compare: members"
is_json "$(jq -c '[.version, .report, .query]' <<<"$body")" '["1","compare",{"q":"items","limit":10,"reviewer":null}]' "compare: version, report, query"
CMP=$body
CMP_RES=$res   # pay.mjs's text, in the server's key order (jq -c above sorts)
req GET "/api/v1/x402/discovery?q=items"
is "$(jq -r '[.rows[].routeId] | join(" ")' <<<"$CMP")" "$(jqr '[.candidates[].routeId] | join(" ")')" "compare: rows in the discovery order"
is "$(jq -r '[.rows[].position] | join(",")' <<<"$CMP")" "1,2,3" "compare: positions 1..n"
is "$(bad_keys "$CMP")" "" "compare: no member names a winner, best, score, rank or recommendation"
is "$(jq -r '[.columns[].key] | join(",")' <<<"$CMP")" "$(jq_in_order -r '.body.rows[0].facts | keys_unsorted | join(",")' <<<"$CMP_RES")" \
	"compare: one fact per column, in column order"
is "$(jq_in_order -r '[.body.rows[] | (.facts | keys_unsorted | join(","))] | unique | length' <<<"$CMP_RES")" 1 "compare: every row has the same columns"
is "$(jq -r '[.columns[] | select((.description | length) < 10)] | length' <<<"$CMP")" 0 "compare: each column is described"
row2=$(jq -c --arg r "$R2" '.rows[] | select(.routeId == $r)' <<<"$CMP")
is "$(jq -c '[.title, .method, .url]' <<<"$row2")" '["GET api.report-2.example.com/v1/items","GET","https://api.report-2.example.com/v1/items"]' \
	"compare: a row names its route"
is "$(jq -c '.facts | [.useCount, .walletCount, .boonBackedReviewCount, .receiptVerifiedReviewCount, .selfReportedReviewCount, .latestReviewAt, .recognitionTotalUsdc, .signedContext, .signedContextCount, .priceStatus, .priceAmount]' <<<"$row2")" \
	'[1,1,0,0,0,null,"2000",true,1,"unknown",null]' "compare: the facts of route 2"
like "$(jq -r '.rows[0].facts.latestRecognitionAt' <<<"$CMP")" '^20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$' "compare: latestRecognitionAt is a date-time"
like "$(jq -r .interpretation <<<"$CMP")" 'not a ranking.*no winner' "compare: the interpretation says what it is not"

# ---- the world moves on: route 4 gets a context, route 2 a boon_backed review
is "$(publish 4)" 201 "route context 4 published after the baseline"
chain_id=$(jq -r .chainId "$STATE"); companion=$(jq -r .companion "$STATE")
rb=$(node "$tools/sign-review.mjs" $KEY7 "$chain_id" "$companion" "$R2" "$(jq -r .txHash <<<"$rec2")" \
	"$(jq -r .logIndex <<<"$rec2")" "$now" "Listed every item of shop 2.")
is "$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' --data-binary "$rb" \
	"$URL/api/v1/x402/reviews")" 201 "a boon_backed review of route 2 is published after the baseline"

# ---- changes: the exact delta, limitations accepted and never returned
jq -c '{baseline: (. + {limitations: ["Saved by an old client."]} | .candidates[0].limitations = ["old candidate note"]), q: "items"}' \
	<<<"$BASE" > "$http_tmp/chg.json"
pay /api/v1/x402/reports/changes "$http_tmp/chg.json"
is "$(jq -r .status <<<"$res"),$(jq -r .paymentResponse.success <<<"$res")" "200,true" "changes: paid, 200, settled"
CHG=$body
is "$(jq -r 'keys | join(",")' <<<"$CHG")" \
	"added,baselineGeneratedAt,changed,coverage,generatedAt,interpretation,query,removed,report,unchangedCount,version" "changes: members"
is "$(jq -r .baselineGeneratedAt <<<"$CHG")" "$(jq -r .generatedAt <<<"$BASE")" "changes: baselineGeneratedAt is the baseline's"
req GET "/api/v1/x402/discovery?q=items"
NOW=$body
# Now: route 2 first (a boon_backed review), then the others by route ID.
exp_order="$R2 $(printf '%s\n' $R1 $R3 $R4 | sort | tr '\n' ' ' | sed 's/ $//')"
is "$(jq -r '[.candidates[].routeId] | join(" ")' <<<"$NOW")" "$exp_order" "discovery now: the reviewed route first"
p4=$(jq -r --arg r "$R4" '[.candidates[].routeId] | index($r) + 1' <<<"$NOW")
is_json "$(jq -c .added <<<"$CHG")" \
	"[{\"routeId\":\"$R4\",\"position\":$p4,\"title\":\"GET api.report-4.example.com/v1/items\",\"method\":\"GET\",\"url\":\"https://api.report-4.example.com/v1/items\"}]" \
	"changes: route 4 added, at its position now"
is "$(jq -c .removed <<<"$CHG")" '[]' "changes: nothing removed"
pub2=$(jq -r --arg r "$R2" '.candidates[] | select(.routeId == $r) | .reviews[0].publishedAt' <<<"$NOW")
ob2=$(jq -r --arg r "$R2" '[.candidates[].routeId] | index($r) + 1' <<<"$BASE")
want2='[]'
[ "$ob2" != 1 ] && want2="[{\"field\":\"position\",\"old\":$ob2,\"new\":1}]"
want2=$(jq -c --arg p "$pub2" '. + [{field: "reviewsShown.boon_backed", old: 0, new: 1},
	{field: "reviewsShown.latestPublishedAt", old: null, new: $p}]' <<<"$want2")
is "$(jq -c --arg r "$R2" '.changed[] | select(.routeId == $r) | .changes' <<<"$CHG")" "$want2" \
	"changes: route 2's review counts, newest review and position, old and new"
# Every other pair: exactly the position moves, as recomputed here from the two snapshots.
exp_changed=$(jq -c -n --argjson b "$BASE" --argjson n "$NOW" --arg r2 "$R2" '
	[$n.candidates | to_entries[] | .key as $i | .value.routeId as $id
	 | ($b.candidates | map(.routeId) | index($id)) as $j
	 | select($j != null and $id != $r2 and $j != $i)
	 | {routeId: $id, position: ($i + 1), changes: [{field: "position", old: ($j + 1), new: ($i + 1)}]}]')
is "$(jq -c --arg r "$R2" '[.changed[] | select(.routeId != $r)]' <<<"$CHG")" "$exp_changed" "changes: the other routes' position moves"
is "$(jq -r '.unchangedCount + (.changed | length)' <<<"$CHG")" 3 "changes: unchanged + changed = the routes in both snapshots"
is "$(jq -r '[paths | .[] | strings | select(. == "limitations")] | length' <<<"$CHG")" 0 "changes: limitations are never returned"
ok $(grep -q 'old candidate note\|Saved by an old client' <<<"$CHG" && echo 1 || echo 0) \
	"changes: nothing of the limitations text is returned"
like "$(jq -r .interpretation <<<"$CHG")" 'never authenticated history.*stores nothing about the baseline' "changes: the interpretation"
is "$(bad_keys "$CHG")" "" "changes: no member names a winner, best, score, rank or recommendation"

# A candidate the baseline had and discovery no longer has: removed. The baseline is
# one saved before usage.clientSettlementProfileCount existed: accepted, that member
# not compared.
fake=0x$(printf '0%.0s' $(seq 63))1
jq -c --arg f "$fake" '{baseline: (del(.candidates[].usage.clientSettlementProfileCount) | .candidates += [.candidates[0] | .routeId = $f | .title = "Gone" |
	.links = {web: ("/x402/routes/" + $f), api: ("/api/v1/x402/routes/" + $f)}]), q: "items"}' <<<"$BASE" > "$http_tmp/chg2.json"
pay /api/v1/x402/reports/changes "$http_tmp/chg2.json"
is_json "$(jq -c '.removed' <<<"$body")" \
	"[{\"routeId\":\"$fake\",\"position\":4,\"title\":\"Gone\",\"method\":\"GET\",\"url\":\"$(jq -r '.candidates[0].url' <<<"$BASE")\"}]" \
	"changes: a candidate missing now is removed, at its baseline position"
is "$(jq -c .changed <<<"$body")" "$(jq -c .changed <<<"$CHG")" \
	"changes: a baseline without usage.clientSettlementProfileCount gives the same changes (not compared)"

# ---- export: contentDigest over the canonical content, recomputed in node
printf '%s' '{"report":"compare","q":"items"}' > "$http_tmp/exp.json"
pay /api/v1/x402/reports/export "$http_tmp/exp.json"
is "$(jq -r .status <<<"$res"),$(jq -r .paymentResponse.success <<<"$res")" "200,true" "export compare: paid, 200, settled"
EXP=$body
is "$(jq -r 'keys | join(",")' <<<"$EXP")" "content,contentDigest,generatedAt,interpretation,report,request,version" "export: members"
is_json "$(jq -c '[.version, .report, .request]' <<<"$EXP")" '["1","compare",{"report":"compare","q":"items","limit":10,"reviewer":null}]' \
	"export: the bounded request echoed"
like "$(jq -r .contentDigest <<<"$EXP")" '^sha256:[0-9a-f]{64}$' "export: contentDigest is sha256:<64 hex>"
is "$(jq -c '[.content.report, [.content.rows[].routeId]]' <<<"$EXP")" "$(jq -c '["compare", [.candidates[].routeId]]' <<<"$NOW")" \
	"export: the content is the compare matrix"
is "$(node "$tools/jcs-digest.mjs" content <<<"$EXP")" "$(jq -r .contentDigest <<<"$EXP")" "export: node recomputes the same digest"
is "$(jq -c '.content | .rows[0].title = "Tampered"' <<<"$EXP" | node "$tools/jcs-digest.mjs" | grep -c "$(jq -r .contentDigest <<<"$EXP")")" 0 \
	"export: a tampered content gives another digest"
is "$(jq -c '.content | .rows[0].facts.useCount += 1' <<<"$EXP" | node "$tools/jcs-digest.mjs" | grep -c "$(jq -r .contentDigest <<<"$EXP")")" 0 \
	"export: a changed count gives another digest"
like "$(jq -r .interpretation <<<"$EXP")" 'integrity checks only: not a signature' "export: checksum, not a signature"

jq -c '{report: "changes", q: "items", baseline: (. + {limitations: ["Saved by an old client."]})}' <<<"$BASE" > "$http_tmp/exp2.json"
pay /api/v1/x402/reports/export "$http_tmp/exp2.json"
is "$(jq -r .status <<<"$res")" 200 "export changes: paid, 200"
is "$(jq -c '[.content.report, .content.baselineGeneratedAt, (.content.added | map(.routeId))]' <<<"$body")" \
	"[\"changes\",\"$(jq -r .generatedAt <<<"$BASE")\",[\"$R4\"]]" "export changes: the delta as content"
is "$(jq -r '.request | keys | join(",")' <<<"$body")" "limit,q,report,reviewer" "export changes: the request echo omits the baseline"
is "$(node "$tools/jcs-digest.mjs" content <<<"$body")" "$(jq -r .contentDigest <<<"$body")" "export changes: node recomputes the digest"
is "$(jq -r '[paths | .[] | strings | select(. == "limitations")] | length' <<<"$body")" 0 "export changes: no limitations"

printf '%s' '{"report":"discovery","q":"items","limit":2}' > "$http_tmp/exp3.json"
pay /api/v1/x402/reports/export "$http_tmp/exp3.json"
is "$(jq -r .status <<<"$res"),$(jq -r '.content.candidates | length' <<<"$body")" "200,2" "export discovery: a snapshot of limit 2"
jq -c .content <<<"$body" > "$http_tmp/snap.json"
is "$(node "$tools/validate.mjs" "$top/t/schemas/discovery-snapshot.json" < "$http_tmp/snap.json")" valid \
	"export discovery: the content validates as a discovery snapshot"
is "$(node "$tools/jcs-digest.mjs" content <<<"$body")" "$(jq -r .contentDigest <<<"$body")" "export discovery: node recomputes the digest"

# ---- every paid report settled once, and only those
is "$(balance $PAYTO)" "$((paid * 10000))" "payTo received 0.01 USDC for each of the $paid paid reports"
is "$(sql "SELECT COUNT(*) FROM x402_payments WHERE status = 'settled'")" "$paid" "one settled ledger row per paid report"
done_testing
