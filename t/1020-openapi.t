#!/usr/bin/env bash
# The interface description and the discovery documents through the real
# nginx + workers (docs/PROTOCOL.md, Interface description): GET
# /openapi.json is what `waymark routes openapi` prints for the running
# configuration, a real OpenAPI 3.1 validator from npm (@apidevtools/
# swagger-parser, pinned in t/tools) accepts it, and it holds every row of
# `waymark routes list` with its method, its path parameters and, for paid
# rows, the 402 with both challenges and x-payment-info at the table's
# price, read by both discovery readers (x402scan's price and protocols;
# the MPP draft's offers and x-service-info, through mppx's own discovery
# module); docs/openapi.json is the committed reference document.
# /.well-known/x402 lists the paid rows, /skill.md their prices. Cross-origin
# (lib/cors.h): reads, paid and sign-in answers, preflights of POST rows and
# /mcp, nginx's own error pages.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/http.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
tool=$WAYMARK_BUILD/waymark
conf=$WAYMARK_VAR/waymark.conf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$http_tmp"' EXIT
rows=$("$tool" routes list)
nrows=$(wc -l <<<"$rows")

# ---- the served document
req GET /openapi.json
is "$status" 200 "GET /openapi.json: 200"
is "$(header content-type)" application/json "GET /openapi.json: JSON"
printf '%s' "$body" > "$tmp/served.json"
"$tool" -c "$conf" routes openapi > "$tmp/printed.json"
ok $? "waymark routes openapi prints the document of the running configuration"
diff <(jq "$SORTED" "$tmp/served.json") <(jq "$SORTED" "$tmp/printed.json") >/dev/null
ok $? "the served document is exactly what waymark routes openapi prints"
is "$(jq -r '.openapi + " " + .info.version' "$tmp/served.json")" "3.1.0 0.8.0" \
	"OpenAPI 3.1.0, info.version 0.8.0 (spec section 9)"
is "$(node "$top/t/tools/openapi-validate.mjs" < "$tmp/served.json")" "valid 3.1.0 $nrows" \
	"swagger-parser validates it: OpenAPI 3.1.0 with one operation per table row ($nrows)"
# The validator is not a formality: a response without its description, or a
# reference to nothing, is refused.
jq '.paths["/health"].get.responses["200"] |= del(.description)' "$tmp/served.json" > "$tmp/bad1.json"
like "$(node "$top/t/tools/openapi-validate.mjs" < "$tmp/bad1.json" | tr '\n' ' ')" '^invalid: .*description' \
	"the validator refuses a response without its description"
jq '.paths["/health"].get.responses["402"] = {"$ref": "#/components/responses/Nope"}' \
	"$tmp/served.json" > "$tmp/bad2.json"
like "$(node "$top/t/tools/openapi-validate.mjs" < "$tmp/bad2.json")" '^invalid: .*Nope' \
	"the validator refuses a reference to a missing component"

# ---- every row, held against the table
mpp=$(jq -r '[.prices[0].protocols[]] | join(",")' <<<"$(curl -s "$WAYMARK_TEST_URL/api/v1/x402/economics")")
like "$mpp" '^x402,mpp$' "the test stack offers both rails (economics), so the description must too"
bad=""
while IFS=$'\t' read -r method pattern id auth price bodymax rate; do
	m=$(tr 'A-Z' 'a-z' <<<"$method")
	got=$(jq -r --arg p "$pattern" --arg m "$m" '.paths[$p][$m] as $o | if $o == null then "missing" else
		[$o.operationId,
		 ($o.responses["402"]["$ref"] // "-"),
		 ($o["x-payment-info"].price | if . then .mode + " " + .currency + " " + .amount else "-" end),
		 ($o["x-payment-info"].protocols | if . then map(keys[0]) | join(",") else "-" end),
		 ($o.security | if . == null then "none" elif . == [] then "free" else map(keys[0]) | join(",") end),
		 ([$o.parameters[]? | select(.in == "path") | .name] | join(","))] | join("|") end' "$tmp/served.json")
	params=$(grep -o '{[^}]*}' <<<"$pattern" | tr -d '{}' | paste -sd, -)
	case $auth in
	paid) want="$id|#/components/responses/PaymentRequired|fixed USD $price|x402,mpp|none|$params" ;;
	siwx) want="$id|#/components/responses/SignInRequired|-|-|siwx|$params" ;;
	*) want="$id|-|-|-|free|$params" ;;
	esac
	[ "$got" = "$want" ] || bad="$bad
