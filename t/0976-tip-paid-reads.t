#!/usr/bin/env bash
# The paid tip reads through the real stack on the local chain, each paid
# with the real x402 client (t/tools/pay.mjs) through the real facilitator:
# a handle's tip list (newest first, every tip once over the cursor pages,
# private tips counted and listed without amount or note), the gratitude
# graph of a handle (its tippers, and what its linked wallet tipped) and of
# a repository (public notes citing it with pr:/review: markers), and the
# batch graph of up to 25 handles at one flat price. The payee receives
# exactly 10000 atomic USDC per read; 26 handles, an invalid handle or
# subject, or a foreign cursor are refused with 400 before any payment is
# asked for, and no USDC moves. The score uses a handle's tips, and routed
# recognition rows show the GitHub/X accounts linked to their wallets.
# Every answer is validated by its JSON Schema in t/schemas.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
. "$(dirname "$0")/lib/http.sh"
. "$(dirname "$0")/lib/x402.sh"
paid_stack tippaid 143
tools=$top/t/tools
schemas=$top/t/schemas
viem=$tools/node_modules/viem/_cjs

paid=0
# pay PATH [BODYFILE]: a paid GET (or POST of BODYFILE) with the real client; $res, $body.
pay() {
	res=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL$1" ${2:+--body "$2"})
	body=$(jq -c .body <<<"$res")
	[ "$(jq -r .status <<<"$res")" = 200 ] && paid=$((paid + 1))
	printf '%s\n' "$body" >> "$bodies"
}
valid() { # valid SCHEMA JSON DESCRIPTION
	local v; v=$(printf '%s' "$2" | node "$tools/validate.mjs" "$schemas/$1" 2>&1)
	is "$v" valid "$3"
}
tips() { local c=$1; shift; node "$top/chain/tips.mjs" "$c" --rpc "$RPC" --state "$STATE" "$@"; }
addr_of() { node -e 'const {privateKeyToAccount}=require(process.argv[1]);console.log(privateKeyToAccount(process.argv[2]).address)' "$viem/accounts/index.js" "$1"; }
bodies=$WAYMARK_VAR/bodies; : > "$bodies"

K3=0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6
K4=0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a
K5=0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba
W5=$(addr_of $K5); T3=$(addr_of $K3); T7=$(addr_of $KEY7); T8=$(addr_of $KEY8); OWNER=$(addr_of $K4)
SECRET_AMOUNT=771234; SECRET_NOTE=secret-note-zq

# ---- the tips (carol: six, two private, from three tippers; her wallet tips dave)
tips tip --from-key $KEY7 --handle github:carol --amount 300000 --note "pr:acme/widgets#1 thanks" >/dev/null
tips tip --from-key $KEY8 --handle github:carol --amount 400000 --note "(review:Acme/Widgets#2)" >/dev/null
tips tip --from-key $K3 --handle github:carol --amount $SECRET_AMOUNT --note $SECRET_NOTE --private >/dev/null
lk=$(tips link-claim --handle github:carol --wallet "$W5")
is "$(jq -r .claimed <<<"$lk")" 3 "github:carol is linked to a wallet and claims her three escrowed tips"
tips tip --from-key $KEY7 --handle github:carol --amount 100000 --note "again pr:acme/widgets#1" >/dev/null
tips tip --from-key $KEY8 --handle github:carol --amount 50000 --note "no marker here" >/dev/null
tips tip --from-key $K5 --handle github:dave --amount 200000 --note "pr:acme/widgets#3 by dave" >/dev/null
tips tip --from-key $KEY7 --handle x:erin --amount 150000 --note $SECRET_NOTE --private >/dev/null
tips tip --from-key $KEY8 --handle github:dave --amount 120000 --note "pr:other/repo#1" >/dev/null
AG=$(tips register --from-key $K4 | jq -r .agentId)
tips tip-agent --from-key $KEY7 --agent "$AG" --amount 110000 --note "review:acme/widgets#9" >/dev/null
last=$(tips tip --from-key $K3 --handle github:carol --amount $SECRET_AMOUNT --note $SECRET_NOTE --private)
rec=$(send --from-key $K5 --route "$ROUTE_1" --endpoint $PAY_A --endpoint-usdc 1000)
wait_indexed "$(jq -r .blockNumber <<<"$rec")"; ok $? "eleven tips and a routed recognition by carol's wallet are indexed"
is "$(sql "SELECT CONCAT(tips_received, ',', private_received, ',', tipper_count) FROM handle_tip_stats WHERE handle = 'github:carol'")" \
	"6,2,3" "carol received six tips, two private, from three wallets"

