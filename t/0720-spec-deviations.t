#!/usr/bin/env bash
# Deviations from the interface that were fixed, each through the real stack
# (nginx, the workers, MariaDB, a local chain): the GET /mcp description;
# the tool surface without the database; discovery keeping a route while
# any of its descriptions is current and reloading when one expires; real
# coverage flags and an error, never an empty success, when a needed source
# is unavailable; the JSON error shape for requests nginx refuses itself;
# the brand word only in lib/brand.h. (The line-break rule of review text is
# tested in each lane's file: t/0900, t/0910 and t/0930.)
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
. "$(dirname "$0")/lib/http.sh"
export WAYMARK_SEED=0 WAYMARK_CONFIRMATIONS=0
# It stops MariaDB: a server of its own, not the suite's shared one (tools/stack).
unset WAYMARK_SHARED_DB
cport=$((WAYMARK_TEST_PORT_BASE + 26))
export WAYMARK_CATALOG_URL=http://127.0.0.1:$cport
node "$top/t/tools/catalog-fixture.mjs" "$cport" 4 > "$http_tmp/fixture.out" &
cpid=$!
n=0; until grep -q ready "$http_tmp/fixture.out" 2>/dev/null || [ $n -ge 3000 ]; do n=$((n + 1)); sleep 0.02; done
chain_stack deviations 25
ok $? "a stack with a local chain starts"
trap 'kill $cpid 2>/dev/null; rm -rf "$http_tmp"; "$top/tools/stack" stop >/dev/null 2>&1' EXIT
WAYMARK_TEST_URL=$URL
WAYMARK_CONFIG=$WAYMARK_VAR/waymark.conf "$WAYMARK_BUILD/waymark" catalog-sync >/dev/null
ok $? "the catalog fixture is synced"
viem=$top/t/tools/node_modules/viem/_cjs
brand=$(sed -n 's/^#define BRAND_LOWER "\(.*\)"$/\1/p' "$top/lib/brand.h")
rpc=(-H 'Content-Type: application/json' -H 'MCP-Protocol-Version: 2025-11-25')

# ---- GET /mcp: a JSON description of the tool surface; 405 for an event stream
req POST /mcp "${rpc[@]}" --data-binary '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'
tools_list=$(jqr '.result.tools' | jq -c "$SORTED")
req GET /mcp
is "$status,$(header content-type)" "200,application/json" "a plain GET /mcp: 200 JSON"
is "$(jqr '.tools' | jq -c "$SORTED")" "$tools_list" "it lists the tools exactly as tools/list does (names, input schemas)"
is "$(jqr '[.tools[].name] | join(",")')" \
	"${brand}_discovery,${brand}_economics,${brand}_draft_review,${brand}_prepare_review,${brand}_suggest_recognition,${brand}_prepare_agent_recognition,${brand}_lookup_recognition,${brand}_lookup_agent_reputation,${brand}_claim_help" \
	"the four tools and the five free agent skills"
is "$(jqr '.actions | [.pays, .signs, .fetchesUrls, .publishes, .monitors] | map(tostring) | join(",")')" \
	false,false,false,false,false "nothing pays, signs, fetches, publishes or monitors"
is "$(jqr '.transport.method, .transport.path' | tr '\n' ' ')" "POST /mcp " "the tools are called by POST /mcp"
req GET /mcp -H 'Accept: text/event-stream'
check_error 405 method_not_allowed "GET /mcp asking for text/event-stream (the Streamable HTTP probe)"
req GET /mcp -H 'Accept: application/json, text/event-stream'
is "$status" 405 "any Accept naming text/event-stream: 405"
req POST /api/v1/workflows/cost-preview -H 'Content-Type: application/json' \
	--data-binary '{"requests":[{"method":"GET","path":"/mcp"},{"method":"POST","path":"/mcp","quantity":3}]}'
is "$status" 200 "the cost preview knows GET /mcp"
is "$(jqr '[.steps[] | "\(.resourceId):\(.payment.required)"] | join(",")')" "mcp.describe:false,mcp:false" \
	"both /mcp rows are free"
is "$(jqr .total.atomic)" 0 "total 0"

# ---- discovery: a route stays a candidate while any description is current
ROUTE=0x4fa0fcdb54475d7e8c02c5fd1e4ffac0f2b5997975e9be2988a1d5759f8e6af0   # GET https://api.example.com/v1/forecast
CURL=https://api0.weather.example.com/v2/weather-forecast                  # catalog item 0 (GET)
CROUTE=0x$(sql "SELECT LOWER(HEX(route_id)) FROM catalog_resources WHERE resource_url = '$CURL'")
KEY0=0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80   # the endpoint payTo
KEY9=0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6   # the network payTo
address_of() { node "$top/t/tools/addr.mjs" "$1"; }
ADDR0=$(address_of $KEY0); ADDR9=$(address_of $KEY9)
out=$( { send --from-key $KEY7 --route $ROUTE --endpoint "$ADDR0" --endpoint-usdc 10000 --network "$ADDR9" --network-usdc 1000
	send --from-key $KEY7 --route "$CROUTE" --endpoint "$ADDR0" --endpoint-usdc 10000; } )
