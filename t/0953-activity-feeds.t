#!/usr/bin/env bash
# The activity feeds of a public wallet profile through the real stack:
# facts made for real (routed recognitions sent onchain by the profile's
# wallets, boon_backed reviews they published) plus a few stored facts
# inserted as fixtures (the publish endpoint is built elsewhere); the paid
# feeds GET /api/v1/x402/profiles/{profileId}/activity and
# .../by-wallet/{accountId}/activity paid with the real x402 client
# (t/tools/pay.mjs) against the real facilitator, paged to the end with
# every fact exactly once and in order; the facts of other wallets, of a
# revoked wallet and of another profile absent; 404 for a private or
# unknown profile before any payment is asked, no USDC moved; bad limit or
# cursor 400 with the JSON error, before any payment; the free site reads
# of one fact (with its activity review) and the cost preview of the new
# rows. Answers are checked against t/schemas.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
. "$(dirname "$0")/lib/http.sh"
. "$(dirname "$0")/lib/x402.sh"
paid_stack feeds 103
tools=$top/t/tools
schemas=$top/t/schemas
P=/api/v1/x402/profiles
S=/api/site/x402/profiles

valid() { # valid SCHEMA JSON DESCRIPTION
	local v; v=$(printf '%s' "$2" | node "$tools/validate.mjs" "$schemas/$1" 2>&1)
	is "$v" valid "$3"
}
keys() { node -e 'const {generatePrivateKey,privateKeyToAccount}=require(process.argv[1]);
	for (let i = 0; i < +process.argv[2]; i++) { const k = generatePrivateKey(); console.log(k, privateKeyToAccount(k).address); }' \
	"$tools/node_modules/viem/_cjs/accounts/index.js" "$1"; }
acct() { printf 'eip155:8453:%s' "$1"; }
sx() { # sx KEY METHOD PATH [BODY]: one SIWX-signed call; sets $status and $body
	local key=$1 m=$2 path=$3 b=$4 res
	res=$(node "$tools/siwx.mjs" fetch --key "$key" --method "$m" --url "$URL$path" ${b:+--body "$b"})
	status=$(jq -r .status <<<"$res"); body=$(jq -c .body <<<"$res")
}
new_profile() { sx "$1" POST $P "{\"controllerAccount\":\"$(acct "$2")\"}"; jqr .profileId; }
link() { # link CONTROLLER_KEY PID MEMBER_KEY MEMBER_ADDRESS
	sx "$1" POST "$P/$2/wallet-links" "{\"memberAccount\":\"$(acct "$4")\"}"
	local l d; l=$(jqr .linkId); d=$(jqr .intentDigest)
	sx "$3" POST "$P/$2/wallet-links/$l/confirm" "{\"intentDigest\":\"$d\"}"
}
publish() { # publish CONTROLLER_KEY PID: public_all from a fresh preview
	sx "$1" GET "$P/$2/discovery/preview" ""
	sx "$1" PUT "$P/$2/discovery" "{\"discoveryMode\":\"public_all\",\"previewDigest\":\"$(jqr .previewDigest)\"}"
}
paid=0
pay() { # pay PATH: a paid GET with the real client; $res, $pstatus, $body
	res=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL$1")
	pstatus=$(jq -r .status <<<"$res"); body=$(jq -c .body <<<"$res")
	[ "$pstatus" = 200 ] && [ "$(jq -r .paymentResponse.success <<<"$res")" = true ] && paid=$((paid + 1))
}
uuid_hex() { tr -d '-' <<<"$1"; }

mapfile -t K < <(keys 6)
key() { cut -d' ' -f1 <<<"${K[$1]}"; }
adr() { cut -d' ' -f2 <<<"${K[$1]}"; }
C=$(key 0); CA=$(adr 0)     # the controller of the public profile
M=$(key 1); MA=$(adr 1)     # its member
R=$(key 2); RA=$(adr 2)     # a member linked, then revoked
Q=$(key 3); QA=$(adr 3)     # the controller of a private profile
chain_id=$(jq -r .chainId "$STATE"); companion=$(jq -r .companion "$STATE")

pid=$(new_profile "$C" "$CA")
publish "$C" "$pid"
is "$status,$(jqr .discoveryMode)" "200,public_all" "a profile is created and published"
link "$C" "$pid" "$M" "$MA"
is "$status,$(jqr .state)" "200,active" "a member is linked (consenting to the public policy)"
link "$C" "$pid" "$R" "$RA"
is "$status" 200 "a second member is linked"
qid=$(new_profile "$Q" "$QA")
like "$qid" '^[0-9a-f-]{36}$' "another controller's profile stays private"

# ---- facts made for real: recognitions sent onchain, reviews published
declare -A want=()   # every fact ID the public profile's feed must show, exactly once
recog() { # recog KEY ROUTE COUNT [member-of-the-profile: 1|0]
	local out line
	out=$(send --from-key "$1" --route "$2" --endpoint $PAY_A --endpoint-usdc 1500 --network $NET_C --network-usdc 500 --count "$3")
	while IFS= read -r line; do
		[ "$4" = 1 ] && want["recognized-$(jq -r .txHash <<<"$line")-$(jq -r .logIndex <<<"$line")"]=1
		last=$(jq -r .blockNumber <<<"$line"); lastout=$line
	done <<<"$out"
}
recog "$C" $ROUTE_1 4 1; c_rec=$lastout
recog "$M" $ROUTE_2 3 1; m_rec=$lastout
recog "$R" $ROUTE_1 1 0      # the revoked member's: gone with it
recog "$Q" $ROUTE_1 1 0      # the private profile's controller's: never in this feed
recog "$KEY8" $ROUTE_2 1 0   # a wallet in no profile
wait_indexed "$last"; ok $? "ten routed recognitions indexed"
review() { # review KEY RECOGNITION_JSON TEXT: a boon_backed review of that recognition, by its tipper
	local b; b=$(node "$tools/sign-review.mjs" "$1" "$chain_id" "$companion" "$(jq -r .routeId <<<"$2")" \
		"$(jq -r .txHash <<<"$2")" "$(jq -r .logIndex <<<"$2")" "$(date +%s)" "$3")
	curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' --data-binary "$b" "$URL/api/v1/x402/reviews"
}
is "$(review "$C" "$c_rec" "Answered every call; the items matched the listing.")" 201 "the controller publishes a review"
is "$(review "$M" "$m_rec" "Slow on the first call, then fine.")" 201 "the member publishes a review"
for w in "$CA" "$MA"; do
	while read -r dg; do want["reviewed-0x$dg"]=1; done < <(sql "SELECT LOWER(HEX(digest)) FROM reviews WHERE reviewer = UNHEX('${w#0x}')")
done

# ---- stored facts: fixtures, inserted directly (the activity publish endpoint,
# which verifies evidence and writes these rows, is another branch's work).
# Two used facts and a paid settlement of the controller, a paid settlement of
# the member, one of the revoked member and one of the private profile; the
# client_settlement fact gets an activity review. occurred_at ties on purpose.
now=$(date +%s)
fixture() { # fixture NAME PID ACCOUNT KIND EVIDENCE_KIND OCCURRED_AT ROUTE_OR_NULL
	local route=NULL origin=NULL method=NULL path=NULL
	if [ "$7" != NULL ]; then route="UNHEX('${7#0x}')"; origin="'https://api.shop.example.com'"; method="'GET'"; path="'/v1/items'"; fi
	sql "INSERT INTO profile_activity (activity_id, profile_id, chain_id, account, kind, evidence_kind, evidence_key,
		route_id, origin, method, path, network, asset, amount_atomic, tx_hash, log_index, occurred_at, details, published_at)
		VALUES (UNHEX(SHA2('$1', 256)), UNHEX('$(uuid_hex "$2")'), 8453, UNHEX('${3#0x}'), '$4', '$5',
		UNHEX(SHA2('evidence $1', 256)), $route, $origin, $method, $path, 'eip155:8453', UNHEX('${USDC#0x}'), 10000,
		UNHEX(SHA2('tx $1', 256)), 0, $6, '{\"fixture\":\"$1\"}', $now)"
	[ "$2" = "$pid" ] && [ "$3" != "$RA" ] && want["0x$(printf '%s' "$1" | sha256sum | cut -c1-64)"]=1
}
fixture used-receipt "$pid" "$CA" used x402_receipt $((now - 7200)) $ROUTE_1
fixture used-settlement "$pid" "$CA" used client_settlement $((now - 3600)) $ROUTE_2
fixture paid-c "$pid" "$CA" paid_settlement usdc_transfer $((now - 3600)) NULL
fixture paid-m "$pid" "$MA" paid_settlement usdc_transfer $((now - 3600)) NULL
fixture paid-r "$pid" "$RA" paid_settlement usdc_transfer $((now - 60)) NULL
fixture paid-q "$qid" "$QA" paid_settlement usdc_transfer $((now - 60)) NULL
settled=$(printf 'used-settlement' | sha256sum | cut -c1-64)
sql "INSERT INTO activity_reviews (activity_id, profile_id, chain_id, route_id, reviewer, tx_hash, review_text, created_at,
	digest, published_at) VALUES (UNHEX('$settled'), UNHEX('$(uuid_hex "$pid")'), 8453, UNHEX('${ROUTE_2#0x}'),
	UNHEX('${CA#0x}'), UNHEX(SHA2('tx used-settlement', 256)), 'Paid once, got the items.', $((now - 3000)),
	UNHEX(SHA2('review digest', 256)), $((now - 2900)))"