#   $method $pattern: got $got, want $want"
done <<<"$rows"
is "$bad" "" "every row is an operation with its method, id and path parameters; every paid row has its 402 and x-payment-info at the table's price; sign-in rows siwx"
is "$(jq '[.paths[][] ] | length' "$tmp/served.json")" "$nrows" "no operation that is not a table row"
is "$(jq -r '.components.responses.PaymentRequired.headers | keys | join(",")' "$tmp/served.json")" \
	"PAYMENT-REQUIRED,WWW-Authenticate" "the paid 402 describes both challenge headers"
is "$(jq -r '.components.headers["PAYMENT-REQUIRED"].required' "$tmp/served.json")" true \
	"PAYMENT-REQUIRED is always on a paid 402"
is "$(jq -r '.components.schemas.Error.required | join(",")' "$tmp/served.json")" "error,message" \
	"the JSON error shape is a component: error and message required"
is "$(jq -r '.components.securitySchemes.siwx | .in + " " + .name' "$tmp/served.json")" \
	"header SIGN-IN-WITH-X" "the sign-in scheme is named siwx (as x402 crawlers look it up)"
is "$(jq -r '[.paths[][] | select(.["x-payment-info"]) | .["x-payment-info"].protocols[] | select(.mpp) | .mpp.method + " " + .mpp.intent] | unique | join(",")' "$tmp/served.json")" \
	"evm charge" "MPP is offered as evm charge on every paid row"

# ---- the MPP discovery reading: mppx's own discovery module (t/mpp/discovery.mjs)
mppd=$(node "$top/t/mpp/discovery.mjs" --url "$WAYMARK_TEST_URL")
is "$(jq -c '[.errors[] | select(.severity == "error")]' <<<"$mppd")" "[]" \
	"mppx's discovery validator finds no error in the document"
is "$(jq -c '[.serviceInfo.categories, (.serviceInfo.docs | keys)]' <<<"$mppd")" \
	'[["discovery","reviews","reputation","payments"],["apiReference","homepage","llms"]]' \
	"it reads x-service-info: categories, and where the API reference, the home page and the agent docs are"
usdc=$("$tool" -c "$conf" config get usdc_address)
want_offers=$(awk -F'\t' -v u="$usdc" '$4 == "paid" { printf "%s %s charge evm %d %s\n", $1, $2, $5 * 1000000 + 0.5, u }' \
	<<<"$rows" | sort)
is "$(jq -r '.offers[] | "\(.operation) \(.intent) \(.method) \(.amount) \(.currency)"' <<<"$mppd" | sort)" "$want_offers" \
	"it reads one MPP offer per paid row: evm charge, the table's price in atomic USDC, the configured USDC"
is "$(jq -r .paid <<<"$mppd")" "$(grep -c . <<<"$want_offers")" "and every paid operation has x-payment-info"
# The reader is not a formality: a flat amount beside offers is refused.
jq '.paths["/api/v1/x402/reports/compare"].post["x-payment-info"].amount = "1"' "$tmp/served.json" > "$tmp/mixed.json"
like "$(node "$top/t/mpp/discovery.mjs" --file "$tmp/mixed.json" | jq -r '.errors[] | .path + ": " + .message')" \
	'reports/compare.post.x-payment-info: Cannot mix offers' "mppx's reader refuses a flat offer mixed with offers"
is "$(jq -r '.paths["/api/v1/x402/reviews/self-reported"].post.requestBody.content["application/json"].schema | [.additionalProperties, (.required | join(","))] | map(tostring) | join(" ")' "$tmp/served.json")" \
	"false review,signature" "a strict row's body schema is closed and names its required fields"
is "$(jq -r '.paths["/api/v1/x402/discovery"].get.parameters | map(.name + ":" + .in) | join(",")' "$tmp/served.json")" \
	"q:query,limit:query,reviewer:query" "query fields are query parameters, in the table's order"
is "$(jq -r '.paths["/api/v1/x402/discovery"].get.parameters[1].schema | [.type, .minimum, .maximum, .default] | map(tostring) | join(" ")' "$tmp/served.json")" \
	"integer 1 20 10" "a field's bounds and default are its schema's"