wait_indexed "$(printf '%s\n' "$out" | jq -s 'map(.blockNumber) | max')"
ok $? "routed recognitions of both routes are indexed"
# publish KEY URL CREATED EXPIRES INTENT: a route context signed by KEY.
publish() {
	jq -cn --arg k "$1" --arg u "$2" --argjson c "$3" --argjson e "$4" --arg i "$5" '{key: $k, note: {version: "1",
		route: {publicEndpointUrl: $u, method: "GET"}, intent: $i, fit: "Use it for one place at a time.",
		limits: [], requestSchemaUri: null, documentationUri: null, contextUris: [], createdAt: $c, expiresAt: $e}}' |
		node "$top/t/tools/gen-route-context.mjs" body > "$http_tmp/ctx"
	req POST /api/v1/x402/route-contexts -H 'Content-Type: application/json' --data-binary "@$http_tmp/ctx"
	[ "$status" = 201 ] || { diag "publication: $status $body"; return 1; }
}
now=$(date +%s); short=$((now + 12))   # room for three publications (through the node helper) on a loaded machine
publish $KEY0 https://api.example.com/v1/forecast $((now - 600)) $((now + 86400)) "Longlived forecast note."
ok $? "the endpoint wallet publishes a long-lived context"
publish $KEY9 https://api.example.com/v1/forecast $((now - 60)) $short "Shortlived forecast note."
ok $? "the network wallet publishes a newer context that expires in seconds"
publish $KEY0 $CURL $((now - 60)) $short "Shortlived catalog route note."
ok $? "a short-lived context of the catalog-listed route"
cand() { # cand ROUTE: the candidate of discovery?q=forecast for ROUTE (or nothing)
	req GET "/api/v1/x402/discovery?q=forecast&limit=20"
	jqr ".candidates[] | select(.routeId == \"$1\")"
}
is "$(cand $ROUTE | jq -r .summary)" "Shortlived forecast note. Use it for one place at a time." \
	"while current, the newest context describes the route"
like "$(cand "$CROUTE" | jq -r '.matchReasons | join(" ")')" "route context.*catalog" \
	"the catalog route is described by its context and its listing"
while [ "$(date +%s)" -le "$short" ]; do sleep 0.5; done
c=$(cand $ROUTE)
is "$(jq -r .routeId <<<"$c")" "$ROUTE" "after the newest context expired the route is still a candidate"
is "$(jq -r .summary <<<"$c")" "Longlived forecast note. Use it for one place at a time." \
	"described by the older context that is still current (the corpus noticed the expiry by itself)"
c=$(cand "$CROUTE")
is "$(jq -r .routeId <<<"$c")" "$CROUTE" "the catalog route stays a candidate after its only context expired"
is "$(jq -r '.matchReasons | map(select(test("route context"))) | length' <<<"$c")" 0 \
	"no longer described by the expired context, only by its listing"

# ---- coverage: each source's real state; an error when a needed source is missing
req GET "/api/v1/x402/discovery?q=forecast"
is "$(jqr '.coverage | [.routes.available, .reviews.available, .activity.available] | map(tostring) | join(",")')" \
	true,true,true "all sources available: coverage says so"
# The test stacks keep no discovery cache (discovery_check_ms 0, tools/stack):
# each request re-checks the sources, so a change is seen by the next one
# (t/0140 runs the cache on).
sql "RENAME TABLE reviews TO reviews_away"
req GET "/api/v1/x402/discovery?q=forecast"
is "$status" 200 "reviews unavailable: a query that needs no reviews still answers"
is "$(jqr '.coverage | [.routes.available, .reviews.available] | map(tostring) | join(",")')" true,false \
	"and its coverage says reviews are unavailable"
req GET "/api/v1/x402/discovery?reviewer=$ADDR0"
check_error 500 internal_error "a reviewer query without the reviews (a statement the server refuses): an error, not an empty result"
sql "RENAME TABLE reviews_away TO reviews"
sql "RENAME TABLE route_contexts TO route_contexts_away"
req GET "/api/v1/x402/discovery?q=forecast"
check_error 500 internal_error "route descriptions unavailable (a statement the server refuses): an error, not an empty result"
sql "RENAME TABLE route_contexts_away TO route_contexts"
req GET "/api/v1/x402/discovery?q=forecast"
is "$status,$(jqr '.coverage.reviews.available')" 200,true "both back: 200 with reviews available"

