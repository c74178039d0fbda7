#!/usr/bin/env bash
# POST /api/v1/x402/route-contexts through the real stack, on a local chain
# with real routed recognitions: publications built and signed by viem
# (t/tools/gen-route-context.mjs body), each error's status and JSON body,
# the one slot per wallet and route (created, unchanged, replaced, stale),
# the exact bytes kept in MariaDB, and chain/publish-contexts.mjs (the demo
# publisher of tools/stack) against routes of its own.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
. "$(dirname "$0")/lib/http.sh"
export WAYMARK_SEED=0 WAYMARK_CONFIRMATIONS=0
chain_stack contexts 20
ok $? "a stack with a local chain starts"
trap 'rm -rf "$http_tmp"; "$top/tools/stack" stop >/dev/null 2>&1' EXIT
WAYMARK_TEST_URL=$URL
gen=$top/t/tools/gen-route-context.mjs
viem=$top/t/tools/node_modules/viem/_cjs

KEY0=0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80   # the endpoint payTo
KEY5=0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba   # takes no part
KEY9=0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6   # the network payTo
address_of() { node "$top/t/tools/addr.mjs" "$1"; }
ADDR0=$(address_of $KEY0); ADDR7=$(address_of $KEY7); ADDR9=$(address_of $KEY9)
ROUTE=0x4fa0fcdb54475d7e8c02c5fd1e4ffac0f2b5997975e9be2988a1d5759f8e6af0   # GET https://api.example.com/v1/forecast

out=$(send --from-key $KEY7 --route $ROUTE --endpoint "$ADDR0" --endpoint-usdc 10000 --network "$ADDR9" --network-usdc 1000)
wait_indexed "$(jq -r .blockNumber <<<"$out")"
ok $? "a routed recognition of the route is indexed (tipper #7, endpoint #0, network #9)"

now=$(date +%s)
created=$((now - 600)); expires=$((now + 86400))
# note [JQ]: the base note (an object), changed by the jq program given.
note() {
	jq -cn --argjson c "${C:-$created}" --argjson e "${E:-$expires}" '{version: "1",
		route: {publicEndpointUrl: "https://api.example.com/v1/forecast", method: "GET"},
		intent: "Returns a 7-day weather forecast for a latitude and longitude.",
		fit: "Use when an agent needs a forecast for one place; one paid call per place.",
		limits: ["Land areas only.", "No forecasts beyond 7 days."],
		requestSchemaUri: null, documentationUri: "https://api.example.com/docs",
		contextUris: ["ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi"],
		createdAt: $c, expiresAt: $e}' | jq -c "${1:-.}"
}
# body SPEC: a request body from a generator spec (JSON, see gen-route-context.mjs).
body() { printf '%s' "$1" | node "$gen" body; }
# spec KEY NOTE [JQ]: a spec signing NOTE with KEY, changed by the jq program given.
spec() { jq -cn --arg k "$1" --argjson n "$2" '{key: $k, note: $n}' | jq -c "${3:-.}"; }
post() { printf '%s' "$1" > "$http_tmp/req"; req POST /api/v1/x402/route-contexts -H 'Content-Type: application/json' \
	--data-binary "@$http_tmp/req"; }
hexof() { printf '%s' "$1" | od -An -v -tx1 | tr -d ' \n'; }
row() { sql "SELECT $1 FROM route_contexts WHERE route_id = UNHEX('${ROUTE#0x}') AND publisher = UNHEX('${2#0x}')"; }

# ---- a valid publication
b1=$(body "$(spec $KEY0 "$(note)")")
post "$b1"
is "$status" 201 "valid publication by the funded endpoint payTo: 201"
is "$(jqr .version)" "boon.x402-route-context/v1" "body: version"
is "$(jqr .routeId)" "$ROUTE" "body: routeId"
is "$(jqr .publisher)" "$ADDR0" "body: publisher, EIP-55"
is "$(jqr '.participantRoles | join(",")')" endpoint "body: participantRoles"
like "$(jqr .publishedAt)" '^20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$' "body: publishedAt, RFC 3339"
is "$(jqr .expiresAt)" "$(date -u -d "@$expires" +%Y-%m-%dT%H:%M:%SZ)" "body: expiresAt, the note's, RFC 3339"
is "$(jqr '.note.route | [.origin, .method, .publicPath, .publicEndpointUrl] | join(" ")')" \
	"https://api.example.com GET /v1/forecast https://api.example.com/v1/forecast" "body: note.route"