# ---- unpaid: 402 with the flat price
for p in "/api/v1/handles/github:carol/boons" "/api/v1/graphs/gratitude?subject=handle:github:carol"; do
	req GET "$p"
	is "$status,$(jqr .error),$(header cache-control)" "402,payment_required,private, no-store" "unpaid GET $p: 402"
	is "$(header payment-required | base64 -d | jq -r '.accepts[0].amount')" 10000 "unpaid GET $p: price 0.01 USDC"
done
req POST /api/v1/graphs/queries -H 'Content-Type: application/json' --data-binary '{"handles":["github:carol"]}'
is "$status,$(header payment-required | base64 -d | jq -r '.accepts[0].amount')" "402,10000" "unpaid queries: 402 at 0.01 USDC"

# ---- refused before any payment: 400 naming the field, no challenge, no USDC moved
bad() { # bad METHOD PATH FIELD [CODE] [BODY]
	if [ "$1" = POST ]; then req POST "$2" -H 'Content-Type: application/json' --data-binary "$5"
	else req GET "$2"; fi
	is "$status,$(jqr .error),$(jqr .field)" "400,${4:-invalid_field},$3" "400 before payment: $1 $2 ${5:0:60}"
	is "$(header payment-required)" "" "no payment asked: $1 $2 ${5:0:60}"
}
bad GET "/api/v1/handles/github:-bad/boons" handle
bad GET "/api/v1/handles/agent:0/boons" handle
bad GET "/api/v1/handles/bob/boons" handle
bad GET "/api/v1/handles/github:carol/boons?limit=101" limit
bad GET "/api/v1/handles/github:carol/boons?cursor=garbage" cursor
bad GET "/api/v1/graphs/gratitude" subject missing_field
bad GET "/api/v1/graphs/gratitude?subject=github:carol" subject
bad GET "/api/v1/graphs/gratitude?subject=handle:github:-x" subject
bad GET "/api/v1/graphs/gratitude?subject=repo:acme" subject
bad GET "/api/v1/graphs/gratitude?subject=repo:acme/widgets/x" subject
bad GET "/api/v1/graphs/gratitude?subject=handle:github:carol&limit=201" limit
H26=$(jq -cn '[range(26) | "github:user\(.)"]')
before=$(balance $PAYTO)
bad POST /api/v1/graphs/queries handles invalid_field "{\"handles\":$H26}"
ok $([ -z "$(grep -i '^payment' <<<"$headers")" ] && echo 0 || echo 1) "26 handles: no 402, no payment header at all"
bad POST /api/v1/graphs/queries handles invalid_field '{"handles":[]}'
bad POST /api/v1/graphs/queries handles invalid_field '{"handles":["github:carol","bob"]}'
bad POST /api/v1/graphs/queries handles invalid_field '{"handles":[5]}'
bad POST /api/v1/graphs/queries handles missing_field '{"limit":5}'
bad POST /api/v1/graphs/queries extra unknown_field '{"handles":["github:carol"],"extra":1}'
# The real client, offered 26 handles, is refused before it could pay.
printf '{"handles":%s}' "$H26" > "$http_tmp/q26"
pay /api/v1/graphs/queries "$http_tmp/q26"
is "$(jq -r '[.status, .body.error, .body.field, .paymentResponse] | join(",")' <<<"$res")" "400,invalid_field,handles," \
	"the paying client gets the 400 for 26 handles, no payment response"
is "$(balance $PAYTO)" "$before" "no USDC moved for the refused requests"
is "$(sql "SELECT COUNT(*) FROM x402_payments")" 0 "no payment was recorded"

# ---- a handle's tips, newest first, over the cursor pages
b0=$(balance $PAYTO)
pay "/api/v1/handles/GitHub%3ACarol/boons?limit=4"
is "$(jq -r '[.status, .paymentResponse.success] | join(",")' <<<"$res")" "200,true" "handle tips: paid with @x402/fetch, settled"
is "$(( $(balance $PAYTO) - b0 ))" 10000 "the payee received exactly 10000 for the read"
valid handle-tips.json "$body" "handle tips: valid against its schema"
is_json "$(jq -c '[.handle, .counts, (.items | length), .pagination.hasMore]' <<<"$body")" \
	'["github:carol",{"tips":6,"privateTips":2},4,true]' "the canonical handle, counts with the private tips, a first page of 4"
ids=$(jq -r '.items[].tipId' <<<"$body")
cur=$(jq -r .pagination.nextCursor <<<"$body")
like "$cur" '^h1\.[0-9a-f]{16}\.[0-9]+$' "a next cursor"
bad GET "/api/v1/handles/github:dave/boons?cursor=$cur" cursor
pay "/api/v1/handles/github:carol/boons?limit=4&cursor=$cur"
valid handle-tips.json "$body" "the second page: valid"
is "$(jq -c '[(.items | length), .pagination.hasMore, .pagination.nextCursor]' <<<"$body")" '[2,false,null]' "the last page"
ids="$ids $(jq -r '.items[].tipId' <<<"$body")"
is "$(echo $ids)" "$(echo $(sql "SELECT tip_id FROM tips WHERE handle = 'github:carol' ORDER BY tip_id DESC"))" \
	"every tip of carol exactly once, newest first"