is "$(jq -r '.paths["/api/v1/x402/reviews/receipt-verified"].post.responses | keys | join(",")' "$tmp/served.json")" \
	"200,201,202,400,402,404,413,415,429,503,default" "a paid publication: 201 created, 202 settled but not finished, its refusals"
is "$(jq -r '.paths["/api/v1/x402/profiles"].post.responses | keys | map(select(startswith("20"))) | join(",")' "$tmp/served.json")" \
	"200,201" "an idempotent creation: 200 for the identical record, 201 created (spec section 5)"
is "$(jq -r '.paths["/api/v1/x402/profiles/{profileId}/wallet-links"].post.responses | keys | map(select(startswith("20"))) | join(",")' "$tmp/served.json")" \
	"201" "a creation that answers 201 every time lists no 200"
is "$(jq -r '.paths["/api/v1/x402/profiles/{profileId}/activity"].post.responses | keys | map(select(startswith("20"))) | join(",")' "$tmp/served.json")" \
	"201" "nor does the activity publication, 201 even when stored already"

# ---- the committed reference document
env -i "$tool" routes openapi --reference > "$tmp/reference.json"
cmp -s "$tmp/reference.json" "$top/docs/openapi.json"
ok $? "docs/openapi.json is what the build writes (waymark routes openapi --reference)"
if git -C "$top" rev-parse --verify -q HEAD >/dev/null 2>&1; then
	git -C "$top" show HEAD:docs/openapi.json > "$tmp/committed.json" 2>/dev/null
	cmp -s "$tmp/reference.json" "$tmp/committed.json"
	ok $? "the committed docs/openapi.json is the generated one (commit it with the table)"
else
	ok 0 "# SKIP not a git checkout: the committed docs/openapi.json cannot be read"
fi
is "$(node "$top/t/tools/openapi-validate.mjs" < "$top/docs/openapi.json")" "valid 3.1.0 $nrows" \
	"docs/openapi.json validates too"

# ---- /.well-known/x402
base=$("$tool" -c "$conf" config get public_base_url)
req GET /.well-known/x402
is "$status" 200 "GET /.well-known/x402: 200"
is "$(jqr .version)" 1 "the fan-out document's version 1"
want=$(awk -F'\t' '$4 == "paid" && $2 !~ /\{/ { print $2 }' <<<"$rows" | sort -u | sed "s|^|$base|")
is "$(jqr '.resources[]' | sort)" "$want" "resources: every paid row with a single URL, absolute"
like "$(jqr .instructions)" "$base/openapi.json" "its instructions point at the OpenAPI description"
req GET /api/v1/x402/routes
is "$status" 402 "a listed resource answers 402"
like "$(header payment-required)" '^[A-Za-z0-9+/]+=*$' "with its x402 challenge"

# ---- /skill.md
req GET /skill.md
is "$status" 200 "GET /skill.md: 200"
like "$(header content-type)" '^text/markdown' "as markdown"
like "$(head -n 5 <<<"$body" | tr '\n' ' ')" '^--- name: waymark description: .* version: 0\.19\.0 ---' \
	"its front matter: name, description, version 0.19.0 (spec section 9)"
miss=""
while IFS=$'\t' read -r method pattern id auth price _; do
	[ "$auth" = paid ] || continue
	grep -qxF "| $method | \`$pattern\` | $price |" <<<"$body" || miss="$miss $method:$pattern"
done <<<"$rows"
is "$miss" "" "every paid row is in its price table at the table's price"
is "$(grep -c '^| [A-Z]* | `' <<<"$body")" "$(awk -F'\t' '$4 == "paid"' <<<"$rows" | wc -l)" \
	"and no other row"
v3=$(awk -F'\t' '$3 == "x402.reviews.self_reported" { print $5 }' <<<"$rows")
v2=$(awk -F'\t' '$3 == "x402.reviews.receipt_verified" { print $5 }' <<<"$rows")
like "$body" "reviews/self-reported\` \`\{review, signature\}\`, \\\$$v3;" "the self_reported review's price is the table's (\$$v3)"
like "$(tr '\n' ' ' <<<"$body")" "receipt-verified\` \`\{review, signature, evidence\}\` with the route's signed offer and receipt, \\\$$v2;" \
	"the receipt_verified review's price is the table's (\$$v2)"