# ---- requests nginx refuses by itself: the JSON error shape too
host=${WAYMARK_LISTEN%:*}; port=${WAYMARK_LISTEN##*:}
# raw REQUEST: send bytes as they are; sets $status, $body and $headers.
raw() {
	exec 3<>"/dev/tcp/$host/$port"
	printf '%b' "$1" >&3
	timeout 5 cat <&3 | tr -d '\r' > "$http_tmp/raw"
	exec 3<&-
	status=$(head -n1 "$http_tmp/raw" | cut -d' ' -f2)
	headers=$(sed '/^$/q' "$http_tmp/raw")
	body=$(sed '1,/^$/d' "$http_tmp/raw")
}
json_error() { # json_error STATUS CODE DESCRIPTION
	is "$status,$(header content-type),$(jqr .error)" "$1,application/json,$2" "$3: $1 JSON $2"
	like "$(jqr .message)" '^.{10,}$' "$3: with a message"
}
req GET '/api/v1/x402/discovery%00' --path-as-is
json_error 400 invalid_request "%00 in the path"
req GET '/api/v1/x402/routes/%00/reviews' --path-as-is
json_error 400 invalid_request "%00 in a path parameter"
req GET '/../etc/passwd' --path-as-is
json_error 400 invalid_request "a path above the root"
raw 'GARBAGE\r\n\r\n'
json_error 400 invalid_request "a request line that is not HTTP"
raw 'GET /health HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n'
json_error 400 invalid_request "a header line without a colon"
raw 'GET /health HTTP/1.1\r\n\r\n'
json_error 400 invalid_request "HTTP/1.1 without Host"
raw 'GET /health HTTP/9.1\r\nHost: x\r\n\r\n'
json_error 505 http_version_not_supported "HTTP/9.1"
raw 'POST /mcp HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n'
json_error 501 not_implemented "an unknown transfer encoding"
req GET "/health?$(head -c 40000 /dev/zero | tr '\0' a)"
json_error 414 uri_too_long "a 40 KB request line"
req GET /health -H "X-Big: $(head -c 40000 /dev/zero | tr '\0' a)"
json_error 431 headers_too_large "a 40 KB header"
req GET /.waymark-error/400
json_error 404 not_found "the error pages are internal"

# ---- the brand word: only lib/brand.h spells it; the wire names derive from it
upper=$(sed -n 's/^#define BRAND_UPPER "\([^"]*\)".*/\1/p' "$top/lib/brand.h")
lint=$("$top/tools/lint" 2>&1)
is "$?,$(grep -c 'brand word' <<<"$lint")" 0,0 "tools/lint: no brand-word literal outside lib/brand.h"
req GET /api/v1/x402/economics
is "$(jqr '.. | objects | select(has("symbol")) | .symbol' | sort -u | grep -c "^$upper$")" 1 \
	"the token symbol comes from brand.h ($upper)"
req POST /api/v1/workflows/cost-preview -H 'Content-Type: application/json' \
	--data-binary "{\"requests\":[{\"method\":\"POST\",\"path\":\"/api/v1/x402/reviews\"},{\"method\":\"GET\",\"path\":\"/api/v1/x402/routed-${brand}s?routeId=$ROUTE\"}]}"
is "$(jqr '[.steps[].resourceId] | join(",")')" "x402.reviews.${brand}_backed,x402.routed_${brand}s" \
	"resource ids built from the brand word"

# ---- /mcp without MariaDB: only the discovery tool fails, as a tool error
"$top/tools/stack" db-stop
# Fresh workers (multiwatch replaces each one this test's stack stops), so
# none holds a connection opened before the database went away.
mw=$(cat "$WAYMARK_VAR/run/workers.pid"); nw=$(pgrep -P "$mw" | wc -l)
kill $(pgrep -P "$mw")
n=0; until [ "$(pgrep -P "$mw" | wc -l)" -eq "$nw" ] && [ $n -ge 5 ] || [ $n -ge 500 ]; do n=$((n + 1)); sleep 0.02; done
req POST /mcp "${rpc[@]}" --data-binary \
	'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}'
is "$status,$(jqr .result.protocolVersion)" 200,2025-11-25 "database down: initialize answers"
req POST /mcp "${rpc[@]}" --data-binary '{"jsonrpc":"2.0","id":2,"method":"tools/list"}'
is "$status,$(jqr '.result.tools | length')" 200,9 "tools/list answers"
req POST /mcp "${rpc[@]}" --data-binary \
	"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"${brand}_economics\"}}"
is "$status,$(jqr .result.isError)" 200,false "the economics tool answers"
req POST /mcp "${rpc[@]}" --data-binary \
	"{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"${brand}_discovery\",\"arguments\":{\"q\":\"forecast\"}}}"
is "$status,$(jqr .result.isError),$(jqr .result.structuredContent.error)" 200,true,database_unavailable \
	"the discovery tool answers a tool error naming the database"
req GET /mcp
is "$status" 200 "GET /mcp answers"
req GET "/api/v1/x402/discovery"
check_error 503 database_unavailable "the discovery endpoint itself: 503"
"$top/tools/stack" db-start

done_testing