is "$(sql "SELECT COUNT(*) FROM profile_activity"),$(sql "SELECT COUNT(*) FROM activity_reviews")" "6,1" \
	"stored facts and an activity review inserted as fixtures"
want["reviewed-activity-0x$settled"]=1
sx "$C" DELETE "$P/$pid/wallet-links/$(acct "$RA" | sed 's/:/%3A/g')" "{\"actorAccount\":\"$(acct "$CA")\"}"
is "$status,$(jqr .state)" "200,revoked" "the second member is revoked"
total=${#want[@]}
is "$total" 14 "fourteen facts expected: 7 recognized, 3 reviewed, 4 stored"

# ---- before any payment: 402 for the public profile, 404 for private or unknown, 400 for bad input
req GET "$P/$pid/activity"
is "$status,$(jqr .error),$(header cache-control)" "402,payment_required,private, no-store" "unpaid feed of the public profile: 402"
is "$(header payment-required | base64 -d | jq -r '.accepts[0].amount')" 10000 "priced 0.01 USDC"
req GET "$P/by-wallet/$(acct "$MA")/activity"
is "$status,$(jqr .error)" "402,payment_required" "unpaid by-wallet feed of a member: 402"
before=$(balance $PAYTO); before_payer=$(balance $PAYER)
no_charge() { # no_charge PATH STATUS CODE DESCRIPTION: the answer, unpaid and with the real client, and no challenge
	req GET "$1"
	is "$status,$(jqr .error),$(header payment-required)" "$2,$3," "$4: $2 before any payment is asked"
	valid error.json "$body" "$4: the JSON error (schema)"
	pay "$1"
	is "$pstatus,$(jq -r .body.error <<<"$res"),$(jq -r .paymentResponse <<<"$res")" "$2,$3,null" "$4: the real client pays nothing"
}
no_charge "$P/$qid/activity" 404 not_found "a private profile"
no_charge "$P/00000000-0000-4000-8000-000000000000/activity" 404 not_found "an unknown profile"
no_charge "$P/by-wallet/$(acct "$QA")/activity" 404 not_found "the private profile by its wallet"
no_charge "$P/by-wallet/$(acct "$RA")/activity" 404 not_found "a revoked wallet (in no profile)"
no_charge "$P/$pid/activity?limit=0" 400 invalid_field "limit=0"
no_charge "$P/$pid/activity?limit=101" 400 invalid_field "limit=101"
no_charge "$P/$pid/activity?limit=ten" 400 invalid_field "limit=ten"
no_charge "$P/$pid/activity?cursor=$(printf 'c%.0s' $(seq 513))" 400 invalid_field "a cursor of 513 characters"
no_charge "$P/$pid/activity?cursor=garbage" 400 invalid_field "a cursor not issued here"
no_charge "$P/$pid/activity?cursor=f1.01.0x$(printf 'ab%.0s' $(seq 32))" 400 invalid_field "a cursor with a leading zero"
no_charge "$P/$pid/activity?offset=3" 400 unknown_field "an unknown parameter"
no_charge "$P/by-wallet/0x$(printf 'ab%.0s' $(seq 20))/activity" 400 invalid_field "a by-wallet ID that is no CAIP-10 account"
req GET "$P/$pid/activity?limit=0"
is "$(jqr .field)" limit "the 400 names the field"
is "$(balance $PAYTO),$(balance $PAYER)" "$before,$before_payer" "no USDC moved for any of them"

# ---- paged to the end with the real client: every fact exactly once, newest first
page_all() { # page_all PATH LIMIT: every fact over all pages into $http_tmp/facts (one JSON a line)
	local cur="" sep
	pages=0; : > "$http_tmp/facts"
	while :; do
		sep='?'; case "$1" in *\?*) sep='&';; esac
		pay "$1${sep}limit=$2${cur:+&cursor=$cur}"
		[ "$pstatus" = 200 ] || { diag "page failed: $res"; break; }
		pages=$((pages + 1))
		[ $pages = 1 ] && first_page=$body
		valid activity-feed.json "$body" "page $pages of $1 (schema)"
		jq -c '.activity[]' <<<"$body" >> "$http_tmp/facts"
		[ "$(jq -r .pagination.hasMore <<<"$body")" = true ] || break
		cur=$(jq -r .pagination.cursor <<<"$body")
		[ $pages -lt 20 ] || break
	done
	last_page=$body
}
page_all "$P/$pid/activity" 4
is "$pages" 4 "fourteen facts in four pages of 4"
is_json "$(jq -c .pagination <<<"$last_page")" '{"limit":4,"cursor":null,"hasMore":false}' "the last page: no cursor, nothing more"
is "$(jq -r .id "$http_tmp/facts" | sort | uniq -d | wc -l),$(wc -l < "$http_tmp/facts")" "0,$total" "every fact once: no repeat, $total in all"
missing=0; for id in "${!want[@]}"; do grep -qx -- "$id" <(jq -r .id "$http_tmp/facts") || { missing=$((missing + 1)); diag "missing: $id"; }; done
is "$missing" 0 "exactly the expected facts (nothing of the revoked member, the private profile or a stranger)"
is "$(jq -s '[.[].occurredAt] | . == (sort | reverse)' "$http_tmp/facts")" true "newest first across the pages"
is "$(jq -s -c '[group_by(.occurredAt)[] | select(length > 1) | [.[].id] | . == (sort | reverse)] | all' "$http_tmp/facts")" true \
	"equal times ordered by ID, descending"