pay "/api/v1/handles/github:carol/boons"
is "$(jq -c '[.items[] | select(.private) | [.amountUsdc, .note, .status]]' <<<"$body")" '[[null,null,"PUSHED"],[null,null,"CLAIMED"]]' \
	"private tips are listed without amount or note"
is "$(jq -c '[.items[] | select(.private | not) | .amountUsdc]' <<<"$body")" '["50000","100000","400000","300000"]' \
	"public tips show their amounts"
pay "/api/v1/handles/x:nobody/boons"
is_json "$(jq -c '[.counts, .items, .pagination.nextCursor]' <<<"$body")" '[{"tips":0,"privateTips":0},[],null]' "a handle without tips: empty"

# ---- the gratitude graph of a handle
pay "/api/v1/graphs/gratitude?subject=handle:GitHub:Carol"
is "$(jq -r .status <<<"$res")" 200 "gratitude of a handle: paid, 200"
valid gratitude-graph.json "$body" "gratitude of a handle: valid against its schema"
is "$(jq -c .subject <<<"$body")" '{"kind":"handle","value":"github:carol"}' "the subject, canonical"
is_json "$(jq -c '.nodes[] | select(.queried == true) | [.handle, .linkedWallet, .received]' <<<"$body")" \
	"[\"github:carol\",\"$W5\",{\"tips\":6,\"privateTips\":2,\"usdc\":\"850000\"}]" \
	"carol's node: her linked wallet and what she received (public USDC only)"
is "$(jq -c '[.edges[] | [.from, .to, .tipCount, .privateCount, .amountUsdc]] | sort' <<<"$body")" \
	"$(jq -cn --arg t3 "wallet:$T3" --arg t7 "wallet:$T7" --arg t8 "wallet:$T8" --arg w5 "wallet:$W5" '[
		[$t7, "handle:github:carol", 2, 0, "400000"], [$t8, "handle:github:carol", 2, 0, "450000"],
		[$t3, "handle:github:carol", 2, 2, "0"], [$w5, "handle:github:dave", 1, 0, "200000"]] | sort')" \
	"edges: her three tippers (the private ones counted, no amount) and what her wallet tipped"
is "$(jq -c '[.edges[].tipCount] | . == (sort | reverse)' <<<"$body")" true "edges: the most tips first"
is_json "$(jq -c '.bounds' <<<"$body")" '{"limit":50,"edges":4,"truncated":false}' "bounds"
pay "/api/v1/graphs/gratitude?subject=handle:github:carol&limit=2"
is "$(jq -c '[(.edges | length), .bounds.truncated]' <<<"$body")" '[2,true]' "limit bounds the edges and says so"

# ---- the gratitude graph of a repository (note markers of public tips)
pay "/api/v1/graphs/gratitude?subject=repo:ACME/widgets"
valid gratitude-graph.json "$body" "gratitude of a repo: valid"
is "$(jq -c .subject <<<"$body")" '{"kind":"repo","value":"acme/widgets"}' "the repository, lowercased"
is "$(jq -c '[.edges[] | [.from, .to, .tipCount, .amountUsdc, .markers]] | sort' <<<"$body")" \
	"$(jq -cn --arg t7 "wallet:$T7" --arg t8 "wallet:$T8" --arg w5 "wallet:$W5" --arg ag "handle:agent:$AG" '[
		[$t7, "handle:github:carol", 2, "400000", ["pr:acme/widgets#1"]],
		[$t8, "handle:github:carol", 1, "400000", ["review:Acme/Widgets#2"]],
		[$w5, "handle:github:dave", 1, "200000", ["pr:acme/widgets#3"]],
		[$t7, $ag, 1, "110000", ["review:acme/widgets#9"]]] | sort')" \
	"the tips citing acme/widgets, with their markers (another repo and unmarked notes excluded)"
is "$(jq -c '[.nodes[] | select(.kind == "repo")]' <<<"$body")" '[{"id":"repo:acme/widgets","kind":"repo","repo":"acme/widgets"}]' "the repo node"
pay "/api/v1/graphs/gratitude?subject=repo:nobody/nothing"
is "$(jq -c '[(.nodes | length), .edges]' <<<"$body")" '[1,[]]' "a repository no note cites: only its node"