is "$(jqr '.note.intent')" "Returns a 7-day weather forecast for a latitude and longitude." "body: note.intent"
is "$(jqr '.note.limits | length'),$(jqr .note.requestSchemaUri),$(jqr .note.documentationUri),$(jqr '.note.contextUris | length')" \
	"2,null,https://api.example.com/docs,1" "body: limits and URIs"
is "$(jqr '.note.createdAt'),$(jqr '.note.expiresAt')" "$created,$expires" "body: note times, Unix seconds"
is "$(jqr '.offer | [.payTo, .network, .amountAtomic, .responseBytes] | map(tostring) | join(" ")')" \
	"$ADDR0 eip155:8453 1000 $(printf '%s' "$(jq -r .noteJson <<<"$b1")" | wc -c)" "body: the offer"
is_json "$(printf "%s" "$body" | jq -c .verification)" \
	'{"publisherSignature":"valid","exactNoteBytes":"valid","challengeBinding":"not_verified","endpointFetched":false}' \
	"body: verification"
is "$(jqr 'has("signedPayload")')" false "body: no signedPayload echoed"
is "$(row "LOWER(HEX(note_json))" "$ADDR0")" "$(hexof "$(jq -r .noteJson <<<"$b1")")" "stored: the exact note bytes"
is "$(row "LOWER(HEX(offer_json))" "$ADDR0")" "$(hexof "$(jq -r .offerJson <<<"$b1")")" "stored: the exact offer bytes"
is "$(row "CONCAT('0x', LOWER(HEX(signature)))" "$ADDR0")" "$(jq -r .signature <<<"$b1")" "stored: the signature"
is "$(row "CONCAT(participant_roles, ' ', amount_atomic, ' ', note_created_at)" "$ADDR0")" "endpoint 1000 $created" \
	"stored: roles, amount, createdAt"
first_at=$(jqr .publishedAt)

post "$b1"
is "$status" 200 "the same bytes again: 200"
is "$(jqr .publishedAt)" "$first_at" "unchanged: the original publishedAt"
is "$(sql "SELECT COUNT(*) FROM route_contexts")" 1 "one row"

# ---- errors
post "$(body "$(spec $KEY5 "$(note)" ".offer = {payTo: \"$ADDR0\"}")")"
check_error 400 invalid_field "signature by a key that is not payTo"
is "$(jqr .field)" signature "wrong signer: field signature"
like "$(jqr .message)" "recovers to $(address_of $KEY5)" "wrong signer: the message names the recovered signer"

post "$(jq -c '.noteJson |= sub("7-day"; "8-day")' <<<"$b1")"
check_error 400 invalid_field "a changed note byte"
like "$(jqr .message)" '^offer.responseDigest does not equal keccak256' "changed byte: responseDigest mismatch"

dup=$(note | sed 's/"intent":/"intent":"first","intent":/')
post "$(body "$(jq -cn --arg k $KEY0 --arg n "$dup" '{key: $k, note: $n}')")"
check_error 400 duplicate_key "a duplicate member in the note"
is "$(jqr .field),$(jqr .message)" 'noteJson,note repeats the member name "intent".' "duplicate in the note: field and message"