is "$(jq -s -r 'group_by(.kind) | map(.[0].kind + ":" + (length | tostring)) | join(" ")' "$http_tmp/facts")" \
	"paid_settlement:2 recognized:7 reviewed:3 used:2" "by kind"
is_json "$(jq -c '.profile.factCounts' <<<"$first_page")" \
	'{"used":2,"paid_settlement":2,"reviewed":3,"recognized":7,"linked_wallet":1}' "the profile's counts agree with the facts"
is "$(jq -r '[.profile.profileId, .profile.discoveryMode, (.profile.wallets | length), .version] | join(",")' <<<"$first_page")" \
	"$pid,public_all,2,1" "the profile object: its ID, mode and the two active wallets"
ok $([ "$(jq -r .paymentResponse.success <<<"$res")" = true ] && echo 0 || echo 1) "each page settled (PAYMENT-RESPONSE)"

# ---- the facts' fields
fact() { jq -c --arg id "$1" 'select(.id == $id)' "$http_tmp/facts"; }
rid=$(jq -r '"recognized-" + .txHash + "-" + (.logIndex | tostring)' <<<"$c_rec")
is "$(fact "$rid" | jq -r '[.kind, .accountId, .routeId, .network, .asset, .amountAtomic, .transaction, .evidenceKind, .details.logIndex, .details.networkGratuityUsdc] | join(",")')" \
	"recognized,$(acct "$CA"),$ROUTE_1,eip155:8453,$USDC,2000,$(jq -r .txHash <<<"$c_rec"),routed_recognition,$(jq -r .logIndex <<<"$c_rec"),500" \
	"a recognized fact: wallet, route, USDC total, transaction, details"