for w in x402 MPP SIGN-IN-WITH-X PAYMENT-SIGNATURE 'Authorization: Payment' /api/v1/x402/discovery; do
	like "$body" "$w" "the skill file tells how: $w"
done

# ---- cross-origin
O=(-H 'Origin: https://app.example')
req GET "/api/v1/x402/discovery?q=weather" "${O[@]}"
is "$status,$(header access-control-allow-origin)" "200,*" "a free read answers any origin"
req GET /api/site/x402/discover "${O[@]}"
is "$(header access-control-allow-origin)" "*" "a site read too"
req GET /api/v1/x402/routes "${O[@]}"
is "$status,$(header access-control-allow-origin)" "402,*" "a paid row's 402 answers any origin"
is "$(grep -ci '^access-control-allow-origin:' <<<"$headers")" 1 "with one Access-Control-Allow-Origin (never twice)"
for h in PAYMENT-REQUIRED PAYMENT-RESPONSE WWW-Authenticate Payment-Receipt; do
	like "$(header access-control-expose-headers)" "(^|, )$h(,|$)" "a paid row exposes $h"
done
req POST /api/v1/x402/profiles "${O[@]}" -H 'Content-Type: application/json' \
	--data-binary '{"controllerAccount":"eip155:8453:0x0000000000000000000000000000000000000001"}'
is "$status,$(header access-control-allow-origin)" "402,*" "a sign-in row's 402 answers any origin"
like "$(header access-control-expose-headers)" '(^|, )PAYMENT-REQUIRED(,|$)' "and exposes its challenge"

preflight() { # preflight PATH METHOD HEADERS
	req OPTIONS "$1" "${O[@]}" -H "Access-Control-Request-Method: $2" -H "Access-Control-Request-Headers: $3"
}
preflight /api/v1/x402/reports/compare POST 'content-type, payment-signature'
is "$status,$(header access-control-allow-origin)" "204,*" "a paid POST row's preflight: 204 for any origin"
is "$(header access-control-allow-methods)" POST "its methods"
for h in Content-Type PAYMENT-SIGNATURE Authorization; do
	like "$(header access-control-allow-headers)" "(^|, )$h(,|$)" "it allows $h"
done
like "$(header access-control-max-age)" '^[0-9]+$' "and may be cached"
preflight /api/v1/workflows/cost-preview POST content-type
is "$status,$(header access-control-allow-methods)" "204,POST" "a free POST row's preflight"
preflight /api/v1/x402/profiles/00000000-0000-4000-8000-000000000000/discovery PUT 'content-type, sign-in-with-x'
is "$status,$(header access-control-allow-methods)" "204,PUT" "a sign-in row's preflight (a path with a parameter)"
like "$(header access-control-allow-headers)" '(^|, )SIGN-IN-WITH-X(,|$)' "it allows SIGN-IN-WITH-X"
preflight /api/v1/x402/reviews POST content-type
is "$status,$(header access-control-allow-methods)" "204,GET, POST" "a path of two rows allows both methods"
like "$(header access-control-allow-headers)" '(^|, )PAYMENT-SIGNATURE(,|$)' "and the headers of both (the paid GET's)"
preflight /tips/1 GET x-boon-auth-sig
like "$(header access-control-allow-headers)" '(^|, )x-boon-auth-sig(,|$)' "the private-tip unlock allows its signed headers"
preflight /mcp POST 'content-type, mcp-protocol-version, mcp-session-id'
is "$status,$(header access-control-allow-methods)" "204,GET, POST" "/mcp's preflight, without any credential"
for h in Content-Type Accept Authorization Mcp-Session-Id MCP-Protocol-Version Last-Event-ID Mcp-Method Mcp-Name; do
	like "$(header access-control-allow-headers)" "(^|, )$h(,|$)" "/mcp allows $h"
done
req POST /mcp "${O[@]}" -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
	--data-binary '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}'
is "$status,$(header access-control-allow-origin)" "200,*" "/mcp answers any origin"
like "$(header access-control-expose-headers)" '(^|, )Mcp-Session-Id(,|$)' "and exposes Mcp-Session-Id on the real answer"
req OPTIONS /no/such/path "${O[@]}" -H 'Access-Control-Request-Method: GET'
is "$status,$(jqr .error)" "404,not_found" "no preflight for a path no row has"
is "$(header access-control-allow-origin)" "*" "nginx's own error page answers any origin too"
done_testing