post "$(jq -c '.offerJson |= sub("^\\{"; "{\"version\":\"1\",")' <<<"$b1")"
check_error 400 duplicate_key "a duplicate member in the offer"
is "$(jqr .field),$(jqr .message)" 'offerJson,offer repeats the member name "version".' "duplicate in the offer: field and message"

post "$(body "$(spec $KEY0 "$(C=$((now - 7200)) E=$((now - 60)) note)")")"
check_error 400 invalid_field "an expired note"
is "$(jqr .message)" "note.expiresAt has passed: the note has expired." "expired: message"

post "$(body "$(spec $KEY5 "$(note)")")"
check_error 403 not_a_participant "a signer who takes no part in the route"
like "$(jqr .message)" "$(address_of $KEY5)" "non-participant: the message names the signer"

post "$(body "$(spec $KEY0 "$(note)" '.offer = {responseBytes: 1}')")"
check_error 400 invalid_field "wrong responseBytes (signed)"
like "$(jqr .message)" '^offer.responseBytes does not equal the byte length of noteJson' "wrong responseBytes: message"

post "$(body "$(spec $KEY0 "$(note)" '.chainId = 84532')")"
check_error 400 invalid_field "an offer for another chain"
is "$(jqr .message)" "offer.network names another chain than the one this service serves (eip155:8453)." \
	"wrong chain: message"

post "$(body "$(spec $KEY0 "$(note ".intent = \"$(printf 'a%.0s' $(seq 281))\"")")")"
check_error 400 invalid_field "an intent of 281 bytes"
is "$(jqr .message)" "note.intent is longer than 280 bytes." "over-long intent: message"

post "$(body "$(spec $KEY0 "$(note '.fit = "pay \u202e me"')")")"
check_error 400 invalid_field "a bidirectional override character"
like "$(jqr .message)" '^note.fit contains a control character or a bidirectional' "bidi: message"

post "$(body "$(spec $KEY0 "$(note '.limits = ["1","2","3","4","5","6"]')")")"
check_error 400 invalid_field "six limits"
is "$(jqr .message)" "note.limits has more than 5 items." "too many limits: message"