is "$(fact "$rid" | jq -r '[.origin, .method, .path] | map(tostring) | join(",")')" "null,null,null" "no origin, method or path for a recognition"
rv=$(jq -c 'select(.kind == "reviewed" and .evidenceKind == "boon_backed" and .accountId == "'"$(acct "$MA")"'")' "$http_tmp/facts")
is "$(jq -r '[.routeId, .transaction, .details.reviewText, .details.sourceUrl] | join(",")' <<<"$rv")" \
	"$ROUTE_2,$(jq -r .txHash <<<"$m_rec"),Slow on the first call, then fine.,$URL/api/site/x402/routes/$ROUTE_2/reviews" \
	"a reviewed fact: the route, the cited recognition, the text and its public source"
st=$(fact "0x$settled")
is "$(jq -r '[.kind, .evidenceKind, .origin, .method, .path, .amountAtomic, .details.fixture] | join(",")' <<<"$st")" \
	"used,client_settlement,https://api.shop.example.com,GET,/v1/items,10000,used-settlement" "a stored fact as stored"
is "$(fact "reviewed-activity-0x$settled" | jq -r '[.evidenceKind, .details.activityId, .details.sourceUrl] | join(",")')" \
	"client_settlement,0x$settled,$URL$S/$pid/activity/0x$settled" "the activity review as a reviewed fact, citing its activity"