# ---- the batch graph: 25 handles, one flat price
H25=$(jq -cn --arg ag "agent:$AG" '["GitHub:Carol", "github:dave", $ag, "x:erin"] + [range(21) | "github:user\(.)"]')
printf '{"handles":%s}' "$H25" > "$http_tmp/q25"
b0=$(balance $PAYTO)
pay /api/v1/graphs/queries "$http_tmp/q25"
is "$(jq -r '[.status, .paymentResponse.success] | join(",")' <<<"$res")" "200,true" "queries with 25 handles: paid, settled"
is "$(( $(balance $PAYTO) - b0 ))" 10000 "25 handles cost exactly 10000, like one"
valid gratitude-queries.json "$body" "queries: valid against its schema"
is "$(jq -c '[(.handles | length), .handles[0:4]]' <<<"$body")" "[25,[\"github:carol\",\"github:dave\",\"agent:$AG\",\"x:erin\"]]" \
	"the 25 handles, canonical, in order"
is "$(jq -c '[.edges[] | [.from, .to, .tipCount, .privateCount]] | sort' <<<"$body")" \
	"$(jq -cn --arg t3 "wallet:$T3" --arg t7 "wallet:$T7" --arg t8 "wallet:$T8" --arg w5 "wallet:$W5" --arg ag "handle:agent:$AG" '[
		[$t7, "handle:github:carol", 2, 0], [$t8, "handle:github:carol", 2, 0], [$t3, "handle:github:carol", 2, 2],
		[$w5, "handle:github:dave", 1, 0], [$t8, "handle:github:dave", 1, 0], [$t7, $ag, 1, 0],
		[$t7, "handle:x:erin", 1, 1]] | sort')" \
	"edges across the handles: each tipper once per handle, carol's wallet to dave once"
is "$(jq -c --arg ag "agent:$AG" '.nodes[] | select(.handle == $ag) | .linkedWallet' <<<"$body")" "\"$OWNER\"" \
	"an agent's node: its payout wallet from the registry"
printf '{"handles":["github:carol","GitHub:Carol","github:carol"],"limit":1}' > "$http_tmp/qdup"
pay /api/v1/graphs/queries "$http_tmp/qdup"
is "$(jq -c '[.handles, (.edges | length), .bounds.truncated]' <<<"$body")" '[["github:carol"],1,true]' \
	"repeated handles count once; limit 1 keeps one edge"

# ---- the score reads a handle's tips
printf '{"recipient":"github:carol","serviceCostUsdc":"1"}' > "$http_tmp/score"
pay /api/v1/score "$http_tmp/score"
is_json "$(jq -c '.history' <<<"$body")" '{"source":"tips_received","recognitions":6,"distinctRecognizers":3}' \
	"score: a handle's history is its indexed tips and distinct tippers"
is "$(jq -c '[.components[] | select(.name == "recognitionHistory") | .value]' <<<"$body")" '["0.006"]' \
	"score: +0.002 per distinct tipper"
sb=$body
req GET "/api/v1/handles/github:carol/points"
rp=$(jqr .receivedPoints)
like "$rp" '^[1-9][0-9]*$' "carol's received points (the free points read): $rp units"
pts=$(( rp / 1000 )); [ $pts -gt 20 ] && pts=20
is "$(jq -c '[.components[] | select(.name == "receivedPoints") | [.value, .input]]' <<<"$sb")" \
	"$(jq -cn --arg v "$(printf '%d.%03d' $((pts / 1000)) $((pts % 1000)) | sed -E 's/0+$//; s/\.$//')" \
		--arg i "$((rp / 1000)).$(printf '%03d' $((rp % 1000))) received points" '[[$v, $i]]')" \
	"score: +0.001 per whole received point (the points policy), at most 0.02"

# ---- accounts on routed recognition rows
pay "/api/v1/x402/routes/$ROUTE_1/recognitions"
is "$(jq -c '.identityResolution' <<<"$body")" '"complete"' "recognitions: identity resolution complete (the tips index runs)"
is_json "$(jq -c '.routedBoons[0].accounts' <<<"$body")" \
	"{\"recognizer\":[{\"handle\":\"github:carol\",\"provider\":\"github\",\"linkedWallet\":\"$W5\",\"profileUrl\":\"https://github.com/carol\",\"verification\":\"boon_oauth_link\"}],\"endpoint\":[],\"network\":[]}" \
	"recognitions: the recognizer's linked GitHub handle"

# ---- privacy and payments
is "$(grep -c -e "$SECRET_AMOUNT" -e "$SECRET_NOTE" "$bodies")" 0 "no paid read showed a private tip's amount or note"
is "$(balance $PAYTO)" "$((paid * 10000))" "the payee received exactly 10000 for each of the $paid paid reads"
is "$(sql "SELECT COUNT(*) FROM x402_payments WHERE status = 'settled'")" "$paid" "one settled ledger row per paid read"
done_testing