post "$(body "$(spec $KEY0 "$(note '.contextUris = ["ar://1","ar://2","ar://3","ar://4"] | .requestSchemaUri = "https://api.example.com/s.json"')")")"
check_error 400 invalid_field "six URIs in all"
like "$(jqr .message)" '^note holds more than 5 URIs' "too many URIs: message"

post "$(body "$(spec $KEY0 "$(note '.color = "blue"')")")"
check_error 400 unknown_field "an unknown note member"
is "$(jqr .message)" "note.color is not an accepted member." "unknown note member: message"
post "$(body "$(spec $KEY0 "$(note 'del(.fit)')")")"
check_error 400 missing_field "a missing note member"
is "$(jqr .message)" "note.fit is required." "missing note member: message"
post "$(body "$(spec $KEY0 "$(note)" '.extra = {x: 1}')")"
check_error 400 unknown_field "an unknown offer member"
post "$(body "$(spec $KEY0 "$(note)" '.omit = ["asset"]')")"
check_error 400 missing_field "a missing offer member"
is "$(jqr .message)" "offer.asset is required." "missing offer member: message"

post "$(body "$(spec $KEY0 "$(note)" '.offer = {amountAtomic: ("1" + ("0" * 65))}')")"
check_error 400 invalid_field "an amount of 66 digits (a valid uint256, more than DECIMAL(65,0) holds)"
is "$(jqr .message)" "offer.amountAtomic has more than 65 digits, more than this service stores." "66-digit amount: message"
post "$(body "$(spec $KEY0 "$(note '.route.publicEndpointUrl = "https://api.weatherdata.example/v1/forecast"')")")"
check_error 400 invalid_field "a route URL on a reserved .example host"
post "$(jq -c '.signature = "0x1234"' <<<"$b1")"
check_error 400 invalid_field "a signature of 2 bytes"
post "$(jq -c '.extra = 1' <<<"$b1")"
check_error 400 unknown_field "an undeclared body field"
post "$(jq -c 'del(.signature)' <<<"$b1")"
check_error 400 missing_field "no signature"
post "$(jq -c '.noteJson = {}' <<<"$b1")"
check_error 400 invalid_field "noteJson as an object, not a string"
req POST /api/v1/x402/route-contexts -H 'Content-Type: text/plain' --data-binary "$b1"
check_error 415 unsupported_media_type "not application/json"
head -c 140000 /dev/zero | tr '\0' 'a' > "$http_tmp/big"
req POST /api/v1/x402/route-contexts -H 'Content-Type: application/json' --data-binary "@$http_tmp/big"
check_error 413 body_too_large "a body over 128 KiB"
is "$(sql "SELECT COUNT(*) FROM route_contexts")" 1 "no error stored anything"

# ---- replacement: one slot per wallet and route
b2=$(body "$(spec $KEY0 "$(C=$((now - 300)) note '.intent = "Forecasts, now with hourly precipitation."')")")
post "$b2"
is "$status" 200 "a newer publication from the same wallet: 200"
is "$(jqr .note.intent)" "Forecasts, now with hourly precipitation." "replaced: the newer content"
is "$(sql "SELECT COUNT(*) FROM route_contexts WHERE publisher = UNHEX('${ADDR0#0x}')")" 1 "replaced: one row remains"
is "$(row "LOWER(HEX(note_json))" "$ADDR0")" "$(hexof "$(jq -r .noteJson <<<"$b2")")" "replaced: the newer exact bytes"
is "$(row note_created_at "$ADDR0")" $((now - 300)) "replaced: the newer createdAt"

post "$b1"
check_error 409 stale_publication "the older publication again"
like "$(jqr .message)" "created at $((now - 300))" "stale: the message names the current createdAt"
post "$(body "$(spec $KEY0 "$(C=$((now - 300)) note '.intent = "Same createdAt, other bytes."')")")"
check_error 409 stale_publication "another publication with the same createdAt"
is "$(row "note_created_at" "$ADDR0")" $((now - 300)) "the newer one is still current"

# ---- other participants: their own slots; the wrapped offer
post "$(body "$(spec $KEY7 "$(note)" '.wrap = true')")"
is "$status" 201 "the tipper, with a wrapped offer {\"offer\": ...}: 201"
is "$(jqr '.participantRoles | join(",")')" tipper "the tipper's roles"
like "$(row "offer_json" "$ADDR7")" '^\{"offer":\{' "stored: the wrapped offer, exact"
post "$(body "$(spec $KEY9 "$(note)" '.compact = true')")"
is "$status" 201 "the funded network payTo, with a 64-byte signature: 201"
is "$(jqr '.participantRoles | join(",")')" network "the network payTo's roles"
is "$(sql "SELECT COUNT(*) FROM route_contexts WHERE route_id = UNHEX('${ROUTE#0x}')")" 3 "three slots on the route"

# ---- concurrency: eight publications of one wallet at once, createdAt 1..8
# seconds later than its current one; MariaDB decides, the newest wins.
base=$((now - 200))
for i in 1 2 3 4 5 6 7 8; do
	body "$(spec $KEY9 "$(C=$((base + i)) note ".intent = \"Concurrent $i.\"")")" > "$http_tmp/c$i"
done
for i in 8 3 6 1 7 2 5 4; do
	curl -s -o /dev/null -w '%{http_code}\n' -H 'Content-Type: application/json' --data-binary "@$http_tmp/c$i" \
		"$URL/api/v1/x402/route-contexts" > "$http_tmp/s$i" &
done
wait
codes=$(cat "$http_tmp"/s? | sort | uniq -c | awk '{print $2}' | tr '\n' ' ')
like "$codes" '^(200 )?(409 )?$' "concurrent publications: every answer is 200 or 409 ($codes)"
is "$(row "CONCAT(note_created_at, ' ', intent)" "$ADDR9")" "$((base + 8)) Concurrent 8." \
	"concurrent publications: the newest is current"
is "$(sql "SELECT COUNT(*) FROM route_contexts WHERE publisher = UNHEX('${ADDR9#0x}')")" 1 "concurrent publications: one row"

# ---- chain/publish-contexts.mjs on routes of its own
seed_url=https://weather.example.com/v1/forecast
seed_pay=$(node -e 'const {keccak256,toBytes}=require(process.argv[1]);const {privateKeyToAccount}=require(process.argv[2]);console.log(privateKeyToAccount(keccak256(toBytes("waymark:seed:payto:https://weather.example.com"))).address)' \
	"$viem/index.js" "$viem/accounts/index.js")
seed_route=$(node -e 'const {keccak256,toBytes}=require(process.argv[1]);console.log(keccak256(toBytes("boon:x402-route:v1\nGET\nhttps://weather.example.com\n/v1/forecast")))' \
	"$viem/index.js")
out=$(send --from-key $KEY8 --route "$seed_route" --endpoint "$seed_pay" --endpoint-usdc 25000)
wait_indexed "$(jq -r .blockNumber <<<"$out")"
jq -cn --arg r "$seed_route" --arg u "$seed_url" --arg p "$seed_pay" \
	'{routes: [{routeId: $r, method: "GET", url: $u, endpointPayTo: $p}], networkPayTo: null, recognitions: 1}' \
	> "$WAYMARK_VAR/seed-test.json"
pubc() { node "$top/chain/publish-contexts.mjs" --api "$URL" --rpc "$RPC" --state "$STATE" --seed "$1" --wait 10 2>/dev/null; }
res=$(pubc "$WAYMARK_VAR/seed-test.json"); rc=$?
is "$rc,$(jq -c '[.published, (.rejected | length)]' <<<"$res")" "0,[1,0]" "publish-contexts: the seeded route's context is published"
is "$(sql "SELECT CONCAT(participant_roles, ' ', method, ' ', public_endpoint_url) FROM route_contexts WHERE route_id = UNHEX('${seed_route#0x}')")" \
	"endpoint GET $seed_url" "publish-contexts: stored for the endpoint payTo"
sleep 1
res=$(pubc "$WAYMARK_VAR/seed-test.json"); rc=$?
is "$rc,$(jq -c '[.published, .replaced + .unchanged, (.rejected | length)]' <<<"$res")" "0,[0,1,0]" \
	"publish-contexts again: the context is replaced, not duplicated"
is "$(sql "SELECT COUNT(*) FROM route_contexts WHERE route_id = UNHEX('${seed_route#0x}')")" 1 "publish-contexts: still one row"
jq -c '.routes[0].url = "https://api.weatherdata.example/v1/forecast" | .routes[0].endpointPayTo = "'"$(node -e \
	'const {keccak256,toBytes}=require(process.argv[1]);const {privateKeyToAccount}=require(process.argv[2]);console.log(privateKeyToAccount(keccak256(toBytes("waymark:seed:payto:https://api.weatherdata.example"))).address)' \
	"$viem/index.js" "$viem/accounts/index.js")"'"' "$WAYMARK_VAR/seed-test.json" > "$WAYMARK_VAR/seed-example.json"
res=$(pubc "$WAYMARK_VAR/seed-example.json"); rc=$?
is "$rc,$(jq -r '.rejected[0] | "\(.status) \(.error)"' <<<"$res")" "1,400 invalid_field" \
	"publish-contexts: a route on a reserved .example host is refused, and the script says so"

# A route only a signed context describes, through the Bazaar discovery API:
# its URL and method, no accepts (no catalog lists it).
wreq GET "$URL/discovery/search?query=forecast&limit=20"
it=$(jq -c --arg u "$seed_url" '.resources[] | select(.resource == $u)' <<<"$body")
is "$(jq -r '[.type, .x402Version, (.accepts | length), .extensions.bazaar.info.input.method, (.lastUpdated | test("^[0-9]{4}-"))] | map(tostring) | join(" ")' <<<"$it")" \
	"http 2 0 GET true" "/discovery/search serves a context-only route: URL, method, no accepts, its publication time"
wreq GET "$URL/discovery/resources?extensions=bazaar&limit=100"
is "$(jq -r --arg u "$seed_url" '[.items[] | select(.resource == $u)] | length' <<<"$body")" 1 \
	"/discovery/resources lists it, with the bazaar extension"
done_testing