# ---- by wallet: the same feed; limit default 25
page_all "$P/by-wallet/$(acct "$MA")/activity" 25
is "$pages,$(jq -r .pagination.limit <<<"$last_page")" "1,25" "by a member's wallet: one page of up to 25"
is "$(jq -r .id "$http_tmp/facts" | sort | tr '\n' ' ')" "$(printf '%s\n' "${!want[@]}" | sort | tr '\n' ' ')" \
	"the same facts as the profile's feed"
pay "$P/by-wallet/$(acct "$CA" | tr 'A-F' 'a-f')/activity?limit=1"
is "$pstatus,$(jq -r .body.profile.profileId <<<"$res"),$(jq -r '.body.activity | length' <<<"$res")" "200,$pid,1" \
	"by the controller's wallet in lowercase, limit 1"
is "$(balance $PAYTO)" "$((before + paid * 10000))" "the payee got 0.01 USDC for each of the $paid paid pages"

# ---- the free site read of one fact
req GET "$S/$pid/activity/0x$settled"
is "$status,$(jqr .activity.id),$(jqr .review.reviewText),$(jqr .review.accountId)" \
	"200,0x$settled,Paid once, got the items.,$(acct "$CA")" "the client_settlement fact with its activity review"
valid profile-activity.json "$body" "the fact and its review (schema)"
req GET "$S/$pid/activity/$rid"
is "$status,$(jqr .activity.kind),$(jqr .review)" "200,recognized,null" "a recognized fact by its ID, without a review"
valid profile-activity.json "$body" "the recognized fact (schema)"
req GET "$S/$pid/activity/$(jq -r .id <<<"$rv")"
is "$status,$(jqr .activity.details.reviewText)" "200,Slow on the first call, then fine." "a reviewed fact by its ID"
req GET "$S/$pid/activity/0x$(printf 'paid-r' | sha256sum | cut -c1-64)"
is "$status,$(jqr .error)" "404,not_found" "the revoked member's fact: 404"
req GET "$S/$qid/activity/0x$(printf 'paid-q' | sha256sum | cut -c1-64)"
is "$status,$(jqr .error)" "404,not_found" "a fact of the private profile: 404"
req GET "$S/$pid/activity/0x$(printf 'ab%.0s' $(seq 32))"
is "$status,$(jqr .error)" "404,not_found" "an unknown fact: 404"
req GET "$S/$pid/activity/recognized-0x$(printf 'ab%.0s' $(seq 32))-01"
is "$status,$(jqr .error),$(jqr .field)" "400,invalid_field,activityId" "a malformed fact ID: 400"

# ---- the new rows in the cost preview (priced from the table)
req POST /api/v1/workflows/cost-preview -H 'Content-Type: application/json' --data-binary \
	"{\"requests\":[{\"method\":\"GET\",\"path\":\"$P/$pid/activity\",\"quantity\":3},{\"method\":\"GET\",\"path\":\"$P/by-wallet/$(acct "$MA")/activity\"},{\"method\":\"GET\",\"path\":\"$S/$pid\"}]}"
is "$status,$(jqr '[.steps[].payment.unitPriceUsdc] | join(" ")'),$(jqr .total.atomic)" "200,0.01 0.01 0,40000" \
	"cost preview: both feeds at 0.01, the site read free"
req GET /api/v1/x402/economics
is "$(jqr '[.. | objects | select(.resourceId? | tostring | startswith("x402.profiles.")) | .path + "=" + .price.usdc] | sort | join(" ")')" \
	"$P/by-wallet/{accountId}/activity=0.01 $P/{profileId}/activity=0.01" "economics lists both paid feeds, from the table"
done_testing
